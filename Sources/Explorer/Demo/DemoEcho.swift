import Foundation
import Hummingbird

/// What `/echo` answers: the request as the server received it, in httpbin's shape.
///
/// `args` and `form` map a name to a string, or to an array of strings when it was repeated;
/// `headers` keep the names as sent, repeated ones joined with ", ". A UTF-8 body is in `body`,
/// any other in `bodyBase64`; JSON bodies are also parsed into `json`, urlencoded ones into
/// `form`, multipart ones into `form` and `files`.
struct DemoEcho {
    let object: [String: Any]

    init(request: Hummingbird.Request, body: Data, environment: String) {
        var object: [String: Any] = [
            "method": request.method.rawValue,
            "path": request.uri.path,
            "url": request.uri.string,
            "args": Self.grouped(Self.formPairs(request.uri.query ?? "")),
            "environment": environment,
        ]
        var headers: [String: String] = [:]
        var headerOrder: [String] = []
        for field in request.headers {
            let name = field.name.rawName
            if let existing = headers[name] {
                headers[name] = existing + ", " + field.value
            } else {
                headers[name] = field.value
                headerOrder.append(name)
            }
        }
        object["headers"] = headers
        object["bodySize"] = body.count
        if let text = String(data: body, encoding: .utf8) {
            object["body"] = text
        } else {
            object["bodyBase64"] = body.base64EncodedString()
        }
        let contentType = (request.headers[.contentType] ?? "").lowercased()
        if contentType.contains("json"), !body.isEmpty,
            let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        {
            object["json"] = json
        }
        if contentType.hasPrefix("application/x-www-form-urlencoded"), let text = String(data: body, encoding: .utf8) {
            object["form"] = Self.grouped(Self.formPairs(text))
        }
        // The boundary is case-sensitive: it is read from the header as sent.
        if contentType.hasPrefix("multipart/form-data"),
            let boundary = Self.boundary(in: request.headers[.contentType] ?? "")
        {
            let parts = Self.multipartParts(body, boundary: boundary)
            object["form"] = Self.grouped(parts.compactMap { $0.filename == nil ? ($0.name, $0.text ?? "") : nil })
            object["files"] = parts.filter { $0.filename != nil }.map { part -> [String: Any] in
                var file: [String: Any] = [
                    "name": part.name, "filename": part.filename ?? "", "size": part.content.count,
                    "contentType": part.contentType ?? "application/octet-stream",
                ]
                if let text = part.text {
                    file["content"] = text
                } else {
                    file["contentBase64"] = part.content.base64EncodedString()
                }
                return file
            }
        }
        self.object = object
    }

    // MARK: - Parsing

    /// `a=1&b=x%20y&a=2` as ordered, decoded pairs (`+` is a space, as in forms).
    static func formPairs(_ query: String) -> [(String, String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// Pairs as a dictionary whose repeated names hold arrays.
    static func grouped(_ pairs: [(String, String)]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (name, value) in pairs {
            switch result[name] {
            case nil: result[name] = value
            case let single as String: result[name] = [single, value]
            case let many as [String]: result[name] = many + [value]
            default: break
            }
        }
        return result
    }

    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    struct Part {
        var name = ""
        var filename: String?
        var contentType: String?
        var content = Data()
        var text: String? { String(data: content, encoding: .utf8) }
    }

    static func multipartParts(_ body: Data, boundary: String) -> [Part] {
        let delimiter = Data("--\(boundary)".utf8)
        var parts: [Part] = []
        var searchStart = body.startIndex
        var sections: [Range<Data.Index>] = []
        var previousEnd: Data.Index?
        while let range = body.range(of: delimiter, in: searchStart..<body.endIndex) {
            if let start = previousEnd { sections.append(start..<range.lowerBound) }
            previousEnd = range.upperBound
            searchStart = range.upperBound
        }
        let headerEnd = Data("\r\n\r\n".utf8)
        for section in sections {
            var data = body[section]
            if data.starts(with: Data("\r\n".utf8)) { data = data.dropFirst(2) }
            if data.suffix(2) == Data("\r\n".utf8) { data = data.dropLast(2) }
            guard let split = data.range(of: headerEnd) else { continue }
            let headerText = String(decoding: data[data.startIndex..<split.lowerBound], as: UTF8.self)
            var part = Part()
            part.content = Data(data[split.upperBound...])
            for line in headerText.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                } else if lower.hasPrefix("content-disposition:") {
                    part.name = Self.dispositionParameter("name", in: line) ?? ""
                    part.filename = Self.dispositionParameter("filename", in: line)
                }
            }
            parts.append(part)
        }
        return parts
    }

    private static func dispositionParameter(_ key: String, in line: String) -> String? {
        for piece in line.split(separator: ";").dropFirst() {
            let pair = piece.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].lowercased() == key {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
