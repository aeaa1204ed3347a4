import Terminal
import Workspace

/// The session's mock (`O`): `explorer mock` serving the collection in this process, an
/// environment of the session alone, and its log (`L`).
extension AppReducer {
    /// `O` (`U`: a stateful one): starts a mock of the collection in the active environment, or
    /// stops the one served.
    static func toggleMock(_ state: inout AppState, stateful: Bool = false) -> [AppEffect] {
        if let mock = state.mock {
            guard mock.isServing else {
                state.message = "The mock is starting …"
                return []
            }
            return stopMock(&state)
        }
        guard let collection = state.collection else {
            state.message = "There is no collection to mock."
            state.messageIsError = true
            return []
        }
        let mocked = state.activeEnvironmentValue
        state.mock = MockSession(mocked: mocked?.name, stateful: stateful)
        state.message =
            "Starting a \(stateful ? "stateful " : "")mock of \(mocked.map { "\($0.name) in " } ?? "")\(state.collectionFileName) …"
        state.messageIsError = false
        return [.startMock(MockRequest(collection: collection, environment: mocked, stateful: stateful))]
    }

    /// The mock listens: its environment joins the list, last, and becomes the active one.
    static func mockStarted(_ started: MockStarted, _ state: inout AppState) {
        guard var mock = state.mock, !mock.isServing else { return }
        let collectionEnvironments = state.collection?.environments ?? []
        let mocked = collectionEnvironments.first { $0.name == mock.mocked }
        let name = MockSession.environmentName(avoiding: collectionEnvironments.map(\.name))
        mock.port = started.port
        mock.environment = .mock(
            of: mocked, in: state.collection ?? APICollection(name: ""), named: name, at: started.baseURL)
        state.mock = mock
        switchEnvironment(to: state.environments.count - 1, &state)
        let routes = "\(started.routes) route\(started.routes == 1 ? "" : "s")"
        var commands: [(AppCommand, String)] = [(.mockLog, "log")]
        if mock.stateful { commands.append((.mockReset, "reset")) }
        commands.append((.mock, "stop"))
        let keys = commands.compactMap { command, label in
            state.keymap.key(for: command).map { "\($0) \(label)" }
        }
        state.message =
            "Environment: \(name), a mock of \(mock.mocked ?? "the collection") on port \(started.port)"
            + " (\(routes), from \(started.source)\(mock.stateful ? ", stateful" : ""))"
            + (keys.isEmpty ? "" : ": " + keys.joined(separator: ", "))
    }

    /// The mock could not start: nothing changes but the message.
    static func mockFailed(_ reason: String, _ state: inout AppState) {
        state.mock = nil
        state.message = "No mock: \(reason)"
        state.messageIsError = true
    }

    /// Stops the mock: its environment goes; when it was the active one, the environment it
    /// mocked is active again.
    private static func stopMock(_ state: inout AppState) -> [AppEffect] {
        guard let mock = state.mock else { return [] }
        let wasActive = state.isMockEnvironment(state.activeEnvironment)
        state.mock = nil
        if case .mockLog = state.overlay { state.overlay = nil }
        let count = state.environments.count
        if wasActive || state.activeEnvironment >= count {
            let back = state.environments.firstIndex { $0.name == mock.mocked } ?? 0
            state.activeEnvironment = count == 0 ? 0 : back
        }
        if state.environmentList.selected >= count { state.environmentList.selected = max(0, count - 1) }
        let answered = "it answered \(mock.answered) request\(mock.answered == 1 ? "" : "s")"
        state.message =
            "Mock stopped (\(answered))."
            + (wasActive ? " Environment: \(state.activeEnvironmentValue?.name ?? "none")" : "")
        state.messageIsError = false
        return [.stopMock]
    }

    /// `Z`: the mock forgets what was posted, changed and deleted; the examples' resources are back.
    static func resetMock(_ state: inout AppState) -> [AppEffect] {
        guard let mock = state.mock, mock.isServing else {
            state.message =
                state.mock == nil
                ? "No mock is running" + (state.keymap.key(for: .mock).map { ": \($0) starts one." } ?? ".")
                : "The mock is starting …"
            state.messageIsError = false
            return []
        }
        guard mock.stateful else {
            let stop = state.keymap.key(for: .mock) ?? "O"
            state.message =
                "This mock keeps no state"
                + (state.keymap.key(for: .statefulMock).map { ": \(stop) stops it, then \($0) serves a stateful one." }
                    ?? ".")
            state.messageIsError = false
            return []
        }
        state.message = "Resetting the mock's resources …"
        state.messageIsError = false
        return [.resetMock]
    }

    /// The mock's resources are the examples' again.
    static func mockStateReset(_ count: Int?, _ state: inout AppState) {
        guard state.mock != nil, let count else {
            state.message = "No mock is running: nothing to reset."
            return
        }
        state.message = "Mock reset: \(count) resource\(count == 1 ? "" : "s") from the document's examples."
        state.messageIsError = false
    }

    /// `L`: the mock's log, following the newest line.
    static func openMockLog(_ state: inout AppState) {
        guard state.mock != nil else {
            state.message = "No mock is running" + (state.keymap.key(for: .mock).map { ": \($0) starts one." } ?? ".")
            return
        }
        state.overlay = .mockLog(offset: Int.max)
    }

    /// Keys of the mock's log: scroll (at the last row it follows new lines), Esc, q or `L` close it.
    static func handleMockLog(_ press: KeyPress, offset: Int, _ state: inout AppState) -> [AppEffect] {
        let panel = state.mockLogPanel(offset: offset)
        let last = panel.maximumOffset(in: Rect(size: state.size))
        let closing = state.keymap.key(for: .mockLog).flatMap { $0.count == 1 ? $0.first : nil } ?? "L"
        guard let next = scrolled(press, offset: min(offset, last), panel: panel, closing: closing, state) else {
            state.overlay = nil
            return []
        }
        state.overlay = .mockLog(offset: next >= last ? Int.max : next)
        return []
    }
}
