/// One terminal cell: a grapheme cluster and its style.
///
/// A wide character (CJK, emoji) lives in its first cell; the cell to its right is a
/// continuation with empty text, so every row has exactly one `Cell` per column.
package struct Cell: Sendable, Hashable {
    /// The grapheme cluster drawn here; empty for a continuation cell.
    package var text: String
    /// How it is drawn.
    package var style: Style
    /// Whether this cell is the right half of a wide character.
    package var isContinuation: Bool

    /// Creates a cell.
    package init(_ text: String = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.text = text
        self.style = style
        self.isContinuation = isContinuation
    }

    /// A blank cell in plain style.
    package static let blank = Cell()
}
