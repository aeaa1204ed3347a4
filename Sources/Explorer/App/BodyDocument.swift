import Foundation

/// A response body made ready to show: decoded by its charset, pretty-printed when it is JSON
/// or XML, indexed by line, and highlighted only for the lines that are drawn.
///
/// Building one is linear in the body's size and happens off the main queue; drawing asks
/// only for the visible lines, so a 50 MB body draws as fast as a small one.
struct BodyDocument: Sendable {
    /// How the body is shown.
    enum Kind: String, Sendable {
        case json = "JSON"
        case xml = "XML"
        case html = "HTML"
        case text = "text"
        case binary = "binary"
        case empty = "empty"
    }

    let kind: Kind
    let contentType: String
    /// The size of the body as received.
    let byteCount: Int
    /// The text shown, line-indexed (for binary: empty; lines are hex-dumped on demand).
    let text: LineIndex
    /// The body as received, line-indexed, for the Raw tab.
    let rawLines: LineIndex
    /// The body as received, for hex dumps and saving.
    var raw: [UInt8] { rawLines.bytes }
    /// The charset the text was decoded with, when it came from Content-Type.
    let charset: String?

    static let hexBytesPerLine = 16

    /// Prepares a body for display.
    ///
    /// - Parameters:
    ///   - data: the body bytes as received.
    ///   - contentType: the response's Content-Type, if any.
    static func make(_ data: [UInt8], contentType: String?) -> BodyDocument {
        let type = (contentType ?? "").lowercased()
        let charset = Self.charset(in: type)
        guard !data.isEmpty else {
            return BodyDocument(kind: .empty, contentType: type, byteCount: 0, text: LineIndex([UInt8]()), rawLines: LineIndex(data), charset: charset)
        }
        if Self.looksBinary(data, contentType: type) {
            return BodyDocument(kind: .binary, contentType: type, byteCount: data.count, text: LineIndex([UInt8]()), rawLines: LineIndex(data), charset: nil)
        }
        let utf8 = Self.utf8Bytes(data, charset: charset)
        let firstByte = utf8.first { !$0.isJSONWhitespace }
        if type.contains("json") || (type.isEmpty || type.hasPrefix("text/plain")) && (firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")),
           let pretty = JSONPrettyPrinter.prettyPrint(utf8) {
            return BodyDocument(kind: .json, contentType: type, byteCount: data.count, text: LineIndex(pretty), rawLines: LineIndex(data), charset: charset)
        }
        if type.contains("xml") || type.contains("html") {
            let kind: Kind = type.contains("html") ? .html : .xml
            return BodyDocument(kind: kind, contentType: type, byteCount: data.count, text: LineIndex(MarkupIndenter.indent(utf8)), rawLines: LineIndex(data), charset: charset)
        }
        let raw = LineIndex(data)
        let text = utf8 == data ? raw : LineIndex(utf8)
        return BodyDocument(kind: .text, contentType: type, byteCount: data.count, text: text, rawLines: raw, charset: charset)
    }

    /// The number of lines shown.
    var lineCount: Int {
        switch kind {
        case .binary: return (raw.count + Self.hexBytesPerLine - 1) / Self.hexBytesPerLine
        case .empty: return 0
        default: return text.lineCount
        }
    }

    /// One shown line as plain text (sanitized when drawn).
    func plainLine(_ index: Int, maxBytes: Int = 4096) -> String {
        switch kind {
        case .binary: return Self.hexLine(raw, line: index)
        case .empty: return ""
        default: return text.line(index, maxBytes: maxBytes)
        }
    }

    /// One shown line, highlighted for its kind.
    func spans(_ index: Int, maxCharacters: Int) -> [Span] {
        let line = plainLine(index, maxBytes: max(maxCharacters * 4, 64))
        switch kind {
        case .json: return JSONHighlighter.spans(line)
        case .xml, .html: return MarkupIndenter.spans(line)
        case .binary: return [Span(line, role: .text)]
        default: return [Span(line)]
        }
    }

    /// A one-line description: kind, size and charset.
    var summary: String {
        var parts = [kind.rawValue, ByteCountFormatter.string(fromByteCount: Int64(byteCount), countStyle: .binary)]
        if !contentType.isEmpty { parts.append(contentType) }
        return parts.joined(separator: " · ")
    }

    // MARK: - Search

    /// The lines that contain `needle`, case-insensitively for ASCII letters, in order.
    func linesMatching(_ needle: String) -> [Int] {
        let pattern = Array(needle.lowercased().utf8)
        guard !pattern.isEmpty else { return [] }
        var result: [Int] = []
        for line in 0..<lineCount {
            if kind == .binary {
                if plainLine(line).lowercased().contains(needle.lowercased()) { result.append(line) }
                continue
            }
            if Self.contains(text.bytes, in: text.range(ofLine: line), pattern) { result.append(line) }
        }
        return result
    }

    private static func contains(_ bytes: [UInt8], in range: Range<Int>, _ pattern: [UInt8]) -> Bool {
        let count = pattern.count
        guard range.count >= count else { return false }
        let first = pattern[0]
        var index = range.lowerBound
        let last = range.upperBound - count
        while index <= last {
            if bytes[index].asciiLowercased == first {
                var offset = 1
                while offset < count && bytes[index + offset].asciiLowercased == pattern[offset] { offset += 1 }
                if offset == count { return true }
            }
            index += 1
        }
        return false
    }

    // MARK: - Decoding

    static func charset(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == "charset" { return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return nil
    }

    /// The body as UTF-8: Latin-1 and Windows-1252 bodies are converted, others kept as they are
    /// (invalid UTF-8 is shown as replacement characters when drawn).
    static func utf8Bytes(_ data: [UInt8], charset: String?) -> [UInt8] {
        switch charset {
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: data.map { Unicode.Scalar($0) })
            return Array(String(scalars).utf8)
        case "windows-1252", "cp1252":
            if let text = String(data: Data(data), encoding: .windowsCP1252) { return Array(text.utf8) }
            return data
        default:
            return data
        }
    }

    static func looksBinary(_ data: [UInt8], contentType: String) -> Bool {
        if contentType.hasPrefix("image/") || contentType.hasPrefix("audio/") || contentType.hasPrefix("video/")
            || contentType.contains("octet-stream") || contentType.contains("zip") || contentType.contains("pdf") {
            return true
        }
        if contentType.hasPrefix("text/") || contentType.contains("json") || contentType.contains("xml") { return false }
        // Unknown type: binary when the first KB has NUL bytes or is mostly not text.
        let sample = data.prefix(1024)
        let control = sample.filter { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20) }.count
        return sample.contains(0) || control * 10 > sample.count
    }

    static func hexLine(_ data: [UInt8], line: Int) -> String {
        let start = line * hexBytesPerLine
        guard start < data.count else { return "" }
        let chunk = data[start..<min(start + hexBytesPerLine, data.count)]
        var hex = chunk.map { String(format: "%02x", $0) }.joined(separator: " ")
        hex += String(repeating: " ", count: max(0, hexBytesPerLine * 3 - 1 - hex.count))
        let ascii = String(chunk.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
        return String(format: "%08x  ", start) + hex + "  " + ascii
    }
}

extension UInt8 {
    var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self + 0x20 : self }
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}

extension BodyDocument: TextSource {
    func line(_ index: Int, maxCharacters: Int) -> [Span] { spans(index, maxCharacters: maxCharacters) }
}
