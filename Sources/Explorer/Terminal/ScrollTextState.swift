/// Where a `ScrollText` is scrolled to and how it shows its text.
package struct ScrollTextState: Sendable, Hashable {
    /// The first line shown.
    package var topLine: Int
    /// With wrap on, the first row of `topLine` shown (a long line scrolls row by row).
    package var topRow: Int
    /// With wrap off, the first column shown.
    package var leftColumn: Int
    /// Whether long lines wrap.
    package var wrap: Bool
    /// Whether a line-number gutter shows.
    package var showLineNumbers: Bool
    /// Text to highlight (case-insensitive); empty for none.
    package var search: String
    /// The line of the current match, highlighted as `.searchCurrent`.
    package var currentMatchLine: Int?

    /// The longest line, in characters, that wrap mode lays out; the rest is cut.
    package static let wrapLimit = 65_536

    /// Creates a state at the top.
    package init(
        topLine: Int = 0, topRow: Int = 0, leftColumn: Int = 0, wrap: Bool = true, showLineNumbers: Bool = false,
        search: String = "", currentMatchLine: Int? = nil
    ) {
        self.topLine = topLine
        self.topRow = topRow
        self.leftColumn = leftColumn
        self.wrap = wrap
        self.showLineNumbers = showLineNumbers
        self.search = search
        self.currentMatchLine = currentMatchLine
    }

    /// Scrolls by `rows` screen rows (negative: up), clamped to the text.
    ///
    /// Only the lines scrolled over are fetched, so this is cheap on any body size.
    ///
    /// - Parameters:
    ///   - rows: how far.
    ///   - source: the text.
    ///   - width: the text area's width in columns (the gutter excluded).
    package mutating func scroll(by rows: Int, source: any TextSource, width: Int) {
        let count = source.lineCount
        guard count > 0 else {
            topLine = 0
            topRow = 0
            return
        }
        topLine = min(max(0, topLine), count - 1)
        guard wrap else {
            topRow = 0
            topLine = min(max(0, topLine + rows), count - 1)
            return
        }
        var remaining = rows
        // Each line is measured once per call, however many rows move through it (a
        // single 50 MB line would otherwise be laid out once per row of a page).
        var measured: (line: Int, rows: Int)?
        func rowsIn(_ line: Int) -> Int {
            if let measured, measured.line == line { return measured.rows }
            let rows = ScrollText.rowCount(of: line, source: source, width: width)
            measured = (line, rows)
            return rows
        }
        while remaining > 0 {
            if topRow + 1 < rowsIn(topLine) {
                topRow += 1
            } else if topLine + 1 < count {
                topLine += 1
                topRow = 0
            } else {
                break
            }
            remaining -= 1
        }
        while remaining < 0 {
            if topRow > 0 {
                topRow -= 1
            } else if topLine > 0 {
                topLine -= 1
                topRow = max(0, rowsIn(topLine) - 1)
            } else {
                break
            }
            remaining += 1
        }
    }

    /// Scrolls sideways (wrap off only), never left of column 0.
    package mutating func scrollHorizontally(by columns: Int) {
        leftColumn = wrap ? 0 : max(0, leftColumn + columns)
    }

    /// Shows `line` at the top.
    package mutating func jump(toLine line: Int, source: any TextSource) {
        topLine = min(max(0, line), max(0, source.lineCount - 1))
        topRow = 0
    }

    /// Scrolls to the top.
    package mutating func scrollToTop() {
        topLine = 0
        topRow = 0
        leftColumn = 0
    }

    /// Scrolls so that the last line shows at the bottom of `height` rows (wrap off), or
    /// at the top of the last screen (wrap on).
    package mutating func scrollToBottom(source: any TextSource, height: Int) {
        topRow = 0
        topLine = max(0, source.lineCount - (wrap ? 1 : max(1, height)))
    }

    /// "line 12/3400" for a title or status bar.
    package func positionText(lineCount: Int) -> String {
        "\(min(topLine + 1, max(lineCount, 1)))/\(max(lineCount, 1))"
    }
}
