import Terminal
import Workspace

/// The environments: their list and picker, switching the active one, and re-sending a
/// history entry in the environment the picker chooses.
extension AppReducer {
    /// The rows of the Environments list.
    static func environmentItems(_ state: AppState) -> [ListItem] {
        state.environments.map { ListItem($0.name) }
    }

    /// `e`: the environment picker, on the active environment.
    static func openEnvironmentPicker(_ state: inout AppState) {
        guard !state.environments.isEmpty else {
            state.message = "This collection has no environments."
            return
        }
        state.overlay = .environmentPicker(ListState(selected: state.activeEnvironment))
    }

    /// Keys of the environment picker: move, Enter or a digit picks, Esc, q or `e` close it (a
    /// re-send waiting for it is not sent).
    static func handleEnvironmentPicker(_ press: KeyPress, _ list: ListState, _ state: inout AppState) -> [AppEffect] {
        var list = list
        let command = state.keymap.command(for: press)
        switch (press.key, command) {
        case (.escape, _), (_, .quit?), (_, .environments?):
            state.overlay = nil
            if state.resendPending != nil || state.comparePending != nil { state.message = "Not sent." }
            state.resendPending = nil
            state.comparePending = nil
        case (.enter, _):
            state.overlay = nil
            return picked(list.selected, &state)
        case (_, .up?):
            list.move(by: -1, count: state.environments.count)
            state.overlay = .environmentPicker(list)
        case (_, .down?):
            list.move(by: 1, count: state.environments.count)
            state.overlay = .environmentPicker(list)
        case (.character(let digit), _)
        where digit.wholeNumberValue.map { (1...state.environments.count).contains($0) } ?? false:
            state.overlay = nil
            return picked(digit.wholeNumberValue! - 1, &state)
        default:
            break
        }
        return []
    }

    /// The environment picker's choice: re-send the pending history entry in it, or switch to it.
    private static func picked(_ index: Int, _ state: inout AppState) -> [AppEffect] {
        if let endpointID = state.comparePending {
            state.comparePending = nil
            guard state.environments.indices.contains(index) else { return [] }
            return compareOrConfirm(endpointID, with: state.environments[index], &state)
        }
        guard let entry = state.resendPending else {
            switchEnvironment(to: index, &state)
            return []
        }
        state.resendPending = nil
        guard state.environments.indices.contains(index), let name = entry.endpoint,
            let endpoint = state.endpoint(withID: name)
        else { return [] }
        let environment = state.environments[index]
        return sendOrConfirm(endpoint, in: environment, &state)
    }

    /// Makes the environment at `index` the active one: every later request goes to it.
    static func switchEnvironment(to index: Int, _ state: inout AppState) {
        guard state.environments.indices.contains(index) else { return }
        state.activeEnvironment = index
        state.environmentList.selected = index
        let environment = state.environments[index]
        state.message =
            "Environment: \(environment.name)" + (environment.isProtected ? " (protected: sending asks first)" : "")
        state.messageIsError = false
    }
}
