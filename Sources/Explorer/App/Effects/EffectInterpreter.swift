import Dispatch

/// Runs a program's effects off the main queue, one after another, in the order the reducer
/// asked for them.
///
/// Order is what keeps an exchange coherent: a cancel must find the send it cancels, and a
/// send must be registered before anything about it is reported. A program whose effect takes
/// long moves that work on to a queue of its own, so the next effect does not wait for it.
final class EffectInterpreter<Program: TerminalProgram>: Sendable {
    private let program: Program
    private let queue: DispatchQueue

    /// Creates an interpreter.
    ///
    /// - Parameters:
    ///   - program: the program whose `perform` runs the effects.
    ///   - label: the serial queue's label, for debuggers.
    package init(program: Program, label: String = "explorer.effects") {
        self.program = program
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Queues effects to run after every effect queued before them.
    ///
    /// - Parameters:
    ///   - effects: the effects, in order.
    ///   - send: how they report back.
    package func run(_ effects: [Program.Effect], send: @escaping @Sendable (Program.Action) -> Void) {
        guard !effects.isEmpty else { return }
        let program = self.program
        queue.async {
            for effect in effects { program.perform(effect, send: send) }
        }
    }

    /// Waits until every effect queued so far has run.
    package func drain() {
        queue.sync {}
    }
}
