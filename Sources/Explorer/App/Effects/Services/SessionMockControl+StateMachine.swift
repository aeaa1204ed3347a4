extension SessionMockControl {
    /// The session mock's life as a pure state machine: what a request (`O` pressed, the
    /// session ending) and an outcome (the host started or stopped) lead to. The control around
    /// it runs what it says and tells it the outcomes; it is tested alone.
    ///
    /// One start or stop runs at a time. What is asked meanwhile waits, and only the last
    /// request waits: a start then a stop asked while a start runs is one stop after it.
    struct StateMachine<Request> {
        enum State: Equatable {
            case stopped
            case starting
            case serving
            case stopping
        }

        /// What the control does next.
        enum Action {
            /// Start serving `Request` (the host stops a mock already served first).
            case start(Request)
            /// Stop serving.
            case stop
            /// Nothing: the state already is, or will be, what was asked.
            case none
        }

        private(set) var state = State.stopped
        /// What was asked while a start or a stop ran; done once it ends.
        private var waiting: Waiting?

        private enum Waiting {
            case start(Request)
            case stop
        }

        /// Whether a start or a stop runs or waits.
        var isBusy: Bool { state == .starting || state == .stopping || waiting != nil }

        /// The user asks for a mock of `request`.
        mutating func startRequested(_ request: Request) -> Action {
            switch state {
            case .stopped, .serving:
                state = .starting
                return .start(request)
            case .starting, .stopping:
                waiting = .start(request)
                return .none
            }
        }

        /// The user asks for the mock to stop, or the session ends.
        mutating func stopRequested() -> Action {
            switch state {
            case .stopped:
                waiting = nil
                return .none
            case .serving:
                state = .stopping
                return .stop
            case .starting:
                waiting = .stop
                return .none
            case .stopping:
                waiting = nil
                return .none
            }
        }

        /// The host has started serving (`succeeded`) or could not.
        mutating func startEnded(succeeded: Bool) -> Action {
            precondition(state == .starting, "a start ended while \(state)")
            state = succeeded ? .serving : .stopped
            return next()
        }

        /// The host has stopped serving.
        mutating func stopEnded() -> Action {
            precondition(state == .stopping, "a stop ended while \(state)")
            state = .stopped
            return next()
        }

        /// What waited, now that nothing runs.
        private mutating func next() -> Action {
            defer { waiting = nil }
            switch waiting {
            case .start(let request)?:
                state = .starting
                return .start(request)
            case .stop?:
                return stopRequested()
            case nil:
                return .none
            }
        }
    }
}
