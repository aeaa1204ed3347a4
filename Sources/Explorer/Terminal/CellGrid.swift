/// A screen's worth of cells: what views produce and what the terminal layer flushes.
///
/// Drawing clips to the grid (and to an optional rectangle) and never splits a wide
/// character; every string drawn goes through the `Sanitizer`, so untrusted text
/// can never put a control sequence on the terminal.
package struct CellGrid: Sendable, Hashable {
    /// The grid's size.
    package let size: Size
    /// The cells, row by row.
    package private(set) var cells: [Cell]
    /// Where the terminal cursor should show (a focused text field), or nil to hide it.
    package var cursor: Point?

    /// A blank grid.
    ///
    /// - Parameters:
    ///   - size: the size in cells.
    ///   - fill: the style of the blank cells.
    package init(size: Size, fill: Style = .plain) {
        self.size = size
        self.cells = Array(repeating: Cell(" ", style: fill), count: size.width * size.height)
    }

    /// A blank grid of `width` × `height` cells.
    package init(width: Int, height: Int) {
        self.init(size: Size(width: width, height: height))
    }

    /// Columns.
    package var width: Int { size.width }
    /// Rows.
    package var height: Int { size.height }
    /// The whole grid as a rectangle.
    package var bounds: Rect { Rect(size: size) }

    /// The cell at a column and row (a blank for positions outside the grid).
    package subscript(x: Int, y: Int) -> Cell {
        get {
            guard x >= 0, y >= 0, x < width, y < height else { return .blank }
            return cells[y * width + x]
        }
    }

    // MARK: - Drawing

    /// Draws text on one row, sanitized, clipped to the grid and to `clip`.
    ///
    /// - Parameters:
    ///   - text: the text; control characters show escaped.
    ///   - x: the first column.
    ///   - y: the row.
    ///   - style: the style.
    ///   - clip: a rectangle the text must stay in (the grid when nil).
    /// - Returns: the column after the last one drawn.
    @discardableResult
    package mutating func put<S: StringProtocol>(_ text: S, x: Int, y: Int, style: Style = .plain, clip: Rect? = nil)
        -> Int
    {
        var characters: [StyledCharacter] = []
        characters.reserveCapacity(text.utf8.count)
        Sanitizer.append(text, style: style, to: &characters)
        return put(characters, x: x, y: y, clip: clip)
    }

    /// Draws styled text on one row, sanitized and clipped.
    ///
    /// - Parameters:
    ///   - spans: the styled text.
    ///   - x: the first column.
    ///   - y: the row.
    ///   - clip: a rectangle the text must stay in (the grid when nil).
    /// - Returns: the column after the last one drawn.
    @discardableResult
    package mutating func put(_ spans: [Span], x: Int, y: Int, clip: Rect? = nil) -> Int {
        put(Sanitizer.characters(spans), x: x, y: y, clip: clip)
    }

    /// Draws already sanitized characters on one row, clipped.
    ///
    /// - Parameters:
    ///   - characters: characters from `Sanitizer.characters(_:)` or `Sanitizer.append`.
    ///   - x: the first column.
    ///   - y: the row.
    ///   - clip: a rectangle the text must stay in (the grid when nil).
    /// - Returns: the column after the last one drawn.
    @discardableResult
    package mutating func put(_ characters: [StyledCharacter], x: Int, y: Int, clip: Rect? = nil) -> Int {
        let area = clip.map { $0.intersection(bounds) } ?? bounds
        guard y >= area.y, y < area.maxY else { return x }
        var column = x
        for item in characters {
            let w = item.width
            if w == 0 {
                // A lone zero-width character joins the previous cell so it is not lost.
                if column - 1 >= area.x, column - 1 < area.maxX {
                    var index = y * width + column - 1
                    if cells[index].isContinuation, column - 2 >= area.x { index -= 1 }
                    if !cells[index].isContinuation { cells[index].text.append(item.character) }
                }
                continue
            }
            if column >= area.maxX { break }
            if column < area.x {
                // A wide character cut by the left edge leaves its visible half blank.
                if column + w > area.x { set(area.x, y, Cell(" ", style: item.style)) }
                column += w
                continue
            }
            if w == 2 && column + 1 >= area.maxX {
                set(column, y, Cell(" ", style: item.style))
                column += 1
                break
            }
            set(column, y, Cell(String(item.character), style: item.style))
            if w == 2 { set(column + 1, y, Cell("", style: item.style, isContinuation: true)) }
            column += w
        }
        return column
    }

    /// Fills a rectangle with a character in a style.
    ///
    /// - Parameters:
    ///   - rect: the area (clipped to the grid).
    ///   - character: a one-column character, a space by default.
    ///   - style: the style.
    package mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
        let area = rect.intersection(bounds)
        let text = DisplayWidth.of(character) == 1 ? String(character) : " "
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { set(x, y, Cell(text, style: style)) }
        }
    }

    /// Changes the style of every cell in a rectangle, keeping the text.
    ///
    /// - Parameters:
    ///   - rect: the area (clipped to the grid).
    ///   - style: the new style.
    package mutating func setStyle(_ rect: Rect, _ style: Style) {
        let area = rect.intersection(bounds)
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX { cells[y * width + x].style = style }
        }
    }

    /// Sets one cell, repairing wide characters it cuts in half.
    ///
    /// - Parameters:
    ///   - x: the column.
    ///   - y: the row.
    ///   - cell: the new cell (one column wide; use `put` for text).
    package mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let index = y * width + x
        let old = cells[index]
        if old.isContinuation, x > 0, !cell.isContinuation {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if !old.isContinuation, x + 1 < width, cells[index + 1].isContinuation, !cell.isContinuation {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }

    /// Copies another grid into this one with its top left corner at `origin`.
    ///
    /// - Parameters:
    ///   - other: the grid to copy.
    ///   - origin: where its top left cell goes.
    package mutating func blit(_ other: CellGrid, at origin: Point) {
        for y in 0..<other.height {
            for x in 0..<other.width {
                set(origin.x + x, origin.y + y, other[x, y])
            }
        }
    }
}
