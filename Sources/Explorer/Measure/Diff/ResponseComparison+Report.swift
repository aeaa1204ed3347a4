import Foundation
import NetworkingCore

extension ResponseComparison {
    /// The widest value shown on one line of the text report; longer ones end in `…`.
    package static let shownValueWidth = 120

    /// The comparison as lines of text, the two sides' values beside each other (`first | second`):
    ///
    /// ```
    /// local      200 OK   3.1 ms  GET http://127.0.0.1:8080/v1/users/1
    /// staging    200 OK   2.9 ms  GET http://127.0.0.1:8081/v1/users/1
    /// status     same
    /// headers    1 differs
    ///   Content-Length: 120 | 131
    /// body       1 difference (JSON)
    ///   ~ $.email: "ada@example.com" | "ada@staging.example.com"
    /// ```
    ///
    /// - Parameter mask: hides secret values in what is shown (a credential header's value is
    ///   never shown, whatever `mask` does).
    /// - Returns: the lines, without newlines; untrusted text, to escape before printing.
    package func reportLines(mask: (String) -> String = { $0 }) -> [String] {
        let width = max(first.environment.count, second.environment.count, 7) + 2
        func pad(_ text: String) -> String {
            text.padding(toLength: max(width, text.count + 1), withPad: " ", startingAt: 0)
        }
        var lines: [String] = []
        for side in [first, second] {
            let time = side.status == nil ? "" : "  " + Self.milliseconds(side.milliseconds)
            lines.append(pad(side.environment) + side.statusLine + time + "  " + side.method + " " + mask(side.url))
        }
        lines.append(pad("status") + (statusDiffers ? "differs: \(first.statusLine) | \(second.statusLine)" : "same"))
        if first.status == nil || second.status == nil { return lines }
        lines.append(
            pad("headers") + (headers.isEmpty ? "same" : "\(headers.count) differ\(headers.count == 1 ? "s" : "")"))
        for header in headers {
            let secret = HTTPHeaders.isCredential(name: header.name)
            func shown(_ value: String?) -> String {
                guard let value else { return "(none)" }
                return secret ? "••••" : Self.clipped(mask(value))
            }
            lines.append("  \(header.name): \(shown(header.first)) | \(shown(header.second))")
        }
        switch body {
        case .same:
            lines.append(pad("body") + "same")
        case .json(let result):
            let count = result.differences.count + result.omitted
            lines.append(pad("body") + "\(count) difference\(count == 1 ? "" : "s") (JSON)")
            for difference in result.differences {
                func shown(_ value: JSONValue?) -> String {
                    value.map { Self.clipped(mask($0.serialized())) } ?? "(none)"
                }
                let values: String
                switch difference.kind {
                case .added: values = shown(difference.second)
                case .removed: values = shown(difference.first)
                case .type:
                    values =
                        "\(shown(difference.first)) (\(difference.first?.typeName ?? "")) | "
                        + "\(shown(difference.second)) (\(difference.second?.typeName ?? ""))"
                default: values = "\(shown(difference.first)) | \(shown(difference.second))"
                }
                lines.append("  \(difference.kind.mark) \(difference.path): \(values)")
            }
            if result.omitted > 0 { lines.append("  … \(result.omitted) more not listed") }
            for unapplied in result.unappliedIgnores { lines.append("  ! " + unapplied) }
        case .text(let line, let a, let b):
            lines.append(pad("body") + "differs from line \(line)")
            lines.append("  - " + (a.map { Self.clipped(mask($0)) } ?? "(no such line)"))
            lines.append("  + " + (b.map { Self.clipped(mask($0)) } ?? "(no such line)"))
        case .bytes(let a, let b):
            lines.append(pad("body") + "differs (bytes: \(a) | \(b))")
        }
        return lines
    }

    /// The comparison as one JSON object (`explorer compare --json`).
    ///
    /// - Parameter mask: hides secret values (a credential header's value is never written).
    package func jsonObject(mask: (String) -> String = { $0 }) -> JSONValue {
        func side(_ exchange: ComparedExchange) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("environment", .string(exchange.environment)),
                ("method", .string(exchange.method)),
                ("url", .string(mask(exchange.url))),
                ("status", exchange.status.map { JSONValue($0) } ?? .null),
                ("reason", exchange.reason.map { .string($0) } ?? .null),
                ("milliseconds", JSONValue((exchange.milliseconds * 1000).rounded() / 1000)),
            ]
            if let failure = exchange.failure { members.append(("error", .string(failure))) }
            return .object(members)
        }
        func masked(_ value: JSONValue?) -> JSONValue {
            guard let value else { return .null }
            switch value {
            case .string(let text): return .string(mask(text))
            case .array(let values): return .array(values.map { masked($0) })
            case .object(let members): return .object(members.map { ($0.key, masked($0.value)) })
            default: return value
            }
        }
        let headerList: [JSONValue] = headers.map { header in
            let secret = HTTPHeaders.isCredential(name: header.name)
            func shown(_ value: String?) -> JSONValue {
                value.map { .string(secret ? "••••" : mask($0)) } ?? .null
            }
            return .object([
                ("name", .string(header.name)), ("first", shown(header.first)), ("second", shown(header.second)),
            ])
        }
        let bodyObject: JSONValue
        switch body {
        case .same:
            bodyObject = .object([("kind", "same")])
        case .json(let result):
            bodyObject = .object([
                ("kind", "json"),
                (
                    "differences",
                    .array(
                        result.differences.map { difference in
                            .object([
                                ("kind", .string(difference.kind.rawValue)), ("path", .string(difference.path)),
                                ("first", masked(difference.first)), ("second", masked(difference.second)),
                            ])
                        })
                ),
                ("omitted", JSONValue(result.omitted)),
                ("unappliedIgnores", .array(result.unappliedIgnores.map { .string($0) })),
            ])
        case .text(let line, let a, let b):
            bodyObject = .object([
                ("kind", "text"), ("line", JSONValue(line)),
                ("first", a.map { .string(mask($0)) } ?? .null), ("second", b.map { .string(mask($0)) } ?? .null),
            ])
        case .bytes(let a, let b):
            bodyObject = .object([("kind", "bytes"), ("firstSize", JSONValue(a)), ("secondSize", JSONValue(b))])
        }
        return .object([
            ("matches", .bool(matches)),
            ("first", side(first)),
            ("second", side(second)),
            ("status", .object([("differs", .bool(statusDiffers))])),
            ("headers", .array(headerList)),
            ("body", bodyObject),
        ])
    }

    /// `3.1 ms`, `12 ms`, `1.24 s`.
    package static func milliseconds(_ value: Double) -> String {
        if value >= 1000 { return String(format: "%.2f s", value / 1000) }
        if value >= 10 { return String(format: "%.0f ms", value) }
        return String(format: "%.1f ms", value)
    }

    /// A value cut to `shownValueWidth` characters.
    package static func clipped(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: "\\n")
        return flat.count <= shownValueWidth ? flat : String(flat.prefix(shownValueWidth - 1)) + "…"
    }
}
