import Foundation
import Networking
import Terminal

/// A response body made ready to show: decoded by its charset, pretty-printed when it is JSON
/// or XML, indexed by line, and highlighted only for the lines that are drawn.
///
/// Building one is linear in the body's size and happens off the main queue; drawing asks
/// only for the visible lines, so a 50 MB body draws as fast as a small one.
package struct BodyDocument: Sendable {
    /// How the body is shown.
    enum Kind: String, Sendable {
        case json = "JSON"
        case xml = "XML"
        case html = "HTML"
        case text = "text"
        case binary = "binary"
        case empty = "empty"
        /// Server-sent events or JSON lines, one block per event as it arrived.
        case events = "events"
    }

    let kind: Kind
    let contentType: String
    /// The size of the body as received.
    let byteCount: Int
    /// The text shown, line-indexed (for binary: empty; lines are hex-dumped on demand).
    let text: LineIndex
    /// The body as received (shared with the response, not copied), for the Raw tab, hex
    /// dumps and saving.
    let raw: Data
    /// Where the lines of `raw` start.
    let rawLines: RawLineIndex
    /// The charset the text was decoded with, when it came from Content-Type.
    let charset: String?

    static let hexBytesPerLine = 16

    /// Prepares a body for display.
    ///
    /// - Parameters:
    ///   - data: the body bytes as received.
    ///   - contentType: the response's Content-Type, if any.
    ///   - isCut: whether the bytes stop before the body's end (still arriving, or a stored copy
    ///     cut at its cap): JSON is then pretty-printed as far as it goes.
    static func make(_ data: Data, contentType: String?, isCut: Bool = false) -> BodyDocument {
        let type = (contentType ?? "").lowercased()
        let charset = Self.charset(in: type)
        func document(_ kind: Kind, _ text: LineIndex, charset: String?) -> BodyDocument {
            BodyDocument(kind: kind, contentType: type, byteCount: data.count, text: text, raw: data, rawLines: RawLineIndex(data), charset: charset)
        }
        guard !data.isEmpty else { return document(.empty, LineIndex([UInt8]()), charset: charset) }
        if Self.looksBinary(data, contentType: type) { return document(.binary, LineIndex([UInt8]()), charset: nil) }
        let converted = Self.convertedToUTF8(data, charset: charset)
        let firstByte = (converted.map { $0.first { !$0.isJSONWhitespace } })
            ?? data.first { !$0.isJSONWhitespace }
        let jsonLike = type.contains("json")
            || (type.isEmpty || type.hasPrefix("text/plain")) && (firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "["))
        if jsonLike {
            let pretty = converted.map { bytes in bytes.withUnsafeBytes { JSONPrettyPrinter.prettyPrint($0, allowingCut: isCut) } }
                ?? data.withUnsafeBytes { JSONPrettyPrinter.prettyPrint($0, allowingCut: isCut) }
            if let pretty { return document(.json, LineIndex(pretty), charset: charset) }
        }
        let utf8 = converted ?? [UInt8](data)
        if type.contains("xml") || type.contains("html") {
            return document(type.contains("html") ? .html : .xml, LineIndex(MarkupIndenter.indent(utf8)), charset: charset)
        }
        return document(.text, LineIndex(utf8), charset: charset)
    }

    /// The number of lines shown.
    package var lineCount: Int {
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
        case .events: return EventLog.spans(line)
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

    /// The lines that contain `needle`, case-insensitively for ASCII letters, in order (for
    /// binary bodies: the hex-dump lines).
    func linesMatching(_ needle: String) -> [Int] {
        guard kind == .binary else { return text.lines(containing: needle) }
        let wanted = needle.lowercased()
        guard !wanted.isEmpty else { return [] }
        return (0..<lineCount).filter { plainLine($0).lowercased().contains(wanted) }
    }

    // MARK: - Decoding

    /// The charset a `Content-Type` names, as written (the one parser: Networking's).
    static func charset(in contentType: String) -> String? {
        TextDecoding.charset(in: contentType)
    }

    /// The body converted to UTF-8 when its charset is a known one other than UTF-8; nil when
    /// it is shown as it is (UTF-8 or unknown: invalid sequences are drawn as replacement
    /// characters). The same decoding as `explorer send`'s.
    static func convertedToUTF8(_ data: Data, charset: String?) -> [UInt8]? {
        TextDecoding.convertedToUTF8(data, charset: charset)
    }

    static func looksBinary(_ data: Data, contentType: String) -> Bool {
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

    static func hexLine(_ data: Data, line: Int) -> String {
        let start = line * hexBytesPerLine
        guard start < data.count else { return "" }
        let chunk = data[data.startIndex + start..<data.startIndex + min(start + hexBytesPerLine, data.count)]
        var hex = chunk.map { String(format: "%02x", $0) }.joined(separator: " ")
        hex += String(repeating: " ", count: max(0, hexBytesPerLine * 3 - 1 - hex.count))
        let ascii = String(chunk.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
        return String(format: "%08x  ", start) + hex + "  " + ascii
    }
}

extension UInt8 {
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}

/// Where the lines of a `Data` start, found with `memchr` without copying the bytes.
struct RawLineIndex: Sendable {
    let data: Data
    let lineStarts: [Int]

    init(_ data: Data) {
        self.data = data
        var starts = [0]
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            var position = 0
            while position < buffer.count, let hit = memchr(base + position, 0x0A, buffer.count - position) {
                position = base.distance(to: UnsafeRawPointer(hit)) + 1
                if position < buffer.count { starts.append(position) }
            }
        }
        lineStarts = starts
    }

    var lineCount: Int { lineStarts.count }

    /// A line as text (invalid UTF-8 as U+FFFD), without its line break, at most `maxBytes`.
    func line(_ index: Int, maxBytes: Int) -> String {
        guard lineStarts.indices.contains(index) else { return "" }
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : data.count
        end = min(end, start + maxBytes)
        let base = data.startIndex
        var slice = data[base + start..<base + max(start, end)]
        if slice.last == 0x0D { slice = slice.dropLast() }
        return String(decoding: slice, as: UTF8.self)
    }
}

extension BodyDocument: TextSource {
    package func line(_ index: Int, maxCharacters: Int) -> [Span] { spans(index, maxCharacters: maxCharacters) }
}
