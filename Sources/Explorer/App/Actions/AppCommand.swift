import Query
import Terminal

/// What a key can ask the explorer to do, by meaning; the keymap maps keys to these.
package enum AppCommand: String, Hashable, Sendable, CaseIterable {
    case quit
    case help
    case focusNext
    case focusPrevious
    case up
    case down
    case left
    case right
    case pageUp
    case pageDown
    case top
    case bottom
    case send
    case environments
    case search
    case filter
    case nextMatch
    case previousMatch
    case copyAsCurl
    case cancel
    case nextTab
    case previousTab
    case toggleWrap
    case toggleLineNumbers
    case resend
    case saveBody
    case compare
    case compareEnvironments
    case fold
    case edit
    case editInEditor
    case copyBody
    case saveEdits
    case palette
    case newEndpoint
    case duplicateEndpoint
    case renameEndpoint
    case moveEndpoint
    case deleteEndpoint
    case undoDelete
    case undo
    case redo
    case addRow
    case toggleRow
    case bodyMode
    case variables
    case runFolder
    case cookies
    case tokens
    case graphQLSchema
    case webSocketMessage
    case webSocketPing
    case webSocketClose
    case problems
    case historyScope
    case mock
    case mockLog
    case mockReset
    case statefulMock
}

extension AppCommand {
    /// The default keys; the footer hints and the help overlay are generated from them.
    static let defaultKeymap = Keymap<AppCommand>([
        KeyBinding([.char("q"), .ctrl("c")], .quit, hint: "quit", help: "Quit (q or Ctrl-C)"),
        KeyBinding(.char("?"), .help, hint: "help", help: "Show all keys"),
        KeyBinding(
            .char("!"), .problems,
            help: "The collection file's problems: every warning and error, with file:line:column"),
        KeyBinding(
            .ctrl("p"), .palette, hint: "palette",
            help: "Command palette: jump to an endpoint, environment or history entry, or run a command"),
        KeyBinding(KeyPress(.enter), .send, hint: "send", help: "Send the selected endpoint / open the history entry"),
        KeyBinding(.char("e"), .environments, hint: "env", help: "Switch environment"),
        KeyBinding(.char("C"), .cookies, help: "Cookies of the environment (x deletes one)"),
        KeyBinding(.char("T"), .tokens, help: "OAuth2 tokens of the environment (masked, with expiry): x drops one"),
        KeyBinding(
            .char("O"), .mock,
            help:
                "Serve a mock of the collection on 127.0.0.1 as the environment mock, and switch to it (O again stops it)"
        ),
        KeyBinding(.char("L"), .mockLog, help: "The mock's log: every request it answered, newest last"),
        KeyBinding(
            .char("U"), .statefulMock,
            help:
                "Serve a stateful mock (POST stores, PUT/PATCH change, DELETE removes, in memory) as the environment "
                + "mock (U or O again stops it)"),
        KeyBinding(
            .char("Z"), .mockReset,
            help: "Reset the mock's resources: what was posted, changed or deleted goes; the examples' come back"),
        KeyBinding(
            .char("Q"), .graphQLSchema,
            help: "GraphQL schema of the endpoint: types, fields, arguments; / searches, r refreshes"),
        KeyBinding(KeyPress(.tab), .focusNext, hint: "pane", help: "Next pane"),
        KeyBinding(KeyPress(.backTab), .focusPrevious, help: "Previous pane"),
        KeyBinding(.char("/"), .search, hint: "search", help: "Filter a list / search the response body"),
        KeyBinding(.char("f"), .filter, hint: "filter", help: "Filter the JSON body with a JSONPath ($.items[*].name)"),
        KeyBinding(.char("c"), .copyAsCurl, hint: "curl", help: "Copy the request as a curl command"),
        KeyBinding(.char("y"), .copyBody, help: "Copy the response body (or the JSONPath result) to the clipboard"),
        KeyBinding(.char("r"), .resend, help: "Re-send the selected history entry"),
        KeyBinding(KeyPress(.escape), .cancel, hint: "cancel", help: "Cancel the request in flight / close"),
        KeyBinding([.char("n")], .nextMatch, help: "Next search match"),
        KeyBinding([.char("N")], .previousMatch, help: "Previous search match"),
        KeyBinding([.char("]"), KeyPress(.right, .alt)], .nextTab, help: "Next tab of the request or response pane"),
        KeyBinding(
            [.char("["), KeyPress(.left, .alt)], .previousTab, help: "Previous tab of the request or response pane"),
        KeyBinding(.char("w"), .toggleWrap, help: "Wrap long lines on/off"),
        KeyBinding(.char("#"), .toggleLineNumbers, help: "Line numbers on/off"),
        KeyBinding(.char("s"), .saveBody, help: "Save the response body to a file"),
        KeyBinding(
            .char("H"), .historyScope, help: "History: this collection's exchanges (the default) or every collection's"),
        KeyBinding(.char("d"), .compare, help: "Compare two history entries: d on the first, then d on the second"),
        KeyBinding(
            .char("="), .compareEnvironments,
            help: "Send the selected endpoint in this environment and another one, and compare the answers side by side"
        ),
        KeyBinding(
            .char("i"), .edit, hint: "edit",
            help: "Edit the request line (method, path, query) of the selected endpoint"),
        KeyBinding(.char("E"), .editInEditor, help: "Edit the whole endpoint (headers, body …) in $EDITOR"),
        KeyBinding(.char("S"), .saveEdits, help: "Save the edited or new endpoint to the collection file (asks first)"),
        KeyBinding(
            .ctrl("n"), .newEndpoint, hint: "new",
            help: "New endpoint in the selected folder (a draft until S saves it)"),
        KeyBinding(.char("D"), .duplicateEndpoint, help: "Duplicate the selected endpoint as a new draft"),
        KeyBinding(.char("R"), .renameEndpoint, help: "Rename the selected endpoint"),
        KeyBinding(.char("M"), .moveEndpoint, help: "Move the selected endpoint to another folder"),
        KeyBinding(.char("x"), .deleteEndpoint, help: "Delete the selected endpoint (asks first) or table row"),
        KeyBinding(.char("u"), .undoDelete, help: "Bring back the endpoint deleted last"),
        KeyBinding(.ctrl("z"), .undo, help: "Undo the last edit of a draft"),
        KeyBinding(.ctrl("y"), .redo, help: "Redo the edit undone last"),
        KeyBinding(
            .char("a"), .addRow, help: "Add a row to the Request pane's Query, Headers or Body table (Tab completes)"),
        KeyBinding(.char(" "), .toggleRow, help: "Switch the selected table row off (kept, not sent) or on"),
        KeyBinding(.char("m"), .bodyMode, help: "Switch the body form: none, JSON, form, multipart, raw"),
        KeyBinding(
            .char("v"), .variables,
            help: "Variables of the environment: values, where each came from; x clears a captured one"),
        KeyBinding(.ctrl("r"), .runFolder, help: "Run the selected folder's endpoints with their checks (Esc stops)"),
        KeyBinding(
            .char("t"), .webSocketMessage, help: "WebSocket: type a message to send (Tab fills in the saved ones)"),
        KeyBinding(.char("P"), .webSocketPing, help: "WebSocket: send a ping"),
        KeyBinding(.char("K"), .webSocketClose, help: "WebSocket: close with a code and a reason"),
        KeyBinding(.char("z"), .fold, help: "Fold the JSON body one level deeper (cycles back to unfolded)"),
        KeyBinding([KeyPress(.up), .char("k")], .up, help: "Move up"),
        KeyBinding([KeyPress(.down), .char("j")], .down, help: "Move down"),
        KeyBinding([KeyPress(.left), .char("h")], .left, help: "Previous tab / scroll left"),
        KeyBinding([KeyPress(.right), .char("l")], .right, help: "Next tab / scroll right"),
        KeyBinding(KeyPress(.pageUp), .pageUp, help: "Page up"),
        KeyBinding(KeyPress(.pageDown), .pageDown, help: "Page down"),
        KeyBinding([KeyPress(.home), .char("g")], .top, help: "First line"),
        KeyBinding([KeyPress(.end), .char("G")], .bottom, help: "Last line"),
    ])
}
