import Curses
import Dispatch
import Foundation
import Terminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a `TerminalProgram` on the main queue: input and signals in, one redraw per burst
/// of actions out, effects off the main queue in order (`EffectInterpreter`).
///
/// Nothing polls: a read source on the terminal wakes it for keys, a self-pipe wakes it
/// for SIGWINCH, SIGTERM, SIGHUP and SIGINT, effects report back by hopping to the main
/// queue, and a timer runs only while the program asks for ticks. On every way out the
/// terminal is restored: the normal end and a thrown error end ncurses, a terminating
/// signal ends ncurses and then re-raises, and a crash signal writes the reset bytes.
@MainActor
package final class Runtime<Program: TerminalProgram> {
    /// The program.
    package let program: Program
    /// The current state (after `run` returns: the final state).
    package private(set) var state: Program.State

    private let interpreter: EffectInterpreter<Program>
    private var screen: CursesScreen?
    private var sources: [any DispatchSourceProtocol] = []
    private var ticker: (any DispatchSourceTimer)?
    private var tickInterval: DispatchTimeInterval?
    private var redrawScheduled = false
    private var continuation: CheckedContinuation<Void, Never>?
    private var signalPipe: [Int32] = [-1, -1]
    private var finished = false

    /// Whether the runtime has ended (the program quit, the terminal hung up).
    package var hasEnded: Bool { finished }

    /// The number of frames drawn (for the idle measurement: it must not grow while idle).
    package private(set) var framesDrawn = 0
    /// Runs once, right after the first frame is drawn: work that must not delay it.
    package var afterFirstFrame: (() -> Void)?

    /// Creates a runtime.
    ///
    /// - Parameters:
    ///   - program: the program.
    ///   - state: the initial state.
    package init(program: Program, state: Program.State) {
        self.program = program
        interpreter = EffectInterpreter(program: program)
        self.state = state
    }

    /// Runs on a set-up screen until the program quits; the screen is ended (the terminal
    /// restored) before this returns.
    ///
    /// - Parameter screen: the terminal, set up by the caller.
    package func run(on screen: CursesScreen) async {
        start(screen: screen)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if finished {
                continuation.resume()
            } else {
                self.continuation = continuation
            }
        }
    }

    /// Starts on an already set-up screen (tests pass one on a pty).
    func start(screen: CursesScreen) {
        self.screen = screen
        installSignalPipe()
        let descriptor = screen.inputDescriptor
        let input = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: .main)
        input.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                if input.data == 0, Runtime.isHungUp(descriptor) {
                    // The terminal hung up: reading would return end-of-file forever.
                    self.finish()
                    return
                }
                self.readInput()
            }
        }
        input.resume()
        sources.append(input)
        if let size = screen.refreshSize() { handle(size) }
        handle(.resize(screen.size))
        updateTicker()
        scheduleRedraw()
    }

    /// Sends an action from the main actor (effects use the `send` closure they receive).
    package func send(_ action: Program.Action) {
        dispatch(action)
    }

    // MARK: - The loop

    private func readInput() {
        guard let screen else { return }
        for event in screen.readEvents() { handle(event) }
    }

    private func handle(_ event: InputEvent) {
        guard !finished else { return }
        if case .resize = event { scheduleRedraw() }
        if let action = program.action(for: event, in: state) { dispatch(action) }
    }

    private func dispatch(_ action: Program.Action) {
        guard !finished else { return }
        let effects = program.reduce(&state, action)
        if program.shouldQuit(state) {
            finish()
            return
        }
        interpreter.run(effects, send: makeSend())
        updateTicker()
        scheduleRedraw()
    }

    private func makeSend() -> @Sendable (Program.Action) -> Void {
        { [weak self] action in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.dispatch(action) }
            }
        }
    }

    /// Asks for one redraw after the current burst of work on the main queue.
    private func scheduleRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.redrawScheduled = false
                self.redraw()
            }
        }
    }

    private func redraw() {
        guard !finished, let screen else { return }
        let grid = program.view(state, size: screen.size)
        screen.draw(grid)
        framesDrawn += 1
        if let run = afterFirstFrame {
            afterFirstFrame = nil
            run()
        }
    }

    private func updateTicker() {
        let wanted = program.tickInterval(state)
        guard wanted != tickInterval else { return }
        tickInterval = wanted
        ticker?.cancel()
        ticker = nil
        guard let wanted else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now() + wanted, repeating: wanted, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.handle(.tick) }
        }
        timer.resume()
        ticker = timer
    }

    // MARK: - Signals

    private func installSignalPipe() {
        guard pipe(&signalPipe) == 0 else { return }
        _ = fcntl(signalPipe[1], F_SETFL, O_NONBLOCK)
        _ = fcntl(signalPipe[0], F_SETFL, O_NONBLOCK)
        RuntimeSignals.install(writeDescriptor: signalPipe[1])
        let reader = DispatchSource.makeReadSource(fileDescriptor: signalPipe[0], queue: .main)
        let descriptor = signalPipe[0]
        reader.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = read(descriptor, &buffer, buffer.count)
                guard let self, count > 0 else { return }
                for byte in buffer.prefix(count) { self.received(Int32(byte)) }
            }
        }
        reader.resume()
        sources.append(reader)
    }

    private func received(_ number: Int32) {
        if number == SIGWINCH {
            if let event = screen?.refreshSize() { handle(event) }
            return
        }
        // SIGTERM, SIGHUP, SIGINT: restore the terminal, then die of the signal as expected.
        teardown()
        RuntimeSignals.uninstall()
        signal(number, SIG_DFL)
        // Not raise(): that targets this thread, a dispatch worker whose mask blocks the signal.
        kill(getpid(), number)
    }

    /// Whether the terminal behind `descriptor` has hung up (no byte will ever come).
    ///
    /// A read source can also fire with nothing to read when ncurses already consumed the
    /// bytes, so "no data" alone is not a hang-up.
    nonisolated static func isHungUp(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        if entry.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return true }
        // Readable with no bytes waiting is end-of-file.
        var waiting: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &waiting) == 0 && waiting == 0 && entry.revents & Int16(POLLIN) != 0
    }

    // MARK: - Handing the terminal over

    /// Runs another program in the terminal (an editor): input is not read meanwhile, the
    /// terminal is in its normal modes, and the screen is fully redrawn afterwards.
    ///
    /// - Parameter body: runs on the main queue while the terminal is handed over.
    /// - Returns: what `body` returned.
    package func handOverTerminal<T>(_ body: () -> T) -> T {
        guard let screen, !finished else { return body() }
        for source in sources { source.suspend() }
        let result = screen.handOver(body)
        for source in sources { source.resume() }
        if let event = screen.refreshSize() { handle(event) }
        scheduleRedraw()
        return result
    }

    // MARK: - Ending

    private func finish() {
        guard !finished else { return }
        teardown()
        continuation?.resume()
        continuation = nil
    }

    private func teardown() {
        finished = true
        for source in sources { source.cancel() }
        sources.removeAll()
        ticker?.cancel()
        ticker = nil
        screen?.end()
        screen = nil
        RuntimeSignals.uninstall()
        for descriptor in signalPipe where descriptor >= 0 { close(descriptor) }
        signalPipe = [-1, -1]
    }
}
