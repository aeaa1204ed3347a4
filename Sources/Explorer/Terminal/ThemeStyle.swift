/// What a role looks like in a theme: colours and attributes.
public struct ThemeStyle: Sendable, Hashable {
    /// Foreground colour.
    public var foreground: ThemeColor
    /// Background colour.
    public var background: ThemeColor
    /// Attributes.
    public var attributes: TextAttributes

    /// Creates a theme style.
    public init(foreground: ThemeColor = .terminalDefault, background: ThemeColor = .terminalDefault, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}
