/// A meaning-name for a colour: what a piece of text is, not what it looks like.
///
/// Views paint with roles; a `Theme` maps each role to colours and attributes. The terminal
/// layer names only the roles its widgets draw with (text, borders, selection, tabs, the
/// status bar, overlays); an application adds its own as static constants in an extension,
/// so this layer knows no word of what the application is about. A role a theme leaves out
/// draws as `.text`.
package struct Role: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The role's name, as theme files spell it (`focusBorder`).
    package let rawValue: String

    /// Creates a role from its name.
    ///
    /// - Parameter rawValue: the name theme files use for it.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The role's name.
    package var description: String { rawValue }
}

extension Role {
    /// Ordinary text.
    package static let text = Role(rawValue: "text")
    /// Secondary text: hints, placeholders, line numbers.
    package static let dim = Role(rawValue: "dim")
    /// The border of a pane without focus.
    package static let border = Role(rawValue: "border")
    /// The border of the focused pane.
    package static let focusBorder = Role(rawValue: "focusBorder")
    /// A pane's title.
    package static let title = Role(rawValue: "title")
    /// The selected row of a list.
    package static let selection = Role(rawValue: "selection")
    /// The selected row of a list that does not have focus.
    package static let selectionInactive = Role(rawValue: "selectionInactive")
    /// The active tab.
    package static let tabActive = Role(rawValue: "tabActive")
    /// An inactive tab.
    package static let tabInactive = Role(rawValue: "tabInactive")
    /// The status bar's background.
    package static let statusBar = Role(rawValue: "statusBar")
    /// A key in the status bar's hints (`q`, `Ctrl-S`).
    package static let statusKey = Role(rawValue: "statusKey")
    /// A transient message in the status bar.
    package static let message = Role(rawValue: "message")
    /// An error message.
    package static let error = Role(rawValue: "error")
    /// A warning.
    package static let warning = Role(rawValue: "warning")
    /// Success.
    package static let success = Role(rawValue: "success")
    /// A search match.
    package static let searchMatch = Role(rawValue: "searchMatch")
    /// The current search match.
    package static let searchCurrent = Role(rawValue: "searchCurrent")
    /// A control character or escape sequence shown escaped (`␛[2J`).
    package static let escaped = Role(rawValue: "escaped")
    /// A text field being edited.
    package static let input = Role(rawValue: "input")
    /// The frame and text of a modal overlay.
    package static let overlay = Role(rawValue: "overlay")
    /// A spinner or progress indicator.
    package static let spinner = Role(rawValue: "spinner")

    /// Every role the terminal layer's widgets draw with.
    package static let widgetRoles: [Role] = [
        .text,
        .dim,
        .border,
        .focusBorder,
        .title,
        .selection,
        .selectionInactive,
        .tabActive,
        .tabInactive,
        .statusBar,
        .statusKey,
        .message,
        .error,
        .warning,
        .success,
        .searchMatch,
        .searchCurrent,
        .escaped,
        .input,
        .overlay,
        .spinner,
    ]
}
