/// A run of text in one style; a line of styled text is `[Span]`.
public struct Span: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The text (may come from outside: it is sanitized when drawn).
    public var text: String
    /// How it is drawn.
    public var style: Style

    /// Creates a span.
    public init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// Creates a span in a role.
    public init(_ text: String, role: Role) {
        self.init(text, Style(role))
    }

    /// Creates a plain span from a literal.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension Array where Element == Span {
    /// The spans' text joined, without styles.
    public var plainText: String { map(\.text).joined() }
}
