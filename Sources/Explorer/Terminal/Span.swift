/// A run of text in one style; a line of styled text is `[Span]`.
package struct Span: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The text (may come from outside: it is sanitized when drawn).
    package var text: String
    /// How it is drawn.
    package var style: Style

    /// Creates a span.
    package init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// Creates a span in a role.
    package init(_ text: String, role: Role) {
        self.init(text, Style(role))
    }

    /// Creates a plain span from a literal.
    package init(stringLiteral value: String) {
        self.init(value)
    }
}

extension Array where Element == Span {
    /// The spans' text joined, without styles.
    package var plainText: String { map(\.text).joined() }
}
