import Foundation
import NetworkingCore
import Terminal

/// Draws the whole explorer screen from the state: `view(state, size) -> CellGrid`, pure.
enum AppView {
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    static func render(_ state: AppState, size: Size) -> CellGrid {
        var grid = CellGrid(size: size)
        guard size.width >= 20, size.height >= 6 else {
            grid.put(
                "Terminal too small: \(size.width)×\(size.height)", x: 0, y: 0, style: Style(.warning),
                clip: grid.bounds)
            if size.height > 1 { grid.put("Needs 40×12", x: 0, y: 1, style: Style(.dim), clip: grid.bounds) }
            return grid
        }
        let layout = AppLayout(size: size, state: state)
        renderHeader(state, into: &grid, area: layout.header)
        ListPanes.renderEnvironments(state, into: &grid, area: layout.environments)
        ListPanes.renderEndpoints(state, into: &grid, area: layout.endpoints)
        ListPanes.renderHistory(state, into: &grid, area: layout.history)
        RequestPane.render(state, into: &grid, area: layout.request, compact: layout.isNarrow)
        ResponsePane.render(state, into: &grid, area: layout.response)
        renderProblems(state, into: &grid, area: layout.problems)
        renderFooter(state, into: &grid, area: layout.footer)
        if let overlay = state.overlay { OverlayView.render(overlay, state: state, into: &grid) }
        return grid
    }

    // MARK: - Header and footer

    private static func renderHeader(_ state: AppState, into grid: inout CellGrid, area: Rect) {
        grid.fill(area, style: Style(.statusBar))
        var trailing: [Span] = []
        let inFlight = state.inFlightCount
        if inFlight > 0 {
            trailing.append(Span("\(spinnerFrame(state.now)) \(inFlight) in flight  ", role: .spinner))
        }
        if let environment = state.activeEnvironmentValue {
            trailing.append(Span("env ", role: .statusBar))
            trailing.append(
                Span(" \(environment.name) ", Style(environment.isProtected ? .protectedBadge : .environment, .bold)))
            if environment.isProtected { trailing.append(Span(" protected", role: .protectedBadge)) }
            if state.isMockEnvironment(state.activeEnvironment), let port = state.mock?.port {
                trailing.append(Span(" port \(port)", role: .statusBar))
            }
            trailing.append(Span(" "))
        }
        var width = DisplayWidth.of(trailing.plainText)
        if width >= area.width - 12 { width = 0 }
        // The title gets what the environment leaves, cut rather than overlapping it.
        var spans: [Span] = [Span(" explorer ", Style(.title, .bold))]
        if !state.problems.isEmpty {
            let count = state.problems.count
            spans.append(
                Span(
                    " ⚠ \(count) problem\(count == 1 ? "" : "s") ",
                    Style(state.problems.loadError == nil ? .warning : .error, .bold)))
        }
        if let name = state.collection?.name { spans.append(Span("· \(Sanitizer.sanitize(name)) ", role: .statusBar)) }
        let titleArea = Rect(x: area.x, y: area.y, width: max(0, area.width - width - 1), height: 1)
        grid.put(Sanitizer.characters(spans), x: area.x, y: area.y, clip: titleArea)
        if width > 0 { grid.put(trailing, x: area.maxX - width, y: area.y, clip: area) }
    }

    /// The collection's first problem, whole when it fits, cut with `…` when not, and how to
    /// see them all.
    private static func renderProblems(_ state: AppState, into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty, let first = state.problems.all.first else { return }
        let role: Role = state.problems.loadError == nil ? .warning : .error
        let count = state.problems.count
        let hint = count > 1 ? "  ! all \(count) " : "  ! details "
        let hintWidth = area.width > 40 ? DisplayWidth.of(hint) : 0
        let room = max(1, area.width - hintWidth - 1)
        grid.put(
            " " + DisplayWidth.truncate(Sanitizer.sanitize(first), to: room - 1), x: area.x, y: area.y,
            style: Style(role), clip: area)
        if hintWidth > 0 { grid.put(hint, x: area.maxX - hintWidth, y: area.y, style: Style(.dim), clip: area) }
    }

    private static func renderFooter(_ state: AppState, into grid: inout CellGrid, area: Rect) {
        if let input = state.input {
            grid.fill(area, style: Style(.statusBar))
            let prompt = input.purpose.prompt
            let used = grid.put([Span(prompt, Style(.statusKey, .bold))], x: area.x, y: area.y, clip: area)
            let hint = " Enter apply · Esc cancel "
            let hintWidth = area.width - used > hint.count + 20 ? hint.count : 0
            let field = Rect(x: area.x + used, y: area.y, width: max(1, area.width - used - hintWidth), height: 1)
            var secret = false
            if case .templatePrompt(_, true) = input.purpose { secret = true }
            TextField(state: input.field, focused: true, masked: secret).render(into: &grid, area: field)
            if hintWidth > 0 { grid.put(hint, x: area.maxX - hint.count, y: area.y, style: Style(.dim), clip: area) }
            return
        }
        var message: [Span] = []
        if let text = state.message {
            message = [Span(Sanitizer.sanitize(text), role: state.messageIsError ? .error : .message)]
        }
        let hints = state.footerHints
        StatusBar(hints: hints, message: message, trailing: [Span(state.focus.rawValue + " ", role: .dim)]).render(
            into: &grid, area: area)
    }

    static func spinnerFrame(_ now: Date) -> Character {
        spinner[Int(now.timeIntervalSinceReferenceDate * 10) % spinner.count]
    }
}
