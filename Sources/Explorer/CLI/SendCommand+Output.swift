import Checks
import Foundation
import History
import NetworkingCore
import Workspace

/// How `explorer send` and `explorer history` print an exchange: the body alone, the head with
/// `--include`, or one JSON object with `--json`.
///
/// On a terminal JSON bodies are pretty-printed and control characters are shown escaped (a
/// response is untrusted); when piped, the body's bytes go out exactly as received.
enum ExchangeOutput {
    /// Whether standard output is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard input is a terminal.
    static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Writes bytes to standard output as they are.
    ///
    /// - Parameter data: the bytes.
    static func write(_ data: Data) {
        writeStandardOutput(data)
    }

    /// Writes text to standard output as it is.
    ///
    /// - Parameter text: the text.
    static func write(_ text: String) {
        write(Data(text.utf8))
    }

    // MARK: - Body

    /// The response body as it should be printed.
    ///
    /// - Parameters:
    ///   - body: the body bytes, if any.
    ///   - contentType: the body's content type, if known.
    ///   - terminal: whether the output is a terminal (pretty JSON, escaped controls, no raw binary).
    /// - Returns: the bytes to write, ending with a newline on a terminal.
    static func printableBody(_ body: Data?, contentType: String?, terminal: Bool) -> Data {
        guard let body, !body.isEmpty else { return Data() }
        guard terminal else { return body }
        guard let text = decodedText(body, contentType: contentType) else {
            let kind = contentType.map { ", \($0)" } ?? ""
            return Data("(binary body, \(body.count) bytes\(kind); pipe the output to a file to keep it)\n".utf8)
        }
        var shown = text
        if body.count <= prettyPrintLimit, looksLikeJSON(contentType: contentType, text: text),
            let value = JSONValue.container(parsing: text)
        {
            shown = value.serialized(pretty: true)
        }
        shown = escapingControls(shown)
        if !shown.hasSuffix("\n") { shown += "\n" }
        return Data(shown.utf8)
    }

    /// Writes the response body as `printableBody` gives it, a piece at a time: a body that is
    /// not pretty-printed (over 2 MB, or not JSON) is escaped and written in pieces rather than
    /// copied whole into text.
    ///
    /// - Parameters:
    ///   - body: the body bytes, if any.
    ///   - contentType: the body's content type, if known.
    ///   - terminal: whether the output is a terminal.
    static func writeBody(_ body: Data?, contentType: String?, terminal: Bool) {
        guard let body, !body.isEmpty else { return }
        guard terminal, body.count > prettyPrintLimit else {
            return write(printableBody(body, contentType: contentType, terminal: terminal))
        }
        if let converted = TextDecoding.charset(in: contentType ?? "").flatMap({
            TextDecoding.convertedToUTF8(body, charset: $0)
        }) {
            return BodyPieces(body: Data(converted)).writeEscapedText { write($0) }
        }
        let pieces = BodyPieces(body: body)
        guard pieces.isUTF8 else { return write(printableBody(body, contentType: contentType, terminal: terminal)) }
        pieces.writeEscapedText { write($0) }
    }

    /// The largest body pretty-printed on a terminal (larger ones are printed as they came).
    static let prettyPrintLimit = 2 * 1024 * 1024

    /// A body as text: in the charset its `Content-Type` names when that is a known one, else
    /// as UTF-8; `nil` when it is not text in either.
    ///
    /// - Parameters:
    ///   - body: the bytes.
    ///   - contentType: the `Content-Type`, if any.
    /// - Returns: the text, or `nil` for a binary body.
    static func decodedText(_ body: Data, contentType: String?) -> String? {
        TextDecoding.text(body, contentType: contentType)
    }

