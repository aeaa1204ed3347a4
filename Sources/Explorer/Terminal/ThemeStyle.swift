/// What a role looks like in a theme: colours and attributes.
package struct ThemeStyle: Sendable, Hashable {
    /// Foreground colour.
    package var foreground: ThemeColor
    /// Background colour.
    package var background: ThemeColor
    /// Attributes.
    package var attributes: TextAttributes

    /// Creates a theme style.
    package init(
        foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault,
        attributes: TextAttributes = []
    ) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}
