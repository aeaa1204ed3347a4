import Foundation
import Networking
import Terminal
import Workspace

/// The request pane: method and resolved URL (the parts that came from variables highlighted),
/// then headers and body, secrets masked.
package enum RequestPane {
    static func render(_ state: AppState, into grid: inout CellGrid, area: Rect, compact: Bool) {
        guard !area.isEmpty else { return }
        let focused = state.focus == .request
        let edited = state.selectedEndpoint.map { state.drafts[$0.id] != nil } ?? false
        let trailing = edited ? [Span(" edited · S saves ", role: .warning)] : []
        let inner = Block(title: "Request", trailingTitle: trailing, focused: focused).render(into: &grid, area: area)
        guard let endpoint = state.selectedEndpoint else {
            grid.put("Select an endpoint and press Enter to send it.", x: inner.x, y: inner.y, style: Style(.dim), clip: inner)
            return
        }
        guard let collection = state.collection, let environment = state.activeEnvironmentValue else {
            grid.put("\(endpoint.method.rawValue) \(endpoint.path)", x: inner.x, y: inner.y, clip: inner)
            return
        }
        let resolved: ResolvedRequest
        do {
            resolved = try RequestResolver(uuid: "{{uuid}}").resolve(endpoint, in: collection, environment: environment)
        } catch {
            grid.put([Span(endpoint.method.rawValue + " ", role: AppState.role(for: endpoint.method)), Span(endpoint.path)], x: inner.x, y: inner.y, clip: inner)
            if inner.height > 1 {
                grid.put(Sanitizer.sanitize(String(describing: error)), x: inner.x, y: inner.y + 1, style: Style(.error), clip: inner)
            }
            return
        }
        var lines: [[Span]] = [[Span(resolved.request.method.rawValue + " ", Style(AppState.role(for: resolved.request.method), .bold))] + urlSpans(resolved)]
        if !compact {
            lines.append(contentsOf: ResponseContent.headerLines(resolved.maskedHeaders))
            if let body = resolved.masked.httpBody, !body.isEmpty {
                let text = String(decoding: body.prefix(4096), as: UTF8.self)
                lines.append(contentsOf: text.components(separatedBy: "\n").map { [Span($0, role: .jsonString)] })
            }
        }
        for (row, line) in lines.prefix(inner.height).enumerated() {
            grid.put(Sanitizer.characters(line), x: inner.x, y: inner.y + row, clip: inner)
        }
    }

    /// The URL with the characters that came from variables in the variable role.
    static func urlSpans(_ resolved: ResolvedRequest) -> [Span] {
        let url = resolved.maskedURL
        let characters = Array(url)
        var spans: [Span] = []
        var highlighted = Array(repeating: false, count: characters.count)
        if url == resolved.url {
            for span in resolved.urlVariableSpans {
                for index in span.range where highlighted.indices.contains(index) { highlighted[index] = true }
            }
        }
        var start = 0
        while start < characters.count {
            var end = start
            while end < characters.count && highlighted[end] == highlighted[start] { end += 1 }
            spans.append(Span(String(characters[start..<end]), role: highlighted[start] ? .jsonKey : .text))
            start = end
        }
        return spans
    }
}
