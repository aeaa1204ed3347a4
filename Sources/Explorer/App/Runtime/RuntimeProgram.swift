import Dispatch
import Terminal

/// An Elm-like program the `Runtime` runs: one state, one action type, a pure reducer,
/// effects as data, a pure view.
///
/// The runtime calls `reduce`, `view`, `action(for:in:)` and `tickInterval` on the main
/// queue and `perform` on one serial background queue, effects in the order `reduce` returned
/// them; `perform` reports back through `send`, which hops to the main queue. Nothing here
/// touches the terminal.
package protocol TerminalProgram: Sendable {
    /// Everything the screen shows; lives on the main queue.
    associatedtype State
    /// What can happen: keys mapped to meaning, results of effects.
    associatedtype Action: Sendable
    /// Work the reducer asks for (send a request, save a file), run off the main queue.
    associatedtype Effect: Sendable

    /// Applies an action to the state.
    ///
    /// - Parameters:
    ///   - state: the state, changed in place.
    ///   - action: what happened.
    /// - Returns: effects to run.
    func reduce(_ state: inout State, _ action: Action) -> [Effect]

    /// Draws the state.
    ///
    /// - Parameters:
    ///   - state: the state.
    ///   - size: the terminal's size.
    /// - Returns: a grid of exactly `size`.
    func view(_ state: State, size: Size) -> CellGrid

    /// The action an input event means in this state, or nil to ignore it.
    ///
    /// - Parameters:
    ///   - event: a key, mouse event, paste, resize or tick.
    ///   - state: the current state.
    /// - Returns: the action.
    func action(for event: InputEvent, in state: State) -> Action?

    /// Runs an effect off the main queue, after the effects asked for before it. Work that
    /// takes long belongs on a queue of the program's own, so later effects do not wait.
    ///
    /// - Parameters:
    ///   - effect: the work.
    ///   - send: reports an action back; callable from any thread, any number of times.
    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void)

    /// Whether the program is done (the runtime restores the terminal and returns).
    func shouldQuit(_ state: State) -> Bool

    /// How often to send `.tick` while this state is showing (a spinner), nil for never.
    /// The runtime runs no timer at all while this is nil, so an idle app uses no CPU.
    func tickInterval(_ state: State) -> DispatchTimeInterval?
}

extension TerminalProgram {
    /// No ticks by default.
    package func tickInterval(_ state: State) -> DispatchTimeInterval? { nil }
}
