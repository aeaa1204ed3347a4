import Foundation
import Workspace

extension HARImporter {
    /// One part of a `multipart/form-data` body as its text holds it.
    struct TextPart: Equatable {
        var name: String
        var filename: String?
        var contentType: String?
        var content: String
    }

    /// The parts of a `multipart/form-data` body's text (`postData.text`), as Firefox and Chrome
    /// write it with each file's content inside; nil when the text is not such a body (no
    /// boundary, no part, no closing delimiter).
    ///
    /// - Parameters:
    ///   - text: the body.
    ///   - mimeType: `postData.mimeType`, whose `boundary` parameter is read first; without one,
    ///     the boundary is the text's first line.
    static func multipartParts(of text: String, mimeType: String) -> [TextPart]? {
        var boundary = mimeType.split(separator: ";").lazy.compactMap { parameter -> String? in
            let pair = parameter.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { return nil }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }.first
        if boundary == nil || !text.contains("--" + (boundary ?? "")) {
            guard text.hasPrefix("--"), let end = text.firstIndex(where: { $0 == "\r\n" || $0 == "\n" }) else {
                return nil
            }
            boundary = String(text[text.index(text.startIndex, offsetBy: 2)..<end])
        }
        guard let boundary, !boundary.isEmpty else { return nil }
        let delimiter = "--" + boundary
        var chunks = text.components(separatedBy: delimiter)
        // Before the first delimiter: the preamble; after the last: `--` and the epilogue.
        guard chunks.count >= 3, chunks.last?.hasPrefix("--") == true else { return nil }
        chunks.removeFirst()
        chunks.removeLast()
        var parts: [TextPart] = []
        for chunk in chunks {
            var body = Substring(chunk)
            if body.hasPrefix("\r\n") {
                body = body.dropFirst()
            } else if body.hasPrefix("\n") {
                body = body.dropFirst()
            }
            // Swift reads "\r\n" as one Character.
            let separator = body.range(of: "\r\n\r\n") ?? body.range(of: "\n\n")
            guard let separator else { return nil }
            let head = body[..<separator.lowerBound]
            var content = body[separator.upperBound...]
            if content.hasSuffix("\r\n") || content.hasSuffix("\n") { content = content.dropLast() }
            var part = TextPart(name: "", content: String(content))
            for line in head.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
                let pair = line.split(separator: ":", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let value = pair[1].trimmingCharacters(in: .whitespaces)
                switch pair[0].trimmingCharacters(in: .whitespaces).lowercased() {
                case "content-disposition":
                    part.name = dispositionParameter("name", in: value) ?? ""
                    part.filename = dispositionParameter("filename", in: value)
                case "content-type":
                    part.contentType = value
                default:
                    break
                }
            }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts
    }

    /// A parameter of a `Content-Disposition` value (`name="file"`, quoted or not).
    private static func dispositionParameter(_ key: String, in value: String) -> String? {
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == key else { continue }
            var text = pair[1].trimmingCharacters(in: .whitespaces)
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            return text
        }
        return nil
    }
}
