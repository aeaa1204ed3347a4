import CNcurses
import Terminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal, through ncurses: set up, draw `CellGrid`s, decode input, restore.
///
/// The only type (with its helpers in this folder) that talks to ncurses. Drawing writes
/// every cell of the grid with the wide-character calls and lets ncurses send only what
/// changed. Not thread-safe: use it from the main queue.
package final class CursesScreen {
    /// The file descriptor input is read from (watch it for readability).
    package let inputDescriptor: Int32
    /// The current size.
    package private(set) var size: Size
    private let screen: OpaquePointer
    private let inputFile: UnsafeMutablePointer<FILE>
    private let outputFile: UnsafeMutablePointer<FILE>
    private let ownsFiles: Bool
    private var palette: CursesPalette
    private var decoder = CursesKeyDecoder()
    private var ended = false
    private var cursorVisible = false
    /// The last frame drawn; cells equal to it are not handed to ncurses again.
    private var lastGrid: CellGrid?

    /// Opens the terminal: `/dev/tty` when it can, else standard input and output.
    ///
    /// - Parameters:
    ///   - theme: the theme to draw with.
    ///   - monochromeTheme: the theme for a terminal without colour (or `NO_COLOR`); `theme`'s
    ///     attributes alone when nil.
    ///   - environment: the process environment (`TERM`, `NO_COLOR`).
    /// - Throws: `CursesError` when there is no terminal or ncurses cannot set it up.
    package convenience init(
        theme: Theme, monochromeTheme: @autoclosure () -> Theme? = nil, environment: [String: String]
    ) throws {
        if let tty = fopen("/dev/tty", "r+") {
            try self.init(
                input: tty, output: tty, ownsFiles: true, theme: theme, monochromeTheme: monochromeTheme(),
                environment: environment)
        } else if isatty(0) == 1, isatty(1) == 1, let input = fdopen(dup(0), "r"), let output = fdopen(dup(1), "w") {
            try self.init(
                input: input, output: output, ownsFiles: true, theme: theme, monochromeTheme: monochromeTheme(),
                environment: environment)
        } else {
            throw CursesError.noTerminal
        }
    }

    /// Sets up ncurses on the given streams (a pty in tests).
    ///
    /// - Parameters:
    ///   - input: the stream keys come from.
    ///   - output: the stream drawing goes to.
    ///   - ownsFiles: whether to close the streams at the end.
    ///   - theme: the theme.
    ///   - monochromeTheme: the theme for a terminal without colour; `theme`'s attributes
    ///     alone when nil.
    ///   - environment: the process environment (`TERM`, `NO_COLOR`).
    /// - Throws: `CursesError.setupFailed` when ncurses refuses the terminal.
    package init(
        input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>, ownsFiles: Bool, theme: Theme,
        monochromeTheme: @autoclosure () -> Theme? = nil, environment: [String: String]
    ) throws {
        CursesScreen.setUTF8Locale()
        let term = environment["TERM"].flatMap { $0.isEmpty ? nil : $0 } ?? "xterm-256color"
        TerminalRestore.arm(descriptor: fileno(output))
        guard let screen = term.withCString({ newterm($0, output, input) }) else {
            TerminalRestore.disarm()
            if ownsFiles {
                fclose(input)
                if output != input { fclose(output) }
            }
            throw CursesError.setupFailed(term: term)
        }
        self.screen = screen
        self.inputFile = input
        self.outputFile = output
        self.ownsFiles = ownsFiles
        self.inputDescriptor = fileno(input)
        set_term(screen)
        raw()
        noecho()
        nonl()
        let window = explorer_stdscr()
        keypad(window, true)
        nodelay(window, true)
        _ = set_escdelay(25)
        _ = curs_set(0)
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        var colors = 0
        if !noColor, has_colors() {
            start_color()
            _ = use_default_colors()
            colors = Int(explorer_colors())
        }
        self.palette = CursesPalette(theme: colors == 0 ? (monochromeTheme() ?? theme) : theme, colors: colors)
        _ = mousemask(explorer_all_mouse_events() | explorer_report_mouse_position(), nil)
        _ = mouseinterval(0)
        decoder.defineKeys()
        size = Size(width: Int(explorer_getmaxx(window)), height: Int(explorer_getmaxy(window)))
        writeRaw("\u{1B}[?2004h")
    }

    deinit {
        end()
    }

    /// The colour depth in use (0: attributes only).
    var colorCount: Int { palette.colors }

    // MARK: - Drawing

    /// Draws a grid: every cell through `mvwadd_wch`, then one `doupdate` that sends only
    /// the differences from the previous frame.
    ///
    /// - Parameter grid: the frame (cut or padded to the screen's size).
    package func draw(_ grid: CellGrid) {
        guard !ended else { return }
        let window = explorer_stdscr()
        let rows = min(grid.height, size.height)
        let columns = min(grid.width, size.width)
        var cell = cchar_t()
        var chars = [wchar_t](repeating: 0, count: Int(explorer_ccharw_max()) + 1)
        // Skip cells unchanged since the last frame: ncurses would find no difference
        // either, but building and adding 12,000 cells costs more than comparing them.
        let previous = lastGrid.flatMap { $0.size == grid.size ? $0 : nil }
        for y in 0..<rows {
            var x = 0
            while x < columns {
                let item = grid[x, y]
                if item.isContinuation {
                    x += 1
                    continue
                }
                if let previous, previous[x, y] == item,
                    x + 1 >= columns || previous[x + 1, y].isContinuation == grid[x + 1, y].isContinuation
                {
                    x += 1
                    continue
                }
                let (attrs, pair) = palette.attributes(for: item.style)
                let width = fill(&chars, from: item.text)
                if explorer_setcchar(&cell, chars, attrs, pair) != explorer_ok() {
                    chars[0] = 0xFFFD
                    chars[1] = 0
                    _ = explorer_setcchar(&cell, chars, attrs, pair)
                }
                _ = mvwadd_wch(window, Int32(y), Int32(x), &cell)
                let expected = x + 1 < columns && grid[x + 1, y].isContinuation ? 2 : 1
                if expected == 2, width != 2 {
                    // ncurses measures this character narrower than we do: blank the other half.
                    chars[0] = 0x20
                    chars[1] = 0
                    _ = explorer_setcchar(&cell, chars, attrs, pair)
                    _ = mvwadd_wch(window, Int32(y), Int32(x + 1), &cell)
                }
                x += expected
            }
        }
        if let cursor = grid.cursor, cursor.x < size.width, cursor.y < size.height {
            if !cursorVisible { _ = curs_set(1) }
            cursorVisible = true
            wmove(window, Int32(cursor.y), Int32(cursor.x))
        } else if cursorVisible {
            _ = curs_set(0)
            cursorVisible = false
        }
        wnoutrefresh(window)
        doupdate()
        lastGrid = grid
    }

    /// Fills `chars` with a cell's scalars (zero-terminated, at most CCHARW_MAX) and returns
    /// the width the C library gives the first one.
    private func fill(_ chars: inout [wchar_t], from text: String) -> Int {
        var count = 0
        let limit = chars.count - 1
        for scalar in text.unicodeScalars {
            guard count < limit else { break }
            // Defence in depth: no control character reaches ncurses, whatever the grid holds.
            let value = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? 0xFFFD : scalar.value
            chars[count] = wchar_t(truncatingIfNeeded: value)
            count += 1
        }
        if count == 0 {
            chars[0] = 0x20
            count = 1
        }
        chars[count] = 0
        var width = Int(explorer_wcwidth(chars[0]))
        if width < 0 {
            chars[0] = 0xFFFD
            chars[1] = 0
            width = 1
        } else if count > 1 {
            // setcchar wants one spacing character followed by non-spacing ones only. A
            // zero-width joiner is dropped too: its partner was, and a terminal would join it
            // to whatever is written next, shifting the rest of the row (👩‍💻 shows as 👩).
            var kept = 1
            for i in 1..<count where explorer_wcwidth(chars[i]) == 0 && chars[i] != 0x200D {
                chars[kept] = chars[i]
                kept += 1
            }
            chars[kept] = 0
        }
        return width
    }

    // MARK: - Input

    /// Every input event waiting, without blocking.
    ///
    /// - Returns: decoded events, a `.resize` when the terminal's size changed.
    package func readEvents() -> [InputEvent] {
        guard !ended else { return [] }
        var events: [InputEvent] = []
        var value: wint_t = 0
        let window = explorer_stdscr()
        while true {
            let status = wget_wch(window, &value)
            if status == explorer_err() { break }
            if status == explorer_key_code_yes() {
                let code = Int32(value)
                if code == KEY_RESIZE {
                    if let resize = refreshSize() { events.append(resize) }
                    continue
                }
                if code == KEY_MOUSE {
                    var event = MEVENT()
                    // ncurses may queue several reports behind one KEY_MOUSE (a fast wheel).
                    while getmouse(&event) == explorer_ok() {
                        if let mouse = decoder.mouse(event) { events.append(.mouse(mouse)) }
                    }
                    continue
                }
                if let event = decoder.key(code: code) { events.append(event) }
            } else {
                let next: () -> CursesKeyDecoder.Read? = {
                    var more: wint_t = 0
                    let status = wget_wch(window, &more)
                    if status == explorer_ok() { return .character(UInt32(more)) }
                    if status == explorer_key_code_yes() { return .keyCode(Int32(more)) }
                    return nil
                }
                events += decoder.character(UInt32(value), next: next)
            }
        }
        return events
    }

    /// Reads the terminal's size from the tty and tells ncurses when it changed.
    ///
    /// - Returns: a `.resize` event when the size is new.
    package func refreshSize() -> InputEvent? {
        guard !ended else { return nil }
        var winsize = winsize()
        if ioctl(fileno(outputFile), UInt(TIOCGWINSZ), &winsize) == 0, winsize.ws_row > 0, winsize.ws_col > 0 {
            let rows = Int32(winsize.ws_row)
            let columns = Int32(winsize.ws_col)
            let window = explorer_stdscr()
            if rows != explorer_getmaxy(window) || columns != explorer_getmaxx(window) {
                _ = resizeterm(rows, columns)
            }
        }
        let window = explorer_stdscr()
        let newSize = Size(width: Int(explorer_getmaxx(window)), height: Int(explorer_getmaxy(window)))
        guard newSize != size else { return nil }
        size = newSize
        wclear(window)
        lastGrid = nil
        return .resize(newSize)
    }

    // MARK: - Handing the terminal over

    /// Gives the terminal back to its normal modes for another program (an editor), then takes
    /// it again and repaints everything.
    ///
    /// - Parameter body: runs while the terminal is the other program's.
    /// - Returns: what `body` returned.
    package func handOver<T>(_ body: () -> T) -> T {
        guard !ended else { return body() }
        writeRaw("\u{1B}[?2004l")
        _ = mousemask(0, nil)
        def_prog_mode()
        endwin()
        let result = body()
        reset_prog_mode()
        discardPendingInput()
        _ = mousemask(explorer_all_mouse_events() | explorer_report_mouse_position(), nil)
        writeRaw("\u{1B}[?2004h")
        _ = clearok(explorer_stdscr(), true)
        refresh()
        return result
    }

    /// Throws away what the other program left unread: keys typed into it, and a terminal's
    /// answer to one of its queries (a cursor-position report, `ESC [ 3 ; 1 R`, arriving after
    /// it exited), which would otherwise be read as keys. The terminal is asked for its status
    /// (`ESC [ 5 n`); it answers in order, so everything up to its `ESC [ 0 n` is stale. A
    /// terminal that does not answer is waited for at most `answerWait` milliseconds.
    private func discardPendingInput(answerWait: Int32 = 400) {
        _ = tcflush(inputDescriptor, TCIFLUSH)
        guard isatty(inputDescriptor) == 1 else { return }
        writeRaw("\u{1B}[5n")
        var received: [UInt8] = []
        let answer: [UInt8] = [0x1B, 0x5B, 0x30, 0x6E]
        var entry = pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)
        var waited: Int32 = 0
        while waited < answerWait {
            let started = Self.milliseconds()
            let ready = poll(&entry, 1, answerWait - waited)
            waited += max(1, Int32(Self.milliseconds() - started))
            guard ready > 0, entry.revents & Int16(POLLIN) != 0 else {
                if ready < 0, errno == EINTR { continue }
                return
            }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(inputDescriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            received += buffer.prefix(count)
            if received.count >= answer.count,
                received.indices.contains(where: { Array(received.dropFirst($0).prefix(answer.count)) == answer })
            {
                return
            }
            if received.count > 65_536 { received.removeFirst(received.count - answer.count) }
        }
    }

    private static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    // MARK: - Ending

    /// Restores the terminal: mouse and paste modes off, ncurses ended, settings back.
    /// Safe to call more than once.
    package func end() {
        guard !ended else { return }
        ended = true
        writeRaw("\u{1B}[?2004l")
        _ = mousemask(0, nil)
        endwin()
        delscreen(screen)
        TerminalRestore.disarm()
        if ownsFiles {
            fclose(inputFile)
            if outputFile != inputFile { fclose(outputFile) }
        }
    }

    /// Writes bytes to the terminal outside ncurses (mode switches ncurses does not know).
    private func writeRaw(_ text: String) {
        fflush(outputFile)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { write(fileno(outputFile), $0.baseAddress, $0.count) }
    }

    /// Sets the locale from the environment, falling back to C.UTF-8 when it is not UTF-8,
    /// so the wide-character calls accept every character.
    static func setUTF8Locale() {
        // Only the character type: ncurses needs it for wide characters, and leaving
        // LC_NUMERIC and the rest alone keeps number formatting the same everywhere.
        setlocale(LC_CTYPE, "")
        let codeset = String(cString: explorer_codeset())
        if String(codeset.uppercased().filter { $0 != "-" }) != "UTF8" {
            if setlocale(LC_CTYPE, "C.UTF-8") == nil { setlocale(LC_CTYPE, "en_US.UTF-8") }
        }
    }
}
