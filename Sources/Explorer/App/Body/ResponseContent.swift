import Checks
import Foundation
import History
import NetworkingCore
import Terminal
import Workspace

/// The text each response tab shows, as a `TextSource` that `ScrollText` draws lazily.
///
/// A model of the content, not a view: the response pane draws it, and the reducer measures it
/// to scroll (page sizes, the bottom line), so neither calls into the other.
enum ResponseContent {
    static func source(for state: AppState) -> any TextSource {
        guard let exchange = state.shown else { return LinesTextSource([]) }
        let masker = exchange.masker
        switch state.responseTab {
        case .body:
            if let document = state.shownDocument {
                if document.kind == .empty { return LinesTextSource(text: "(empty body)", style: Style(.dim)) }
                return masked(state.shownBodySource ?? document, with: masker)
            }
            return LinesTextSource([])
        case .headers:
            guard let response = exchange.response else { return LinesTextSource([]) }
            return LinesTextSource(headerLines(masker.mask(headers: response.headers)))
        case .raw:
            guard let response = exchange.response else { return LinesTextSource([]) }
            if response.document.kind == .binary {
                return masked(response.document, with: masker)
            }
            return masked(
                RawResponseSource(response: response, headers: masker.mask(headers: response.headers)), with: masker)
        case .timing:
            return LinesTextSource(timingLines(exchange) + recentLatencyLines(exchange, history: state.history))
        case .request:
            return LinesTextSource(requestLines(exchange))
        case .checks:
            return LinesTextSource(checkLines(exchange.checks))
        case .schema:
            return LinesTextSource(schemaLines(exchange.checks?.schema))
        }
    }

    /// How many lines of the Schema tab come before its first violation.
    static let schemaHeadLines = 2

    /// The Schema tab: what was checked against what, then each violation on two lines (where
    /// in the body and what, then where in the document), so that line `2 + 2i` is the i-th.
    static func schemaLines(_ check: SchemaCheck?) -> [[Span]] {
        guard let check else {
            return [[Span("This response was not checked against an OpenAPI document.", role: .dim)]]
        }
        var lines: [[Span]] = []
        if let unmatched = check.unmatched {
            lines.append([
                Span(check.passed ? "· " : "✗ ", role: check.passed ? .dim : .status4xx), Span(unmatched, role: .text),
            ])
            lines.append([
                Span(
                    check.passed
                        ? "  Not checked: name the operation with operation: on the endpoint."
                        : "  The endpoint asks to be checked (assert: - schema).", role: .dim)
            ])
            return lines
        }
        let operation = check.operation ?? "its operation"
        if check.violations.isEmpty {
            return [
                [
                    Span("✓ ", role: .status2xx),
                    Span("The response keeps the promise of \(operation) in \(check.document).", role: .text),
                ]
            ]
        }
        lines.append([Span("✗ ", role: .status4xx), Span(check.reason, role: .text)])
        lines.append([Span("  Enter on a violation at the top shows its place in the Body tab.", role: .dim)])
        for violation in check.violations {
            let place =
                violation.kind == .body
                ? (violation.instancePointer.isEmpty ? "(body)" : violation.instancePointer) : violation.kind.rawValue
            var head = [
                Span("✗ ", role: .status4xx), Span(place, role: .headerName),
                Span("  " + violation.message, role: .text),
            ]
            if let line = check.bodyLines[violation.instancePointer], violation.kind == .body {
                head.append(Span("  (body line \(line + 1))", role: .dim))
            }
            lines.append(head)
            lines.append([Span("    #" + violation.schemaPointer, role: .dim)])
        }
        return lines
    }

    /// The source with the exchange's secrets masked as its lines are drawn (as it is when
    /// there are none to mask).
    private static func masked(_ source: any TextSource, with masker: SecretMasker) -> any TextSource {
        masker.secretValues.isEmpty ? source : MaskedTextSource(base: source, masker: masker)
    }

    /// The Checks tab: each assertion with ✓ or ✗, the value found and why it failed; then
    /// what was captured (secrets masked) and what a capture did not find.
    static func checkLines(_ report: CheckReport?) -> [[Span]] {
        guard let report else { return [[Span("This endpoint checks nothing.", role: .dim)]] }
        var lines: [[Span]] = []
        for result in report.assertions {
            lines.append([
                Span(result.passed ? "✓ " : "✗ ", role: result.passed ? .status2xx : .status4xx),
                Span(result.text, role: .text),
            ])
            if !result.passed, let reason = result.reason { lines.append([Span("    " + reason, role: .error)]) }
            if let actual = result.actual {
                lines.append([Span("    actual: ", role: .dim), Span(actual, role: .headerValue)])
            }
        }
        if !report.captured.isEmpty || !report.captureFailures.isEmpty {
            if !lines.isEmpty { lines.append([]) }
            for captured in report.captured {
                let value = captured.isSecret ? SecretMasker.mask : captured.value
                lines.append([
                    Span("captured ", role: .dim), Span(captured.name, role: .headerName), Span(" = ", role: .dim),
                    Span(value, role: .headerValue),
                ])
            }
            for failure in report.captureFailures { lines.append([Span("✗ capture " + failure, role: .error)]) }
        }
        return lines
    }

    static func comparisonSource(_ comparison: Comparison) -> any TextSource {
        LinesTextSource(
            comparison.lines.map { line -> [Span] in
                switch line {
                case .same(let text): return [Span("  " + text, role: .dim)]
                case .removed(let text): return [Span("- " + text, role: .status4xx)]
                case .added(let text): return [Span("+ " + text, role: .status2xx)]
                }
            })
    }

