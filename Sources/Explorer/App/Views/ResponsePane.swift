import Foundation
import Query
import Terminal
import Workspace

/// The response pane: a status line, the tabs, an error summary when the status is an error,
/// and the tab's text drawn through a virtualized `ScrollText`.
enum ResponsePane {
    static func render(_ state: AppState, into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let focused = state.focus == .response
        var trailing: [Span] = []
        if state.responseTab == .body, !state.body.search.isEmpty {
            trailing.append(
                state.body.matches.isEmpty
                    ? Span(" no match ", role: .warning)
                    : Span(" match \(state.body.currentMatch + 1)/\(state.body.matches.count) ", role: .searchMatch))
        }
        if let source = state.shownBodySource, state.responseTab == .body, source.lineCount > 0 {
            trailing.append(Span(" \(state.body.text.topLine + 1)/\(source.lineCount) ", role: .dim))
        }
        if let comparison = state.comparison {
            let inner = Block(
                titleSpans: [Span("Compare ", role: .title), Span(comparison.title, role: .environment)],
                trailingTitle: [Span(" Esc closes ", role: .dim)], focused: focused
            )
            .render(into: &grid, area: area)
            ScrollText(source: ResponseContent.comparisonSource(comparison), state: comparison.text).render(
                into: &grid, area: inner)
            return
        }
        let inner = Block(title: "Response", trailingTitle: trailing, focused: focused).render(into: &grid, area: area)
        guard inner.height > 0 else { return }
        guard let exchange = state.shown else {
            grid.put(
                "Nothing sent yet. Press Enter on an endpoint.", x: inner.x, y: inner.y, style: Style(.dim), clip: inner
            )
            return
        }
        var row = inner.y
        // A status line wider than the pane ends in "…", not mid-word at the border.
        grid.put(
            Block.fit(Sanitizer.characters(statusLine(exchange, state: state)), width: inner.width), x: inner.x, y: row,
            clip: inner)
        row += 1
        guard row < inner.maxY else { return }

        switch exchange.phase {
        case .failed(let failure):
            let lines =
                [Sanitizer.characters([Span("✗ \(failure.category)", Style(.error, .bold))])]
                + WordWrap.rows(
                    Sanitizer.characters([Span(exchange.masker.mask(failure.message), role: .error)]),
                    width: inner.width)
                + (failure.hint.map {
                    WordWrap.rows(
                        Sanitizer.characters([Span("hint: " + exchange.masker.mask($0), role: .warning)]),
                        width: inner.width)
                } ?? [])
            // What arrived before a limit, a deadline or a cut stays viewable below.
            let room = exchange.partial == nil ? lines.count : max(1, (inner.maxY - row) / 3)
            for line in lines.prefix(room) where row < inner.maxY {
                grid.put(line, x: inner.x, y: row, clip: inner)
                row += 1
            }
            if let partial = exchange.partial, row < inner.maxY {
                drawResponse(partial, masker: exchange.masker, state: state, into: &grid, inner: inner, row: row)
            }
            return
        case .cancelled:
            grid.put(
                "The request was cancelled; its connection was closed.", x: inner.x, y: row, style: Style(.warning),
                clip: inner)
            return
        case .inFlight(let bytes) where exchange.partial != nil:
            let received = ByteCountText.binary(bytes)
            let what = exchange.partial?.document.kind == .events ? "live" : "receiving"
            grid.put(
                [
                    Span(
                        "\(AppView.spinnerFrame(state.now)) \(what) · \(received) so far · search and filter cover what has arrived · Esc stops",
                        role: .spinner)
                ],
                x: inner.x, y: row, clip: inner)
            row += 1
            if row < inner.maxY, let partial = exchange.partial {
                drawResponse(partial, masker: exchange.masker, state: state, into: &grid, inner: inner, row: row)
            }
            return
        case .inFlight(let bytes):
            let elapsed = state.now.timeIntervalSince(exchange.startedAt) * 1000
            let what = exchange.head == nil ? "waiting for \(exchange.method) \(exchange.url)" : "receiving the body"
            grid.put(
                [Span("\(AppView.spinnerFrame(state.now)) \(what)", role: .spinner)], x: inner.x, y: row, clip: inner)
            if row + 1 < inner.maxY {
                var received = bytes > 0 ? " · \(ByteCountText.binary(bytes)) received" : ""
                if let length = exchange.head?.headers["Content-Length"].flatMap(Int64.init), length > 0 {
                    received += " of \(ByteCountText.binary(length))"
                }
                grid.put(
                    "\(AppState.duration(elapsed))\(received) · Esc cancels", x: inner.x, y: row + 1,
                    style: Style(.dim), clip: inner)
            }
            if let head = exchange.head {
                let lines = ResponseContent.headerLines(exchange.masker.mask(headers: head.headers))
                for (offset, line) in lines.enumerated() where row + 3 + offset < inner.maxY {
                    grid.put(Sanitizer.characters(line), x: inner.x, y: row + 3 + offset, clip: inner)
                }
            }
            return
        case .received(let response):
            drawResponse(response, masker: exchange.masker, state: state, into: &grid, inner: inner, row: row)
        }
    }

