import Terminal
import Workspace

/// `=`: the selected endpoint sent in the active environment and in another one the picker
/// chooses, one after the other, the answers compared side by side (status, timing, headers,
/// a structural JSON diff without what the collection's `compare: { ignore: }` names), as
/// `explorer compare` does. A protected environment asks first.
extension AppReducer {
    /// Opens the environment picker for a comparison of the selected endpoint.
    static func openComparePicker(_ state: inout AppState) {
        guard let endpoint = state.selectedEndpoint else {
            state.message = "= compares an endpoint in two environments: select one in Endpoints."
            return
        }
        guard state.environments.count > 1 else {
            state.message = "Comparing needs a second environment; this collection has \(state.environments.count)."
            return
        }
        state.comparePending = endpoint.id
        let other = state.environments.indices.first { $0 != state.activeEnvironment } ?? 0
        state.overlay = .environmentPicker(ListState(selected: other))
    }

    /// The picker's choice: compare now, or ask first when either environment is protected.
    static func compareOrConfirm(_ endpointID: String, with environment: Environment, _ state: inout AppState)
        -> [AppEffect]
    {
        guard let active = state.activeEnvironmentValue else { return [] }
        guard environment.name != active.name else {
            state.message = "Pick an environment other than \(active.name) to compare with."
            return []
        }
        if active.isProtected || environment.isProtected {
            state.confirmation = state.confirmationToCompare(endpointID, with: environment.name)
            return []
        }
        return compareEnvironments(endpointID, with: environment, &state)
    }

    /// The confirmation before a comparison that sends to a protected environment was
    /// confirmed: compares.
    static func compareConfirmed(_ endpointID: String, with environment: String, _ state: inout AppState)
        -> [AppEffect]
    {
        guard let chosen = state.environments.first(where: { $0.name == environment }) else { return [] }
        return compareEnvironments(endpointID, with: chosen, &state)
    }

    private static func compareEnvironments(
        _ endpointID: String, with environment: Environment, _ state: inout AppState
    ) -> [AppEffect] {
        guard let stored = state.endpoint(withID: endpointID), let active = state.activeEnvironmentValue else {
            return []
        }
        let endpoint = state.drafts[endpointID] ?? stored
        guard let first = state.plan(for: endpoint, in: active), let second = state.plan(for: endpoint, in: environment)
        else { return [] }
        state.message = "Comparing \(endpointID) in \(active.name) and \(environment.name)…"
        return [.compareEnvironments(first, second)]
    }
}
