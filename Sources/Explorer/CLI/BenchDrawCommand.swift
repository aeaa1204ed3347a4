import ArgumentParser
import Curses
import Foundation
import Terminal

/// `explorer bench draw`: figures for the terminal layer.
///
/// Prints the time to compose a full 200×60 frame from widgets (pure: state to
/// `CellGrid`), the time to flush such frames through ncurses into a pseudo-terminal, and
/// the time to draw the visible window of a 50 MB body next to a 1 MB one (it must not grow
/// with the body), plus the one-off cost of indexing each body's lines.
struct BenchDrawCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "draw",
        abstract: "Benchmark drawing: full 200x60 frame, ncurses flush, visible window of a 50 MB body.",
        shouldDisplay: false
    )

    @Option(name: .long, help: "How many frames to time per figure.")
    var samples: Int = 300

    func run() throws {
        let size = Size(width: 200, height: 60)
        let list = (0..<500).map { i in
            ListItem(
                [
                    Span(i % 3 == 0 ? "GET " : "POST", role: i % 3 == 0 ? .methodGet : .methodPost),
                    Span(" /resources/\(i)/items?page=\(i % 7) 日本 🚀"),
                ], trailing: [Span("200", role: .status2xx)])
        }
        let small = BenchDrawCommand.body(bytes: 1_000_000)
        let large = BenchDrawCommand.body(bytes: 50_000_000)
        let clock = ContinuousClock()
        var smallIndex: LineIndex!
        var largeIndex: LineIndex!
        let smallIndexTime = clock.measure { smallIndex = LineIndex(small) }
        let largeIndexTime = clock.measure { largeIndex = LineIndex(large) }

        let frame = { (index: LineIndex, top: Int, search: String) -> CellGrid in
            BenchDrawCommand.frame(size: size, items: list, body: index, top: top, search: search)
        }
        let compose = BenchDrawCommand.median(samples) { i in _ = frame(smallIndex, i % 1000, "") }
        let composeSearch = BenchDrawCommand.median(samples) { i in _ = frame(smallIndex, i % 1000, "items") }

        let area = Rect(x: 0, y: 0, width: 140, height: 58)
        let window = { (index: LineIndex, wrap: Bool, top: Int) in
            var grid = CellGrid(size: size)
            ScrollText(
                source: BytesTextSource(index), state: ScrollTextState(topLine: top, wrap: wrap, showLineNumbers: true)
            )
            .render(into: &grid, area: area)
        }
        let smallWindow = BenchDrawCommand.median(samples) { i in
            window(smallIndex, false, smallIndex.lineCount / 2 + i % 100)
        }
        let largeWindow = BenchDrawCommand.median(samples) { i in
            window(largeIndex, false, largeIndex.lineCount / 2 + i % 100)
        }
        let largeWrapped = BenchDrawCommand.median(samples) { i in
            window(largeIndex, true, largeIndex.lineCount / 2 + i % 100)
        }
        let oneLine = LineIndex(BenchDrawCommand.body(bytes: 50_000_000, lineBreaks: false))
        let oneLineWindow = BenchDrawCommand.median(samples) { _ in window(oneLine, true, 0) }

        print("frame 200x60 compose (list 500 items + body + status), median: \(BenchDrawCommand.format(compose))")
        print("frame 200x60 compose with search highlights, median:          \(BenchDrawCommand.format(composeSearch))")
        if let flush = try? BenchDrawCommand.flush(
            samples: min(samples, 200), frames: [frame(smallIndex, 0, ""), frame(smallIndex, 1, "")])
        {
            print(
                "frame 200x60 ncurses flush into a pty (every frame scrolled), median: "
                    + "\(BenchDrawCommand.format(flush))"
            )
        }
        print(
            "line index: 1 MB body \(smallIndex.lineCount) lines in \(BenchDrawCommand.format(smallIndexTime)); "
                + "50 MB body \(largeIndex.lineCount) lines in \(BenchDrawCommand.format(largeIndexTime))"
        )
        print("visible window 140x58, 1 MB body, wrap off, median:  \(BenchDrawCommand.format(smallWindow))")
        print("visible window 140x58, 50 MB body, wrap off, median: \(BenchDrawCommand.format(largeWindow))")
        print("visible window 140x58, 50 MB body, wrap on, median:  \(BenchDrawCommand.format(largeWrapped))")
        print(
            "visible window 140x58, 50 MB single-line body, wrap on, median: \(BenchDrawCommand.format(oneLineWindow))")
    }

    /// A full screen: tabs, a list pane, a body pane and a status bar.
    static func frame(size: Size, items: [ListItem], body: LineIndex, top: Int, search: String) -> CellGrid {
        var grid = CellGrid(size: size)
        let rows = Layout.rows(grid.bounds, [.fixed(1), .fill, .fixed(1)])
        Tabs(titles: ["Endpoints", "History", "Environments"], selected: 0).render(into: &grid, area: rows[0])
        let columns = Layout.columns(rows[1], [.percent(30), .fill])
        let listInside = Block(title: "Endpoints", focused: true).render(into: &grid, area: columns[0])
        ListView(items: items, state: ListState(selected: top % items.count)).render(into: &grid, area: listInside)
        let bodyInside = Block(title: "Response", trailingTitle: [Span("200 OK", role: .status2xx)]).render(
            into: &grid, area: columns[1])
        ScrollText(
            source: BytesTextSource(body),
            state: ScrollTextState(topLine: top, wrap: true, showLineNumbers: true, search: search)
        )
        .render(into: &grid, area: bodyInside)
        StatusBar(hints: [
            KeyHint(key: "q", label: "quit"), KeyHint(key: "Enter", label: "send"), KeyHint(key: "/", label: "search"),
        ]).render(into: &grid, area: rows[2])
        return grid
    }

    /// Pretty-printed JSON-like lines up to `bytes` bytes (or one long line).
    static func body(bytes: Int, lineBreaks: Bool = true) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes + 200)
        var i = 0
        while result.count < bytes {
            let line =
                "  {\"id\": \(i), \"name\": \"item \(i) — ünïcödé 日本\", \"tags\": [\"a\", \"b\"], \"price\": "
                + "\(Double(i) * 1.5), \"active\": \(i % 2 == 0)},"
            result += line.utf8
            if lineBreaks { result.append(0x0A) }
            i += 1
        }
        return result
    }

    /// The median time of `count` runs.
    static func median(_ count: Int, _ body: (Int) -> Void) -> Duration {
        let clock = ContinuousClock()
        var times: [Duration] = []
        times.reserveCapacity(count)
        for i in 0..<max(1, count) { times.append(clock.measure { body(i) }) }
        times.sort()
        return times[times.count / 2]
    }

    /// The median time to flush alternating frames through ncurses into a pty, whose
    /// other end a background thread drains (as a terminal emulator would).
    static func flush(samples: Int, frames: [CellGrid]) throws -> Duration {
        guard let master = explorerBenchOpenPty(columns: 200, rows: 60) else { throw CursesError.noTerminal }
        _ = fcntl(master.fd, F_SETFL, fcntl(master.fd, F_GETFL) & ~O_NONBLOCK)
        let drained = DispatchSemaphore(value: 0)
        let descriptor = master.fd
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while read(descriptor, &buffer, buffer.count) > 0 {}
            drained.signal()
        }
        guard let input = fopen(master.slave, "r"), let output = fopen(master.slave, "w") else {
            throw CursesError.noTerminal
        }
        let screen = try CursesScreen(
            input: input, output: output, ownsFiles: true, theme: Theme.fallback,
            environment: ["TERM": "xterm-256color"])
        let time = median(samples) { i in screen.draw(frames[i % frames.count]) }
        screen.end()
        _ = drained.wait(timeout: .now() + 2)
        close(descriptor)
        return time
    }

    static func format(_ duration: Duration) -> String {
        let micros = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        return micros >= 1000 ? String(format: "%.2f ms", micros / 1000) : String(format: "%.1f µs", micros)
    }
}
