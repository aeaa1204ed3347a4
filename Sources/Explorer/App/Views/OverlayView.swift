import Foundation
import Terminal

/// Modal overlays: the environment picker, the protected-environment confirmation, help and
/// text panels (copy as curl).
package enum OverlayView {
    static func render(_ overlay: AppOverlay, state: AppState, into grid: inout CellGrid) {
        let screen = grid.bounds
        switch overlay {
        case .environmentPicker(let list):
            let items = state.environments.enumerated().map { index, environment -> ListItem in
                ListItem(
                    [Span("\(index + 1) "), Span(environment.name, role: .environment), Span("  " + environment.baseURLTemplate, role: .dim)],
                    trailing: environment.isProtected ? [Span("protected", role: .protectedBadge)] : [])
            }
            let width = min(screen.width - 2, max(40, (items.map { DisplayWidth.of($0.spans.plainText) }.max() ?? 0) + 14))
            let area = screen.centered(width: width, height: min(screen.height - 2, items.count + 2))
            let inner = Block(title: "Switch environment", focused: true, borders: .rounded, fill: Style(.overlay)).render(into: &grid, area: area)
            ListView(items: items, state: list, focused: true).render(into: &grid, area: inner)
        case .confirmSend(let endpointID, let environment):
            let lines: [[Span]] = [
                [Span("Send to "), Span(environment, Style(.protectedBadge, .bold)), Span("?")],
                [Span(endpointID, role: .dim)],
                [Span("\(environment) is a protected environment.", role: .warning)],
                [],
                [Span("y", Style(.statusKey, .bold)), Span(" send   "), Span("n", Style(.statusKey, .bold)), Span(" / Esc keep it unsent")],
            ]
            panel(title: "Protected environment", lines: lines, into: &grid)
        case .confirmSave(let endpointID):
            let file = URL(fileURLWithPath: state.collectionPath).lastPathComponent
            var lines: [[Span]] = [
                [Span("Save the edit of "), Span(endpointID, Style(.title, .bold)), Span(" to \(file)?")],
            ]
            if let draft = state.drafts[endpointID] {
                lines.append([Span(AppReducer.requestLine(of: draft), role: .dim)])
            }
            if state.collection?.sourceHasComments == true {
                lines.append([Span("The file has comments; they will not be kept (the YAML library drops them).", role: .warning)])
            }
            lines += [[], [Span("y", Style(.statusKey, .bold)), Span(" save   "), Span("n", Style(.statusKey, .bold)), Span(" / Esc keep it unsaved")]]
            panel(title: "Save to the collection", lines: lines, into: &grid)
        case .help:
            let hints = state.keymap.helpLines()
            let keyWidth = hints.map { $0.key.count }.max() ?? 0
            let entries = hints.map { [Span($0.key.padding(toLength: keyWidth + 2, withPad: " ", startingAt: 0), Style(.statusKey, .bold)), Span($0.label)] }
            // As many columns as the height needs, so every key shows on a small screen.
            let rows = max(1, grid.height - 6)
            let columns = (entries.count + rows - 1) / rows
            let perColumn = (entries.count + columns - 1) / columns
            let columnWidth = max(20, (grid.width - 6) / columns - 2)
            var lines: [[Span]] = []
            for row in 0..<perColumn {
                var line: [Span] = []
                for column in 0..<columns where column * perColumn + row < entries.count {
                    let entry = entries[column * perColumn + row]
                    let text = entry.plainText
                    let cut = DisplayWidth.truncate(text, to: columnWidth)
                    line.append(Span(String(cut.prefix(keyWidth + 2)), Style(.statusKey, .bold)))
                    line.append(Span(String(cut.dropFirst(keyWidth + 2))))
                    if column + 1 < columns { line.append(Span(String(repeating: " ", count: max(1, columnWidth + 2 - DisplayWidth.of(cut))))) }
                }
                lines.append(line)
            }
            lines += [[], [Span("Esc, q or ? closes this help.", role: .dim)]]
            panel(title: "Keys", lines: lines, into: &grid)
        case .text(let title, let lines):
            panel(title: title, lines: lines.map { [Span($0)] } + [[], [Span("Esc closes.", role: .dim)]], into: &grid)
        }
    }

    private static func panel(title: String, lines: [[Span]], into grid: inout CellGrid) {
        let screen = grid.bounds
        let contentWidth = max(DisplayWidth.of(title) + 4, lines.map { DisplayWidth.of($0.plainText) }.max() ?? 0)
        let area = screen.centered(width: min(screen.width - 2, contentWidth + 4), height: min(screen.height - 2, lines.count + 2))
        let inner = Block(title: title, focused: true, fill: Style(.overlay)).render(into: &grid, area: area).inset(left: 1, right: 1)
        for (row, line) in lines.prefix(inner.height).enumerated() {
            grid.put(Sanitizer.characters(line), x: inner.x, y: inner.y + row, clip: inner)
        }
    }
}
