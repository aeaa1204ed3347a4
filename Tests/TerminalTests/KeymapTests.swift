import Testing

@testable import Terminal

@Suite struct KeymapTests {
    enum Command: Hashable, Sendable { case quit, send, search, help }

    let keymap = Keymap<Command>([
        KeyBinding([.char("q"), .ctrl("c")], .quit, hint: "quit"),
        KeyBinding(KeyPress(.enter), .send, hint: "send", help: "Send the request"),
        KeyBinding(.char("/"), .search, hint: "search"),
        KeyBinding(.char("?"), .help),
    ])

    @Test func keysMapToCommands() {
        #expect(keymap.command(for: .char("q")) == .quit)
        #expect(keymap.command(for: .ctrl("c")) == .quit)
        #expect(keymap.command(for: .key(KeyPress(.enter))) == .send)
        #expect(keymap.command(for: .char("x")) == nil)
    }

    @Test func footerHintsComeFromTheBindings() {
        #expect(keymap.hints().map { "\($0.key) \($0.label)" } == ["q quit", "Enter send", "/ search"])
        #expect(keymap.helpLines().first == KeyHint(key: "q/Ctrl-C", label: "quit"))
    }

    @Test func keyNamesReadAsAPersonWritesThem() {
        #expect(KeyPress.ctrl("s").description == "Ctrl-S")
        #expect(KeyPress.alt("x").description == "Alt-x")
        #expect(KeyPress(.pageDown).description == "PgDn")
        #expect(KeyPress(.function(5)).description == "F5")
    }

    @Test func statusBarDropsHintsThatDoNotFit() {
        var grid = CellGrid(width: 22, height: 1)
        StatusBar(hints: keymap.hints()).render(into: &grid, area: grid.bounds)
        #expect(grid.textLines() == [" q quit  Enter send   "])
        #expect(grid[1, 0].style == Style(.statusKey, [.bold]))
    }

    @Test func keyNamesParseBackToKeys() {
        #expect(KeyPress(parsing: "ctrl-s") == .ctrl("s"))
        #expect(KeyPress(parsing: "Ctrl-S") == .ctrl("s"))
        #expect(KeyPress(parsing: "alt-x") == .alt("x"))
        #expect(KeyPress(parsing: "Q") == .char("Q"))
        #expect(KeyPress(parsing: "pgdn") == KeyPress(.pageDown))
        #expect(KeyPress(parsing: "shift-tab") == KeyPress(.backTab))
        #expect(KeyPress(parsing: "F5") == KeyPress(.function(5)))
        #expect(KeyPress(parsing: "-") == .char("-"))
        #expect(KeyPress(parsing: "hyper-x") == nil)
        for press in [
            KeyPress.ctrl("s"), .alt("x"), KeyPress(.pageDown), KeyPress(.function(12)), .char("?"),
            KeyPress(.up, .ctrl), KeyPress(.backTab), KeyPress(.enter),
        ] {
            #expect(KeyPress(parsing: press.description) == press)
        }
    }

    @Test func clickedRowsMapToListRows() {
        let state = ListState(selected: 15, offset: 0)
        #expect(state.index(atRow: 0, height: 10, count: 20) == 6)
        #expect(state.index(atRow: 9, height: 10, count: 20) == 15)
        #expect(ListState().index(atRow: 5, height: 10, count: 3) == nil)
    }
}
