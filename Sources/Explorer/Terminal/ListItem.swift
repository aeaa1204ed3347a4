/// One row of a `ListView`: styled text on the left, optional styled text on the right.
package struct ListItem: Sendable, Hashable {
    /// The row's text.
    package var spans: [Span]
    /// Text aligned right (a count, a status), dropped when the row is too narrow.
    package var trailing: [Span]

    /// Creates an item from styled text.
    package init(_ spans: [Span], trailing: [Span] = []) {
        self.spans = spans
        self.trailing = trailing
    }

    /// Creates an item from plain text.
    package init(_ text: String, style: Style = .plain, trailing: [Span] = []) {
        self.init([Span(text, style)], trailing: trailing)
    }

    /// The text the filter matches against.
    package var filterText: String { spans.plainText }
}