    /// The text with control characters, escape sequences and bidirectional overrides shown
    /// escaped (`\u{1B}` as `\e`, others as `\x07` or `\u{202E}`), keeping tabs, and newlines
    /// unless the text must stay on one line (a row of a list). The one way the command line
    /// writes text it did not write itself: what a server or an imported file says.
    ///
    /// - Parameters:
    ///   - text: untrusted text.
    ///   - keepingLineBreaks: whether a newline stays one (`false`: shown as `\n`).
    /// - Returns: text that is safe to write to a terminal.
    static func escapingControls(_ text: String, keepingLineBreaks: Bool = true) -> String {
        func isEscaped(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || (!keepingLineBreaks && scalar == "\n") }
        guard text.unicodeScalars.contains(where: isEscaped) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isEscaped(scalar) {
                out.append(scalar)
            } else if scalar == "\u{1B}" {
                out.append(contentsOf: "\\e".unicodeScalars)
            } else if scalar == "\n" {
                out.append(contentsOf: "\\n".unicodeScalars)
            } else if scalar.value > 0xFF {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(contentsOf: String(format: "\\x%02X", scalar.value).unicodeScalars)
            }
        }
        return String(out)
    }

    /// C0 and C1 controls but newline and tab, DEL, and the marks that reorder what follows
    /// them on screen (bidirectional overrides and isolates).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
            || [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }

    private static func looksLikeJSON(contentType: String?, text: String) -> Bool {
        if let contentType = contentType?.lowercased(), contentType.contains("json") { return true }
        let first = text.first { !$0.isWhitespace }
        return first == "{" || first == "["
    }

    // MARK: - Head

    /// The status line and headers, as `--include` prints them before the body.
    ///
    /// - Parameters:
    ///   - entry: the exchange.
    ///   - terminal: whether to escape control characters.
    /// - Returns: the head, ending with a blank line.
    static func head(of entry: HistoryEntry, terminal: Bool) -> String {
        var lines = [
            "\(entry.httpVersion ?? "HTTP/1.1") \(entry.status.map(String.init) ?? "---") \(entry.reason ?? "")"
                .trimmingCharacters(in: .whitespaces)
        ]
        lines += entry.responseHeaders.map { "\($0.name): \($0.value)" }
        let text = lines.joined(separator: "\n") + "\n\n"
        return terminal ? escapingControls(text) : text
    }

    // MARK: - JSON

    /// The exchange as one JSON object: `method`, `url`, `environment`, `status`, `reason`,
    /// `headers`, `body` (+ `bodyEncoding: "base64"` for binary), `timings` (ms), `historyId`.
    ///
    /// - Parameters:
    ///   - entry: the exchange.
    ///   - historyId: its id in the history, if it was recorded.
    ///   - includeRequest: also add `request` (headers and body) and the stored details, as
    ///     `explorer history show --json` does.
    ///   - checks: what the endpoint's assertions and captures found, added as `checks`
    ///     (each assertion, whether it passed, the actual value and why it failed) and
    ///     `captured` (the names set).
    /// - Returns: the JSON text, one line, keys sorted.
    static func json(
        of entry: HistoryEntry, historyId: Int64?, includeRequest: Bool = false, checks: CheckReport? = nil
    ) -> String {
        var text = Data()
        writeJSON(of: entry, historyId: historyId, includeRequest: includeRequest, checks: checks, newline: false) {
            text.append($0)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Writes the exchange as `json(of:)` gives it, then a newline, its bodies escaped (or
    /// base64-encoded) and written a piece at a time: a 100 MB body is never copied whole.
    ///
    /// - Parameters:
    ///   - entry: the exchange.
    ///   - historyId: its id in the history, if it was recorded.
    ///   - includeRequest: also add `request` and the stored details (`json(of:)`).
    ///   - checks: what the endpoint's assertions and captures found (`json(of:)`).
    ///   - newline: whether a newline ends the object.
    ///   - write: where the pieces go (standard output by default).
    static func writeJSON(
        of entry: HistoryEntry, historyId: Int64?, includeRequest: Bool = false, checks: CheckReport? = nil,
        newline: Bool = true,
        to write: (Data) -> Void = { ExchangeOutput.write($0) }
    ) {
        var bodies = SplicedBodies()
        var object: [String: Any] = [
            "method": entry.method,
            "url": entry.url,
            "environment": entry.environment ?? NSNull(),
            "endpoint": entry.endpoint ?? NSNull(),
            "status": entry.status ?? NSNull(),
            "reason": entry.reason ?? NSNull(),
            "headers": headerObject(entry.responseHeaders),
            "timings": timingsObject(entry.timings),
            "historyId": historyId ?? NSNull(),
        ]
        if let error = entry.transportError { object["error"] = error }
        if let checks {
            object["checks"] = checks.assertions.map { result -> [String: Any] in
                [
                    "assert": result.text, "passed": result.passed, "actual": result.actual ?? NSNull(),
                    "reason": result.reason ?? NSNull(),
                ]
            }
            object["captured"] = checks.captured.map(\.name)
            if !checks.captureFailures.isEmpty { object["captureFailures"] = checks.captureFailures }
            if let schema = checks.schema { object["schema"] = schema.jsonObject }
        }
        bodies.add(entry.responseBody, to: &object, key: "body")
        if includeRequest {
            var request: [String: Any] = [
                "method": entry.method, "url": entry.url,
                "headers": headerObject(entry.requestHeaders),
                "bodySize": entry.requestBodySize,
            ]
            bodies.add(entry.requestBody, to: &request, key: "body")
            object["request"] = request
            object["time"] = iso8601(entry.startedAt)
            object["collection"] = entry.collectionPath ?? NSNull()
            object["bodySize"] = entry.responseBodySize
            object["bodyTruncated"] = entry.isResponseBodyTruncated
            object["contentType"] = entry.contentType ?? NSNull()
            object["httpVersion"] = entry.httpVersion ?? NSNull()
        }
        bodies.write(around: Data(jsonText(object).utf8), to: write)
        if newline { write(Data([0x0A])) }
    }

    /// Serializes a JSON-compatible value on one line with sorted keys.
    ///
    /// - Parameter value: dictionaries, arrays, strings, numbers, `NSNull`.
    /// - Returns: the JSON text.
    static func jsonText(_ value: Any) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        else {
            return "{}"
        }
        return JSONControlEscapes.escaping(String(decoding: data, as: UTF8.self))
    }

    /// A date as ISO 8601 in UTC with milliseconds.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// The bodies of a JSON object, written into its text in place of markers: the object is
    /// serialized with a random marker for each body, then written with each marker replaced
    /// by its body, escaped or in base64 a piece at a time.
    private struct SplicedBodies {
        private var bodies: [(marker: Data, pieces: BodyPieces, isText: Bool)] = []

        /// Sets `key` to a marker for `body` (`null` when there is none), and `key + "Encoding"`
        /// to `"base64"` when the body is not UTF-8.
        mutating func add(_ body: Data?, to object: inout [String: Any], key: String) {
            guard let body else {
                object[key] = NSNull()
                return
            }
            let marker = "explorer-body-\(UUID().uuidString)"
            let pieces = BodyPieces(body: body)
            let isText = pieces.isUTF8
            object[key] = marker
            if !isText { object[key + "Encoding"] = "base64" }
            bodies.append((Data("\"\(marker)\"".utf8), pieces, isText))
        }

        /// Writes `text` with each body in place of its marker.
        func write(around text: Data, to write: (Data) -> Void) {
            var start = text.startIndex
            let found = bodies.compactMap { body in text.range(of: body.marker).map { ($0, body) } }.sorted {
                $0.0.lowerBound < $1.0.lowerBound
            }
            for (range, body) in found where range.lowerBound >= start {
                write(text[start..<range.lowerBound] + Data([0x22]))
                if body.isText { body.pieces.writeJSONString(write) } else { body.pieces.writeBase64(write) }
                write(Data([0x22]))
                start = range.upperBound
            }
            write(text[start...])
        }
    }

    private static func headerObject(_ headers: HTTPHeaders) -> [String: String] {
        var object: [String: String] = [:]
        for field in headers {
            if let existing = object[field.name] {
                object[field.name] = existing + ", " + field.value
            } else {
                object[field.name] = field.value
            }
        }
        return object
    }

    private static func timingsObject(_ timings: HistoryTimings) -> [String: Any] {
        var object: [String: Any] = ["total": rounded(timings.totalMilliseconds)]
        if let head = timings.headMilliseconds { object["head"] = rounded(head) }
        if !timings.redirects.isEmpty {
            object["redirects"] = timings.redirects.map { hop -> [String: Any] in
                [
                    "url": hop.url, "status": hop.status, "location": hop.location,
                    "time": hop.milliseconds.map(rounded) ?? NSNull(),
                ]
            }
        }
        return object
    }

    private static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
