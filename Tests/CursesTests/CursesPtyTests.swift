import App
import Foundation
import Testing

@testable import Curses
@testable import Terminal

/// ncurses has one global screen, so everything that sets one up runs in this suite,
/// one test at a time.
@Suite(.serialized) struct CursesPtyTests {
    @Test func flushWritesTheGridThroughTheWideCharacterCallsAndKeepsEscapesInert() throws {
        let pty = try PseudoTerminal(columns: 40, rows: 12)
        let (input, output) = try pty.openSlave()
        let screen = try CursesScreen(
            input: input, output: output, ownsFiles: true, theme: Theme.fallback,
            environment: ["TERM": "xterm-256color"])
        defer { screen.end() }
        #expect(screen.size == Size(width: 40, height: 12))
        var grid = CellGrid(width: 40, height: 12)
        grid.put("hello 日本 e\u{301} 🚀", x: 0, y: 0, style: Style(.title, [.bold]))
        grid.put("body:\u{1B}]0;owned\u{7}\u{1B}[2J", x: 0, y: 1)
        screen.draw(grid)
        #expect(pty.waitForOutput(containing: "🚀"))
        let text = pty.outputText
        #expect(text.contains("hello 日本 e\u{301}"))
        // Styles change between the escaped parts, so look for the pieces and for what
        // must never be there: an OSC introducer or a BEL byte.
        #expect(text.contains("body:"))
        #expect(text.contains("]0;owned"))
        #expect(text.contains("\\u{7}"))
        #expect(!text.contains("\u{1B}]"))
        #expect(!text.contains("\u{7}"))

        // A second frame with one change sends little: ncurses does the diffing.
        let before = pty.output.count
        grid.put("X", x: 5, y: 5)
        screen.draw(grid)
        #expect(pty.waitForOutput(containing: "X"))
        #expect(pty.output.count - before < 40)
    }

    @Test func anEmojiSequenceIsFlushedWithoutItsJoiner() throws {
        let pty = try PseudoTerminal(columns: 20, rows: 4)
        let (input, output) = try pty.openSlave()
        let screen = try CursesScreen(
            input: input, output: output, ownsFiles: true, theme: Theme.fallback,
            environment: ["TERM": "xterm-256color"])
        defer { screen.end() }
        var grid = CellGrid(width: 20, height: 4)
        grid.put("[👩\u{200D}💻]end", x: 0, y: 0)
        screen.draw(grid)
        #expect(pty.waitForOutput(containing: "end"))
        // A joiner left in the output would make the terminal join it to the next character
        // and shift the rest of the row.
        #expect(pty.outputText.contains("👩"))
        #expect(!pty.outputText.contains("\u{200D}"))
    }

    @Test func keysMouseAndPasteDecodeToInputEvents() throws {
        let pty = try PseudoTerminal(columns: 80, rows: 24)
        let (input, output) = try pty.openSlave()
        let screen = try CursesScreen(
            input: input, output: output, ownsFiles: true, theme: Theme.fallback,
            environment: ["TERM": "xterm-256color"])
        defer { screen.end() }
        func collect(after typing: String, count: Int) -> [InputEvent] {
            pty.type(typing)
            var events: [InputEvent] = []
            let deadline = Date().addingTimeInterval(5)
            while events.count < count, Date() < deadline {
                events += screen.readEvents()
                usleep(2000)
            }
            return events
        }
        // Mouse reports arrive one at a time, as a real pointer produces them.
        var events = collect(
            after: "\u{1B}OA" + "x" + "\u{13}" + "\u{1B}[6~" + "\u{1B}OP" + "\u{1B}[200~pasted\ntext\u{1B}[201~" + "é",
            count: 7)
        events += collect(after: "\u{1B}x", count: 1)
        events += collect(after: "\u{1B}\u{1B}OA", count: 1)
        events += collect(after: "\u{1B}[<0;11;6M", count: 1)
        events += collect(after: "\u{1B}[<0;11;6m", count: 1)
        events += collect(after: "\u{1B}[<65;3;4M", count: 1)
        // A burst of wheel reports in one read loses none.
        events += collect(after: String(repeating: "\u{1B}[<64;3;4M", count: 3), count: 3)
        #expect(
            events == [
                .key(KeyPress(.up)),
                .key(.char("x")),
                .key(.ctrl("s")),
                .key(KeyPress(.pageDown)),
                .key(KeyPress(.function(1))),
                .paste("pasted\ntext"),
                .key(.char("é")),
                .key(.alt("x")),
                .key(KeyPress(.up, .alt)),
                .mouse(MouseEvent(.press(.left), at: Point(x: 10, y: 5))),
                .mouse(MouseEvent(.release, at: Point(x: 10, y: 5))),
                .mouse(MouseEvent(.wheelDown, at: Point(x: 2, y: 3))),
                .mouse(MouseEvent(.wheelUp, at: Point(x: 2, y: 3))),
                .mouse(MouseEvent(.wheelUp, at: Point(x: 2, y: 3))),
                .mouse(MouseEvent(.wheelUp, at: Point(x: 2, y: 3))),
            ])
    }

    @Test func endingRestoresTheTerminalSettings() throws {
        let pty = try PseudoTerminal(columns: 80, rows: 24)
        let (input, output) = try pty.openSlave()
        var before = termios()
        tcgetattr(fileno(output), &before)
        let screen = try CursesScreen(
            input: input, output: output, ownsFiles: false, theme: Theme.fallback,
            environment: ["TERM": "xterm-256color"])
        var during = termios()
        tcgetattr(fileno(output), &during)
        #expect(during.c_lflag & tcflag_t(ICANON) == 0)
        screen.end()
        var after = termios()
        tcgetattr(fileno(output), &after)
        #expect(after.c_lflag == before.c_lflag)
        #expect(after.c_iflag == before.c_iflag)
        #expect(pty.waitForOutput(containing: "\u{1B}[?2004l"))
        fclose(input)
        fclose(output)
    }
}
