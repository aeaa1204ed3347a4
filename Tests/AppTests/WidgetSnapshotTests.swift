import TestSupport
import Testing

@testable import App
@testable import Terminal

/// A screen built from every widget, with text in several scripts.
func sampleScreen(_ size: Size, focusList: Bool = true) -> CellGrid {
    var grid = CellGrid(size: size)
    let rows = Layout.rows(grid.bounds, [.fixed(1), .fill, .fixed(1)])
    Tabs(titles: ["Endpoints", "History", "環境"], selected: 0).render(into: &grid, area: rows[0])
    let columns = Layout.columns(rows[1], [.percent(35), .fill])
    let listInside = Block(title: "Endpoints", trailingTitle: [Span("6", role: .dim)], focused: focusList).render(
        into: &grid, area: columns[0])
    let items: [ListItem] = [
        ListItem([Span("GET ", role: .methodGet), Span("/users")]),
        ListItem([Span("POST", role: .methodPost), Span(" /用户列表")], trailing: [Span("201", role: .status2xx)]),
        ListItem([Span("PUT ", role: .methodPut), Span(" 🚀 Launch")]),
        ListItem([Span("DEL ", role: .methodDelete), Span(" Cafe\u{301} crème")]),
        ListItem([Span("GET ", role: .methodGet), Span(" שלום עולם")]),
        ListItem([Span("GET ", role: .methodGet), Span(" evil\u{1B}[2J\u{1B}]0;owned\u{7}")]),
    ]
    ListView(items: items, state: ListState(selected: 1), focused: focusList).render(into: &grid, area: listInside)
    let bodyInside = Block(title: "Response", trailingTitle: [Span("200 OK", role: .status2xx)], focused: !focusList)
        .render(into: &grid, area: columns[1])
    let body = LinesTextSource([
        [Span("{", role: .jsonPunctuation)],
        [
            Span("  "), Span("\"name\"", role: .jsonKey), Span(": ", role: .jsonPunctuation),
            Span("\"東京 Tōkyō 🗼\"", role: .jsonString), Span(",", role: .jsonPunctuation),
        ],
        [
            Span("  "), Span("\"count\"", role: .jsonKey), Span(": ", role: .jsonPunctuation),
            Span("42", role: .jsonNumber), Span(",", role: .jsonPunctuation),
        ],
        [
            Span("  "), Span("\"rtl\"", role: .jsonKey), Span(": ", role: .jsonPunctuation),
            Span("\"مرحبا بالعالم\"", role: .jsonString), Span(",", role: .jsonPunctuation),
        ],
        [
            Span("  "), Span("\"note\"", role: .jsonKey), Span(": ", role: .jsonPunctuation),
            Span("\"a long line that wraps when the pane is narrow, with a needle inside\"", role: .jsonString),
        ],
        [
            Span("  "), Span("\"ok\"", role: .jsonKey), Span(": ", role: .jsonPunctuation),
            Span("true", role: .jsonBool),
        ],
        [Span("}", role: .jsonPunctuation)],
    ])
    ScrollText(source: body, state: ScrollTextState(wrap: true, showLineNumbers: true, search: "needle")).render(
        into: &grid, area: bodyInside)
    let keymap = Keymap<Int>([
        KeyBinding(.char("q"), 0, hint: "quit"),
        KeyBinding(KeyPress(.enter), 1, hint: "send"),
        KeyBinding(.char("/"), 2, hint: "search"),
        KeyBinding(.char("e"), 3, hint: "environment"),
    ])
    StatusBar(hints: keymap.hints(), trailing: [Span(" PROD ", role: .protectedBadge)]).render(
        into: &grid, area: rows[2])
    return grid
}

@Suite struct WidgetSnapshotTests {
    @Test(arguments: [(80, 24), (120, 40), (40, 12)])
    func screenOfEveryWidget(width: Int, height: Int) {
        assertSnapshot(sampleScreen(Size(width: width, height: height)), named: "widget-screen-\(width)x\(height)")
    }

    @Test func bodyPaneFocusedAt80x24() {
        assertSnapshot(
            sampleScreen(Size(width: 80, height: 24), focusList: false), named: "widget-screen-body-focused-80x24")
    }