    static func headerLines(_ headers: HTTPHeaders) -> [[Span]] {
        let width = min(32, headers.map { $0.name.count }.max() ?? 0)
        return headers.map { field in
            [
                Span(
                    field.name.padding(toLength: max(width, field.name.count), withPad: " ", startingAt: 0),
                    role: .headerName),
                Span("  "),
                Span(field.value, role: .headerValue),
            ]
        }
    }

    static func timingLines(_ exchange: Exchange) -> [[Span]] {
        var lines: [[Span]] = [
            [Span("Started      ", role: .headerName), Span(exchange.startedAt.formatted(.iso8601))]
        ]
        // `trace:`: the id to look the request up by in the server's traces.
        if let trace = exchange.requestHeaders["traceparent"].flatMap(TraceParent.init(parsing:)) {
            lines.append([Span("Trace id     ", role: .headerName), Span(trace.traceID)])
        }
        switch exchange.phase {
        case .inFlight(let bytes):
            lines.append([Span("In flight    ", role: .headerName), Span("\(bytes) bytes so far")])
        case .cancelled:
            lines.append([Span("Cancelled", role: .warning)])
        case .failed(let failure):
            lines.append([
                Span("Failed       ", role: .headerName), Span(exchange.masker.mask(failure.message), role: .error),
            ])
        case .received(let response):
            if let head = response.headMilliseconds {
                lines.append([Span("Head         ", role: .headerName), Span("+" + AppState.duration(head))])
                lines.append([
                    Span("Body         ", role: .headerName),
                    Span(AppState.duration(max(0, response.totalMilliseconds - head))),
                ])
            }
            lines.append([
                Span("Total        ", role: .headerName), Span(AppState.duration(response.totalMilliseconds)),
            ])
            lines.append([
                Span("Received     ", role: .headerName), Span(ByteCountText.binary(response.document.byteCount)),
            ])
            lines.append([Span("HTTP version ", role: .headerName), Span(response.httpVersion)])
            lines.append([])
            if response.redirects.isEmpty {
                lines.append([Span("No redirects.", role: .dim)])
            } else {
                lines.append([Span("Redirects (\(response.redirects.count)):", role: .title)])
                lines.append(contentsOf: response.redirects.map { [Span("  " + exchange.masker.mask($0))] })
            }
        }
        return lines
    }

    /// How many of an endpoint's recent exchanges the Timing tab draws.
    static let recentLatencyCount = 40

    /// The endpoint's recent latencies in this environment, from the history the History pane
    /// lists: a sparkline, oldest first, and the p50 and p95 of those exchanges (nearest rank).
    /// Nothing for an exchange without an endpoint or with fewer than two answered exchanges.
    static func recentLatencyLines(_ exchange: Exchange, history: [HistorySummary]) -> [[Span]] {
        guard let endpoint = exchange.endpointID else { return [] }
        let recent = history.lazy
            .filter { $0.endpoint == endpoint && $0.environment == exchange.environment && $0.status != nil }
            .prefix(recentLatencyCount)
            .map(\.totalMilliseconds)
        let values = Array(recent.reversed())
        guard values.count > 1 else { return [] }
        let sorted = values.sorted()
        func percentile(_ p: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1))]
        }
        let place = exchange.environment.map { " in \($0)" } ?? ""
        return [
            [],
            [Span("Recent\(place) (last \(values.count), oldest first)", role: .title)],
            [Span("  " + sparkline(values), role: .status2xx)],
            [
                Span("  p50 ", role: .headerName), Span(AppState.duration(percentile(50))),
                Span("  p95 ", role: .headerName), Span(AppState.duration(percentile(95))),
                Span("  min ", role: .headerName), Span(AppState.duration(sorted[0])),
                Span("  max ", role: .headerName), Span(AppState.duration(sorted[sorted.count - 1])),
            ],
        ]
    }

    /// Values as block characters from ▁ (the least) to █ (the most).
    static func sparkline(_ values: [Double]) -> String {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        guard let low = values.min(), let high = values.max(), high > low else {
            return String(repeating: "▁", count: values.count)
        }
        return String(
            values.map {
                blocks[min(blocks.count - 1, Int(($0 - low) / (high - low) * Double(blocks.count - 1) + 0.5))]
            })
    }

    static func requestLines(_ exchange: Exchange) -> [[Span]] {
        var lines: [[Span]] = [
            [
                Span(exchange.method + " ", role: AppState.role(for: HTTPMethod(rawValue: exchange.method))),
                Span(exchange.url),
            ]
        ]
        if let environment = exchange.environment {
            lines.append([Span("environment: ", role: .dim), Span(environment, role: .environment)])
        }
        lines.append([])
        lines.append(contentsOf: headerLines(exchange.requestHeaders))
        if let body = exchange.requestBody, !body.isEmpty {
            lines.append([])
            lines.append(contentsOf: body.components(separatedBy: "\n").map { [Span($0)] })
        }
        return lines
    }
}

/// The Raw tab of a text response: the status line, headers, a blank line, then the body as
/// received, line by line.
struct RawResponseSource: TextSource {
    let response: ResponseSnapshot
    /// The headers as shown (masked).
    let headers: HTTPHeaders

    private var headerCount: Int { headers.count + 2 }

    package var lineCount: Int { headerCount + response.document.rawLines.lineCount }

    package func line(_ index: Int, maxCharacters: Int) -> [Span] {
        if index == 0 { return [Span("\(response.httpVersion) \(response.status) \(response.reason)", role: .title)] }
        if index < headerCount - 1 {
            let field = headers.fields[index - 1]
            return [Span(field.name, role: .headerName), Span(": "), Span(field.value, role: .headerValue)]
        }
        if index == headerCount - 1 { return [] }
        return [Span(response.document.rawLines.line(index - headerCount, maxBytes: max(64, maxCharacters * 4)))]
    }
}
