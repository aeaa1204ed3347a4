import Foundation
import NetworkingCore
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
    /// The lines shown (for binary: none; lines are hex-dumped on demand).
    let text: BodyLines
    /// The body as received (shared with the response, not copied; mapped from its spool
    /// file when large), for the Raw tab, hex dumps and saving.
    let raw: Data
    /// The lines of `raw`.
    let rawLines: RawLines
    /// The charset the text was decoded with, when it came from Content-Type.
    let charset: String?
    /// Why the body is not shown as its kind would be (markup too deep to lay out), drawn
    /// above it.
    var note: String? = nil

    static let hexBytesPerLine = 16
    /// XML and HTML up to this size are indented (in memory); larger ones show as they are.
    static let markupLayoutLimit = 16 * 1024 * 1024

    /// The indexes a live body builds as its bytes arrive, so that the complete body needs no
    /// second pass.
    struct Indexes: Sendable {
        var raw = RawLines.Builder()
        /// Kept while the body may be shown as JSON.
        var json: PrettyJSONLines.Builder?

        /// Indexes for a body of this Content-Type: JSON is indexed when the type says JSON
        /// or says nothing more than text, and the body needs no charset conversion.
        init(contentType: String?) {
            let type = (contentType ?? "").lowercased()
            let converts =
                BodyDocument.charset(in: type).flatMap(TextDecoding.encoding(named:)).map { $0 != .utf8 } ?? false
            // An event stream or JSON lines show as events: no document to print.
            let events = EventLog.Kind(contentType: contentType) != nil
            if !converts, !events, type.contains("json") || type.isEmpty || type.hasPrefix("text/plain") {
                json = PrettyJSONLines.Builder()
            }
        }

        mutating func consume(_ chunk: Data) {
            raw.consume(chunk)
            json?.consume(chunk)
            if json?.failed == true { json = nil }
        }
    }

    /// Prepares a body for display.
    ///
    /// - Parameters:
    ///   - data: the body bytes as received.
    ///   - contentType: the response's Content-Type, if any.
    ///   - isCut: whether the bytes stop before the body's end (still arriving, or a stored copy
    ///     cut at its cap): JSON is then pretty-printed as far as it goes.
    ///   - indexes: the indexes built while `data` arrived (all of it); built here when nil.
    static func make(_ data: Data, contentType: String?, isCut: Bool = false, indexes: Indexes? = nil) -> BodyDocument {
        let type = (contentType ?? "").lowercased()
        let charset = Self.charset(in: type)
        let rawLines = indexes.map { $0.raw.lines(of: data) } ?? RawLines(data)
        func document(_ kind: Kind, _ text: BodyLines, charset: String?) -> BodyDocument {
            BodyDocument(
                kind: kind, contentType: type, byteCount: data.count, text: text, raw: data, rawLines: rawLines,
                charset: charset)
        }
        guard !data.isEmpty else { return document(.empty, .empty, charset: charset) }
        if Self.looksBinary(data, contentType: type) { return document(.binary, .empty, charset: nil) }
        let converted = Self.convertedToUTF8(data, charset: charset)
        let firstByte =
            (converted.map { $0.first { !$0.isJSONWhitespace } })
            ?? data.first { !$0.isJSONWhitespace }
        let jsonLike =
            type.contains("json")
            || (type.isEmpty || type.hasPrefix("text/plain"))
                && (firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "["))
        if jsonLike {
            if let converted {
                if let pretty = converted.withUnsafeBytes({ JSONPrettyPrinter.prettyPrint($0, allowingCut: isCut) }) {
                    return document(.json, .laidOut(LineIndex(pretty)), charset: charset)
                }
            } else {
                // A live body's builder, or one pass over the bytes now.
                let json =
                    indexes.map(\.json)
                    ?? {
                        var builder = PrettyJSONLines.Builder()
                        builder.consume(data)
                        return builder
                    }()
                if let json, json.byteCount == data.count, !json.failed, isCut || json.isBalanced {
                    return document(.json, .prettyJSON(json.lines(of: data)), charset: charset)
                }
            }
        }
        if type.contains("xml") || type.contains("html"), data.count <= markupLayoutLimit {
            let kind = type.contains("html") ? Kind.html : .xml
            switch MarkupIndenter.layout(converted ?? [UInt8](data), html: kind == .html) {
            case .laidOut(let text):
                return document(kind, .laidOut(LineIndex(text)), charset: charset)
            case .overBudget(let deepest):
                var shown =
                    converted.map { document(kind, .laidOut(LineIndex($0)), charset: charset) }
                    ?? document(kind, .raw(rawLines), charset: charset)
                shown.note = Self.notLaidOutNote(kind, deepest: deepest)
                return shown
            }
        }
        if let converted { return document(.text, .laidOut(LineIndex(converted)), charset: charset) }
        return document(.text, .raw(rawLines), charset: charset)
    }

    /// Why markup is shown as received: laid out, it would pass the layout's budget.
    static func notLaidOutNote(_ kind: Kind, deepest: Int) -> String {
        var levels = String(deepest)
        for comma in Swift.stride(from: levels.count - 3, to: 0, by: -3) {
            levels.insert(",", at: levels.index(levels.startIndex, offsetBy: comma))
        }
        return
            "Shown as received: this \(kind.rawValue) nests \(levels) levels deep, and indented it would take more than "
            + "\(MarkupIndenter.layoutFactor) times its size plus \(ByteCountText.binary(MarkupIndenter.layoutAllowance)), "
            + "the most the view lays out. s saves it to a file."
    }

    /// An event view (server-sent events, JSON lines, a WebSocket log): the events laid out
    /// as text, and the bytes received as its Raw tab.
    static func events(_ text: String, contentType: String, byteCount: Int, raw: Data, rawLines: RawLines? = nil)
        -> BodyDocument
    {
        BodyDocument(
            kind: .events, contentType: contentType, byteCount: byteCount, text: .laidOut(LineIndex(text: text)),
            raw: raw,
            rawLines: rawLines ?? RawLines(raw), charset: nil)
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
        var parts = [kind.rawValue, ByteCountText.binary(byteCount)]
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
            || contentType.contains("octet-stream") || contentType.contains("zip") || contentType.contains("pdf")
        {
            return true
        }
        if contentType.hasPrefix("text/") || contentType.contains("json") || contentType.contains("xml") {
            return false
        }
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

extension BodyDocument: TextSource {
    package func line(_ index: Int, maxCharacters: Int) -> [Span] { spans(index, maxCharacters: maxCharacters) }
}