    @Test func confirmDialogOverAScreen() {
        var grid = sampleScreen(Size(width: 80, height: 24))
        ConfirmDialog(
            title: "Production", message: "Send DELETE /users/42 to api.example.com (production)?",
            hints: [KeyHint(key: "y", label: "send"), KeyHint(key: "n", label: "cancel")], destructive: true
        )
        .render(into: &grid, area: grid.bounds)
        assertSnapshot(grid, named: "widget-confirm-80x24")
    }

    @Test func pickerWithAFilterAt40x12() {
        var grid = sampleScreen(Size(width: 40, height: 12))
        let items = ["local", "staging", "production", "本番", "testing 🧪"].map { ListItem($0) }
        Picker(title: "Environment", items: items, state: ListState(selected: 0, filter: "t"), width: 30, height: 8)
            .render(into: &grid, area: grid.bounds)
        assertSnapshot(grid, named: "widget-picker-40x12")
    }

    @Test func textPanelAt120x40() {
        var grid = sampleScreen(Size(width: 120, height: 40))
        let entries = [
            ("q/Ctrl-C", "quit"), ("Enter", "send the request"), ("/", "search the body"), ("Tab", "next pane"),
        ]
        .map { TextPanel.Entry(lead: [Span($0.0, Style(.statusKey, .bold))], text: [Span($0.1)]) }
        TextPanel(title: "Keys", entries: entries, hints: [KeyHint(key: "Esc", label: "close")]).render(
            into: &grid, area: grid.bounds)
        assertSnapshot(grid, named: "widget-textpanel-120x40")
    }

    @Test func confirmDialogWrapsStyledParagraphsAt40x12() {
        var grid = sampleScreen(Size(width: 40, height: 12))
        let message: [[Span]] = [
            [Span("Send to "), Span("production", Style(.error, .bold)), Span("?")],
            [],
            [Span("A long warning that needs more than one row in a narrow box.", role: .warning)],
        ]
        ConfirmDialog(
            title: "Confirm", message: message,
            hints: [KeyHint(key: "y", label: "send"), KeyHint(key: "n/Esc", label: "cancel")]
        )
        .render(into: &grid, area: grid.bounds)
        assertSnapshot(grid, named: "widget-confirm-paragraphs-40x12")
    }

    @Test func pickerWithoutAFilterLineSizedToItsItems() {
        var grid = sampleScreen(Size(width: 80, height: 24))
        let items = [ListItem("1 local"), ListItem("2 production", trailing: [Span("protected", role: .error)])]
        Picker(title: "Environment", items: items, state: ListState(selected: 1), filterable: false)
            .render(into: &grid, area: grid.bounds)
        assertSnapshot(grid, named: "widget-picker-unfiltered-80x24")
    }

    /// A long text wraps under itself, not under its lead; what does not fit is scrolled to,
    /// and the border says which rows show.
    @Test func textPanelWrapsAndScrollsAt40x12() {
        var grid = sampleScreen(Size(width: 40, height: 12))
        let entries = (1...20).map {
            TextPanel.Entry(
                lead: [Span("F\($0)")], text: [Span("command number \($0), described in words enough to wrap")])
        }
        let panel = TextPanel(title: "Keys", entries: entries, hints: [KeyHint(key: "Esc", label: "close")], offset: 3)
        panel.render(into: &grid, area: grid.bounds)
        assertSnapshot(grid, named: "widget-textpanel-scrolled-40x12")
        #expect(grid.textLines().joined().contains("of \(panel.layout(in: grid.bounds).rows.count)"))
        #expect(panel.maximumOffset(in: grid.bounds) > 20, "every row can be scrolled to")
    }

    @Test func textFieldWithWideTextAndCursor() {
        var grid = CellGrid(width: 12, height: 1)
        var state = TextFieldState("日本語のテキスト")
        state.moveCursor(by: -2)
        TextField(state: state, focused: true).render(into: &grid, area: grid.bounds)
        assertSnapshot(grid, named: "widget-textfield-wide")
    }
}
