import NetworkingCore
import Terminal
import Workspace

/// The request pane: method and resolved URL (the parts that came from variables highlighted),
/// then headers and body, secrets masked — as the preview in the state has them. The view
/// resolves nothing: an effect resolved the preview when the selection last changed.
enum RequestPane {
    static func render(_ state: AppState, into grid: inout CellGrid, area: Rect, compact: Bool) {
        guard !area.isEmpty else { return }
        let focused = state.focus == .request
        let edited = state.selectedEndpoint.map { state.drafts[$0.id] != nil } ?? false
        let isNew = edited && state.isNewDraft(state.selectedEndpoint!.id)
        let tab = state.compose.editor.tab
        // The pane's own title is its first tab (the preview); the editor tabs follow it once
        // the pane has the focus or an editor tab is chosen.
        let showsTabs = focused || tab != .preview
        var title = [Span("Request", tab == .preview ? Style(.title, .bold) : Style(.tabInactive))]
        if showsTabs {
            for candidate in RequestTab.allCases where candidate != .preview {
                title.append(Span(" "))
                title.append(
                    Span(candidate.rawValue, candidate == tab ? Style(.tabActive, .bold) : Style(.tabInactive)))
            }
        }
        // Where the tabs need the room, the mark goes without its hint.
        let long = isNew ? " new · S saves " : " edited · S saves "
        let roomy = !showsTabs || area.width >= DisplayWidth.of(title.plainText) + long.count + 12
        let mark = roomy ? long : (isNew ? " new " : " * ")
        let trailing = edited ? [Span(mark, role: .warning)] : []
        let inner = Block(titleSpans: title, trailingTitle: trailing, focused: focused).render(into: &grid, area: area)
        guard let endpoint = state.selectedEndpoint else {
            let hint =
                state.collectionIsReading == nil
                ? "Select an endpoint and press Enter to send it." : "The endpoints come when the collection is read."
            grid.put(hint, x: inner.x, y: inner.y, style: Style(.dim), clip: inner)
            return
        }
        switch tab {
        case .preview: renderPreview(state, endpoint: endpoint, into: &grid, inner: inner, compact: compact)
        case .query: RequestEditorView.renderTable(.query, state, endpoint: endpoint, into: &grid, area: inner)
        case .headers: RequestEditorView.renderTable(.headers, state, endpoint: endpoint, into: &grid, area: inner)
        case .body: RequestEditorView.renderBody(state, endpoint: endpoint, into: &grid, area: inner)
        }
    }

    private static func renderPreview(
        _ state: AppState, endpoint: Endpoint, into grid: inout CellGrid, inner: Rect, compact: Bool
    ) {
        if let settings = endpoint.grpc {
            let lines = grpcPreviewLines(state, endpoint: endpoint, settings: settings, compact: compact)
            for (row, line) in lines.prefix(inner.height).enumerated() {
                grid.put(Sanitizer.characters(line), x: inner.x, y: inner.y + row, clip: inner)
            }
            return
        }
        guard let preview = state.preview else {
            // Not resolved yet (or no environment): the endpoint as written.
            grid.put(
                [Span(endpoint.method.rawValue + " ", role: AppState.role(for: endpoint.method)), Span(endpoint.path)],
                x: inner.x, y: inner.y, clip: inner)
            return
        }
        if let error = preview.error {
            grid.put(
                [Span(preview.method.rawValue + " ", role: AppState.role(for: preview.method)), Span(preview.urlText)],
                x: inner.x, y: inner.y, clip: inner)
            if inner.height > 1 {
                grid.put(Sanitizer.sanitize(error), x: inner.x, y: inner.y + 1, style: Style(.error), clip: inner)
            }
            return
        }
        let url = preview.url.map { part in
            Span(part.text, role: part.source == .function ? .jsonNumber : part.source == .variable ? .jsonKey : .text)
        }
        var lines: [[Span]] = [
            [Span(preview.method.rawValue + " ", Style(AppState.role(for: preview.method), .bold))] + url
        ]
        if let proxy = preview.proxy { lines.append([Span(proxy, role: .dim)]) }
        // Which values came from which function: the URL marks them, this line names them.
        if !preview.functions.isEmpty {
            var line: [Span] = [Span("ƒ ", role: .jsonNumber)]
            for (index, function) in preview.functions.enumerated() {
                if index > 0 { line.append(Span(" · ", role: .dim)) }
                line += [Span(function.expression, role: .jsonNumber), Span(" " + function.value, role: .dim)]
            }
            lines.append(line)
        }
        if !compact {
            lines.append(contentsOf: ResponseContent.headerLines(preview.headers))
            if let body = preview.body {
                lines.append(contentsOf: body.components(separatedBy: "\n").map { [Span($0, role: .jsonString)] })
            }
        }
        for (row, line) in lines.prefix(inner.height).enumerated() {
            grid.put(Sanitizer.characters(line), x: inner.x, y: inner.y + row, clip: inner)
        }
    }
}
