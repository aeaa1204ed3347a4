import Foundation
import Terminal
import Workspace

/// Modal overlays, each drawn by a `Terminal` widget: the environment picker, the
/// confirmations (their question and keys, as `Confirmation` holds them), the key help and text
/// notices (copy as curl).
enum OverlayView {
    static func render(_ overlay: AppOverlay, state: AppState, into grid: inout CellGrid) {
        let screen = grid.bounds
        switch overlay {
        case .environmentPicker(let list):
            let items = state.environments.enumerated().map { index, environment -> ListItem in
                ListItem(
                    [
                        Span("\(index + 1) "), Span(environment.name, role: .environment),
                        Span("  " + environment.baseURLTemplate, role: .dim),
                    ],
                    trailing: environment.isProtected
                        ? [Span("protected", role: .protectedBadge)]
                        : state.isMockEnvironment(index) ? [Span("mock, this session only", role: .dim)] : [])
            }
            // Picked by moving or by number, so no filter line.
            let title =
                state.comparePending.map {
                    "Compare \($0) in \(state.activeEnvironmentValue?.name ?? "this environment") with which environment?"
                }
                ?? state.resendPending.map {
                    "Re-send #\($0.id) in which environment? (\($0.environment ?? "its own") is gone)"
                } ?? "Switch environment"
            Picker(title: title, items: items, state: list, filterable: false).render(into: &grid, area: screen)
        case .confirmation(let confirmation):
            ConfirmDialog(
                title: confirmation.title, message: confirmation.question, hints: confirmation.hints,
                destructive: confirmation.destructive
            ).render(into: &grid, area: screen)
        case .palette(let palette):
            CommandPaletteView.render(palette, state: state, into: &grid)
        case .variables(let list):
            renderVariables(list, state: state, into: &grid)
        case .cookies(let panel):
            CookiesView.render(panel, state: state, into: &grid)
        case .tokens(let panel):
            TokensView.render(panel, state: state, into: &grid)
        case .schema(let panel):
            SchemaView.render(panel, state: state, into: &grid)
        case .help(let offset):
            state.helpPanel(offset: offset).render(into: &grid, area: screen)
        case .problems(let offset):
            state.problemsPanel(offset: offset).render(into: &grid, area: screen)
        case .mockLog(let offset):
            state.mockLogPanel(offset: offset).render(into: &grid, area: screen)
        case .text(let title, let lines):
            // As wide as the screen allows: the text is a command to read whole.
            ConfirmDialog(
                title: title, message: lines.map { [Span($0)] }, hints: [KeyHint(key: "Esc", label: "closes")],
                maximumWidth: screen.width
            )
            .render(into: &grid, area: screen)
        }
    }

    /// The variables view: `name = value` (secrets masked), where the value came from on the right.
    private static func renderVariables(_ list: ListState, state: AppState, into grid: inout CellGrid) {
        let environment = state.activeEnvironmentValue?.name ?? ""
        let title = "Variables · \(environment) (x clears a captured one, Esc closes)"
        guard let rows = state.variableRows else {
            ConfirmDialog(
                title: title, message: [[Span("Reading the variables …", role: .dim)]],
                hints: [KeyHint(key: "Esc", label: "closes")]
            )
            .render(into: &grid, area: grid.bounds)
            return
        }
        let items = rows.map { row in
            ListItem(
                [
                    Span(row.name, role: .headerName), Span(" = ", role: .dim),
                    Span(row.value, role: row.isSecret ? .dim : .headerValue),
                ],
                trailing: [Span(originText(row.origin, state: state), role: .dim)])
        }
        var picker = Picker(title: title, items: items, state: list, filterable: false, minimumWidth: 50)
        picker.list.emptyText = "No variables in \(environment)"
        picker.height = max(picker.height, 3)
        picker.render(into: &grid, area: grid.bounds)
    }

    /// `captured from Auth/Login 12:04` (with the date when it is not today), `environment`, `collection`.
    static func originText(_ origin: VariableOrigin, state: AppState) -> String {
        switch origin {
        case .environment: return "environment"
        case .collection: return "collection"
        case .captured(let endpoint, let date):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = state.timeZone
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let time = ClockText.hourMinute(date, in: state.timeZone)
            let day =
                calendar.isDate(date, inSameDayAs: state.now)
                ? ""
                : String(format: "%04d-%02d-%02d ", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            return "captured from \(endpoint) \(day)\(time)"
        }
    }
}
