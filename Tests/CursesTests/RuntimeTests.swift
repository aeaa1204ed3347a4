import Dispatch
import Foundation
import Testing

@testable import App
@testable import Curses
@testable import Terminal

/// A tiny program: `a` asks an effect to double the count off the main queue, `b` adds
/// one, `q` quits.
struct CounterProgram: TerminalProgram {
    struct State {
        var count = 0
        var quit = false
        var performedOnMain: [Bool] = []
    }

    enum Action: Sendable {
        case key(KeyPress)
        case doubled(Int, onMain: Bool)
    }

    enum Effect: Sendable {
        case double(Int)
    }

    func reduce(_ state: inout State, _ action: Action) -> [Effect] {
        switch action {
        case .key(.char("a")):
            return [.double(max(1, state.count))]
        case .key(.char("b")):
            state.count += 1
        case .key(.char("q")):
            state.quit = true
        case .key:
            break
        case .doubled(let value, let onMain):
            state.count = value
            state.performedOnMain.append(onMain)
        }
        return []
    }

    func view(_ state: State, size: Size) -> CellGrid {
        var grid = CellGrid(size: size)
        // Each count lands on a fresh row, so ncurses sends it whole rather than a diff.
        grid.put("count=\(state.count);", x: 0, y: (state.count / 10) % max(1, size.height - 1))
        grid.put("\(size.width)x\(size.height)", x: 0, y: size.height - 1)
        return grid
    }

    func action(for event: InputEvent, in state: State) -> Action? {
        if case .key(let press) = event { return .key(press) }
        return nil
    }

    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) {
        if case .double(let n) = effect { send(.doubled(n * 2, onMain: Thread.isMainThread)) }
    }

    func shouldQuit(_ state: State) -> Bool { state.quit }
}

extension CursesPtyTests {
    @MainActor
    func waitUntil(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition(), Date() < deadline { try? await Task.sleep(for: .milliseconds(2)) }
        return condition()
    }

    /// The counter program running on a 40x10 pseudo-terminal, its first frame drawn.
    @MainActor
    func startCounter() async throws -> (PseudoTerminal, Runtime<CounterProgram>) {
        let pty = try PseudoTerminal(columns: 40, rows: 10)
        let (input, output) = try pty.openSlave()
        let screen = try CursesScreen(
            input: input, output: output, ownsFiles: true, theme: Theme.fallback,
            environment: ["TERM": "xterm-256color"])
        let runtime = Runtime(program: CounterProgram(), state: CounterProgram.State())
        runtime.start(screen: screen)
        #expect(await waitUntil { pty.waitForOutput(containing: "count=0;", timeout: 0) })
        return (pty, runtime)
    }

    @Test @MainActor func runtimeReducesInputRunsEffectsOffMainAndRedrawsOncePerBurst() async throws {
        let (pty, runtime) = try await startCounter()
        let frames = runtime.framesDrawn

        pty.type("bbbbbbbbbb")
        #expect(await waitUntil { runtime.state.count == 10 })
        #expect(await waitUntil { pty.waitForOutput(containing: "count=10;", timeout: 0) })
        #expect(runtime.framesDrawn == frames + 1)

        pty.type("a")
        #expect(await waitUntil { runtime.state.count == 20 })
        #expect(runtime.state.performedOnMain == [false])
        #expect(await waitUntil { pty.waitForOutput(containing: "count=20;", timeout: 0) })

        var smaller = winsize(ws_row: 8, ws_col: 30, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(pty.master, UInt(TIOCSWINSZ), &smaller)
        kill(getpid(), SIGWINCH)
        #expect(await waitUntil { pty.waitForOutput(containing: "30x8", timeout: 0) })

        pty.type("q")
        #expect(await waitUntil { runtime.state.quit })
        #expect(await waitUntil { pty.waitForOutput(containing: "\u{1B}[?2004l", timeout: 0) })
    }

    @Test @MainActor func runtimeEndsWhenTheTerminalHangsUp() async throws {
        let (pty, runtime) = try await startCounter()
        pty.type("b")
        #expect(await waitUntil { runtime.state.count == 1 })
        #expect(!runtime.hasEnded)
        pty.hangUp()
        #expect(await waitUntil { runtime.hasEnded })
    }
}