    /// The tabs, the error summary and filter line, and the tab's text, from `row` down.
    private static func drawResponse(
        _ response: ResponseSnapshot, masker: SecretMasker, state: AppState, into grid: inout CellGrid, inner: Rect,
        row start: Int
    ) {
        var row = start
        do {
            Tabs(
                titles: state.responseTabs.map(\.rawValue),
                selected: state.responseTabs.firstIndex(of: state.responseTab) ?? 0, separator: " "
            )
            .render(into: &grid, area: Rect(x: inner.x, y: row, width: inner.width, height: 1))
            row += 1
            if state.responseTab == .body {
                // The summary takes at most a third of the pane; its lines wrap.
                // Below 400 a summary is a GraphQL response's errors, an error all the same.
                let summaryStyle = Style(
                    response.status < 400 ? .error : AppState.role(forStatus: response.status), .bold)
                let summaryRows = response.errorSummary.flatMap {
                    WordWrap.rows(Sanitizer.characters([Span(masker.mask($0), summaryStyle)]), width: inner.width)
                }
                for line in summaryRows.prefix(max(1, (inner.maxY - row) / 3)) where row < inner.maxY - 1 {
                    grid.put(line, x: inner.x, y: row, clip: inner)
                    row += 1
                }
                // Why the body is shown as received (markup too deep to lay out).
                if state.body.filtered == nil, let note = response.document.note {
                    let noteRows = WordWrap.rows(Sanitizer.characters([Span(note, role: .warning)]), width: inner.width)
                    for line in noteRows.prefix(max(1, (inner.maxY - row) / 3)) where row < inner.maxY - 1 {
                        grid.put(line, x: inner.x, y: row, clip: inner)
                        row += 1
                    }
                }
                if let error = state.body.filterError, row < inner.maxY {
                    grid.put(Sanitizer.sanitize(error), x: inner.x, y: row, style: Style(.error), clip: inner)
                    row += 1
                } else if !state.body.filter.isEmpty, row < inner.maxY {
                    grid.put(
                        "JSONPath \(state.body.filter) · Esc clears", x: inner.x, y: row, style: Style(.searchMatch),
                        clip: inner)
                    row += 1
                }
            }
            let textArea = Rect(x: inner.x, y: row, width: inner.width, height: inner.maxY - row)
            var textState = state.body.text
            if state.responseTab != .body {
                textState.showLineNumbers = false
                textState.search = ""
            }
            ScrollText(source: ResponseContent.source(for: state), state: textState).render(into: &grid, area: textArea)
        }
    }

    static func statusLine(_ exchange: Exchange, state: AppState) -> [Span] {
        var spans: [Span] = []
        switch exchange.phase {
        case .received(let response):
            // A gRPC call's status as gRPC names it (`OK`, `NOT_FOUND (5): …`), coloured as its HTTP code.
            spans.append(
                Span(
                    response.isGRPC ? " \(response.reason) " : " \(response.status) \(response.reason) ",
                    Style(AppState.role(forStatus: response.status), [.bold, .reverse])))
            spans.append(Span(" \(AppState.duration(response.totalMilliseconds))", role: .text))
            spans.append(Span(" · \(ByteCountText.binary(response.document.byteCount))", role: .text))
            let kind =
                response.document.kind == .binary && !response.document.contentType.isEmpty
                ? "binary \(response.document.contentType)" : response.document.kind.rawValue
            spans.append(Span(" · \(kind) · \(response.httpVersion)", role: .dim))
            if let checks = exchange.checks, let summary = checks.summary {
                spans.append(Span(" · ", role: .dim))
                spans.append(Span(summary, Style(checks.passed ? .status2xx : .status4xx, .bold)))
            }
            if let badge = exchange.checks?.schema?.badge {
                spans.append(Span(" · ", role: .dim))
                spans.append(Span(badge, Style(.status4xx, .bold)))
            }
        case .inFlight:
            if let head = exchange.head {
                spans.append(
                    Span(
                        " \(head.status.code) \(head.status.reasonPhrase) ",
                        Style(AppState.role(forStatus: head.status.code), [.bold, .reverse])))
                spans.append(Span(" · \(head.httpVersion)", role: .dim))
            } else {
                spans.append(Span(" sending ", Style(.spinner, .reverse)))
            }
        case .failed(let failure):
            if let partial = exchange.partial {
                spans.append(
                    Span(
                        " \(partial.status) \(partial.reason) ",
                        Style(AppState.role(forStatus: partial.status), [.bold, .reverse])))
                spans.append(Span(" stopped: \(failure.category) ", Style(.error, .bold)))
            } else {
                spans.append(Span(" no response ", Style(.error, [.bold, .reverse])))
            }
        case .cancelled:
            spans.append(Span(" cancelled ", Style(.warning, .reverse)))
        }
        if let environment = exchange.environment {
            spans.append(Span(" · ", role: .dim))
            spans.append(Span(environment, role: .environment))
        }
        if let endpoint = exchange.endpointID {
            spans.append(Span(" · \(endpoint)", role: .dim))
        }
        return spans
    }
}
