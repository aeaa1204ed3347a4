import Checks
import Foundation
import Terminal
import Workspace

/// The sequence features of the TUI: the variables view (`v`: each variable's value and where
/// it came from, `x` clears a captured one) and folder runs (`Ctrl-R`: the selected folder
/// through `explorer run`'s engine, results beside each endpoint and the summary at the end).
extension AppReducer {
    // MARK: - Variables view

    /// Opens the variables view of the active environment; an effect reads the captured ones.
    static func openVariables(_ state: inout AppState) -> [AppEffect] {
        guard let environment = state.activeEnvironmentValue, let collection = state.collection else {
            state.message = "This collection has no environment, so it has no variables to show."
            return []
        }
        state.variableRows = nil
        state.overlay = .variables(ListState())
        return [.listVariables(environment, collectionKey: collection.storeKey)]
    }

    static func handleVariables(_ press: KeyPress, _ list: ListState, _ state: inout AppState) -> [AppEffect] {
        var list = list
        let rows = state.variableRows ?? []
        switch (press.key, state.keymap.command(for: press)) {
        case (.escape, _), (.character("q"), _), (_, .variables?):
            state.overlay = nil
        case (_, .up?):
            list.move(by: -1, count: rows.count)
            state.overlay = .variables(list)
        case (_, .down?):
            list.move(by: 1, count: rows.count)
            state.overlay = .variables(list)
        case (.character("x"), _), (.delete, _):
            guard rows.indices.contains(list.selected), let environment = state.activeEnvironmentValue,
                let collection = state.collection
            else { return [] }
            let row = rows[list.selected]
            guard case .captured(let endpoint, _) = row.origin else {
                state.message =
                    "\(row.name) comes from the collection file, not from a capture: edit the file to change it."
                return []
            }
            state.message = "Cleared \(row.name) (captured from \(endpoint))."
            state.messageIsError = false
            // The preview may show it: resolve it again once it is gone.
            state.previewKey = nil
            return [.clearCapture(row.name, environment, collectionKey: collection.storeKey)]
        default:
            break
        }
        return []
    }

    /// The variables of the environment shown, when the view is still open on it.
    static func variablesListed(_ environment: String, _ rows: [Environment.ShownVariable], _ state: inout AppState) {
        guard case .variables(var list) = state.overlay, state.activeEnvironmentValue?.name == environment else {
            return
        }
        state.variableRows = rows
        list.selected = min(list.selected, max(0, rows.count - 1))
        state.overlay = .variables(list)
    }

    // MARK: - Folder runs

    /// Runs the selected folder (the folder of the selected endpoint; everything at the top
    /// level) in the active environment.
    static func runSelectedFolder(_ state: inout AppState) -> [AppEffect] {
        guard let collection = state.collection, let environment = state.activeEnvironmentValue else {
            state.message = "This collection has no environment to run in."
            state.messageIsError = true
            return []
        }
        if let run = state.folderRun, run.isRunning {
            state.message = "\(run.title) is still running; Esc stops it."
            return []
        }
        let folder = state.selectedRow?.folderPath ?? []
        let endpoints = collection.endpoints.filter { $0.folderPath.starts(with: folder) }.map {
            state.drafts[$0.id] ?? $0
        }
        let name = folder.isEmpty ? collection.name : folder.joined(separator: "/")
        guard !endpoints.isEmpty else {
            state.message = "\(name) has no endpoints to run."
            return []
        }
        if environment.isProtected, endpoints.contains(where: { $0.method != .get }) {
            state.message =
                "\(environment.name) is protected and \(name) sends non-GET requests: run it with explorer run --yes."
            state.messageIsError = true
            return []
        }
        let id = state.nextRunID
        state.nextRunID += 1
        let title = "\(name) · \(environment.name)"
        state.folderRun = FolderRun(id: id, title: title, total: endpoints.count)
        state.message = state.folderRun?.progressLine
        state.messageIsError = false
        return [
            .runFolder(
                run: id, RunPlan(collection: collection, environment: environment, endpoints: endpoints, title: name))
        ]
    }

    static func runStepped(_ id: Int, _ result: RunResult, _ state: inout AppState) {
        guard state.folderRun?.id == id else { return }
        state.folderRun?.results.append(result)
        state.message = state.folderRun?.progressLine
        state.messageIsError = false
    }

    /// Shows the summary table `explorer run` prints, unless another overlay is open (the
    /// marks in the list and the status line still tell).
    static func runFinished(_ id: Int, _ summary: RunSummary, _ state: inout AppState) -> [AppEffect] {
        guard let run = state.folderRun, run.id == id else { return [] }
        state.folderRun?.results = summary.results
        state.folderRun?.summary = summary
        state.message = "\(run.title): \(summary.totalsLine)"
        state.messageIsError = summary.exitCode != 0
        if state.overlay == nil {
            state.overlay = .text(
                title: "Run · \(run.title)",
                lines: summary.table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    .dropLast())
        }
        return [.loadHistory(collectionPath: state.historyCollectionFilter)]
    }

    /// Stops the folder run in progress, if any.
    static func stopRun(_ state: inout AppState) -> [AppEffect]? {
        guard let run = state.folderRun, run.isRunning else { return nil }
        state.message = "Stopping \(run.title) …"
        return [.cancelRun(run.id)]
    }
}
