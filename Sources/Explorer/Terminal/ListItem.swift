/// One row of a `ListView`: styled text on the left, optional styled text on the right.
package struct ListItem: Sendable, Hashable {
    /// The row's text.
    package var spans: [Span]
    /// Text aligned right (a count, a status), dropped when the row is too narrow.
    package var trailing: [Span]
    /// What the filter matches when it is not the row's text (a row that shows less than it
    /// stands for at a narrow width still filters on all of it).
    private var searchText: String?

    /// Creates an item from styled text.
    ///
    /// - Parameters:
    ///   - spans: the row's text.
    ///   - trailing: text aligned right.
    ///   - filterText: what the filter matches; the row's text (`spans`) when nil.
    package init(_ spans: [Span], trailing: [Span] = [], filterText: String? = nil) {
        self.spans = spans
        self.trailing = trailing
        self.searchText = filterText
    }

    /// Creates an item from plain text.
    package init(_ text: String, style: Style = .plain, trailing: [Span] = []) {
        self.init([Span(text, style)], trailing: trailing)
    }

    /// The text the filter matches against.
    package var filterText: String { searchText ?? spans.plainText }
}
