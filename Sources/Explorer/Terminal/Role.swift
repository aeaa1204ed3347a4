/// A meaning-name for a colour: what a piece of text is, not what it looks like.
///
/// Views paint with roles; a `Theme` maps each role to colours and attributes. Adding a
/// role here means adding it to the theme files in `themes/` (a missing role falls back to
/// `.text`).
public enum Role: String, Sendable, Hashable, CaseIterable, Codable {
    /// Ordinary text.
    case text
    /// Secondary text: hints, placeholders, line numbers.
    case dim
    /// The border of a pane without focus.
    case border
    /// The border of the focused pane.
    case focusBorder
    /// A pane's title.
    case title
    /// The selected row of a list.
    case selection
    /// The selected row of a list that does not have focus.
    case selectionInactive
    /// The active tab.
    case tabActive
    /// An inactive tab.
    case tabInactive
    /// The status bar's background.
    case statusBar
    /// A key in the status bar's hints (`q`, `Ctrl-S`).
    case statusKey
    /// A transient message in the status bar.
    case message
    /// An error message.
    case error
    /// A warning.
    case warning
    /// Success.
    case success
    /// HTTP method GET.
    case methodGet
    /// HTTP method POST.
    case methodPost
    /// HTTP method PUT.
    case methodPut
    /// HTTP method PATCH.
    case methodPatch
    /// HTTP method DELETE.
    case methodDelete
    /// Any other HTTP method (HEAD, OPTIONS ...).
    case methodOther
    /// A 1xx status.
    case status1xx
    /// A 2xx status.
    case status2xx
    /// A 3xx status.
    case status3xx
    /// A 4xx status.
    case status4xx
    /// A 5xx status.
    case status5xx
    /// A JSON object key.
    case jsonKey
    /// A JSON string value.
    case jsonString
    /// A JSON number.
    case jsonNumber
    /// A JSON `true`/`false`.
    case jsonBool
    /// A JSON `null`.
    case jsonNull
    /// JSON punctuation: braces, brackets, commas, colons.
    case jsonPunctuation
    /// A header name.
    case headerName
    /// A header value.
    case headerValue
    /// A search match.
    case searchMatch
    /// The current search match.
    case searchCurrent
    /// A control character or escape sequence shown escaped (`␛[2J`).
    case escaped
    /// The badge of a protected (production) environment.
    case protectedBadge
    /// An environment name.
    case environment
    /// A text field being edited.
    case input
    /// The frame and text of a modal overlay.
    case overlay
    /// A spinner or progress indicator.
    case spinner
}
