/// A virtualized text view: only the lines in sight are fetched, formatted and drawn, so a
/// 50 MB body costs the same to draw as a 1 KB one.
///
/// Supports wrap on and off (with horizontal scrolling), a line-number gutter and search
/// highlights. Text is sanitized on the way to the grid.
package struct ScrollText: Sendable {
    /// The lines.
    package var source: any TextSource
    /// Scroll position and options.
    package var state: ScrollTextState

    /// Creates a scroll text.
    package init(source: any TextSource, state: ScrollTextState) {
        self.source = source
        self.state = state
    }

    /// The gutter's width for `lineCount` lines (digits plus a space), 0 when hidden.
    package static func gutterWidth(lineCount: Int, visible: Bool) -> Int {
        visible ? String(max(1, lineCount)).count + 1 : 0
    }

    /// The width of the text column inside `area`, the gutter excluded.
    package func textWidth(in area: Rect) -> Int {
        max(0, area.width - ScrollText.gutterWidth(lineCount: source.lineCount, visible: state.showLineNumbers))
    }

    /// Draws the visible window of the text in `area`.
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on.
    ///   - area: the text's rectangle.
    package func render(into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let count = source.lineCount
        let gutter = ScrollText.gutterWidth(lineCount: count, visible: state.showLineNumbers)
        let width = max(1, area.width - gutter)
        let textArea = Rect(x: area.x + gutter, y: area.y, width: area.width - gutter, height: area.height)
        let numberStyle = Style(.dim)
        var line = min(max(0, state.topLine), max(0, count - 1))
        var row = 0
        var skipRows = state.wrap ? max(0, state.topRow) : 0
        while row < area.height, line < count {
            let limit =
                state.wrap
                ? min(ScrollTextState.wrapLimit, (skipRows + area.height - row + 1) * width)
                : state.leftColumn + width + 1
            var characters = Sanitizer.characters(source.line(line, maxCharacters: limit))
            if characters.count > limit { characters.removeSubrange(limit...) }
            if !state.search.isEmpty {
                ScrollText.highlight(state.search, in: &characters, current: state.currentMatchLine == line)
            }
            if state.wrap {
                let rows = ScrollText.wrap(characters, width: width)
                for (n, piece) in rows.enumerated() where n >= skipRows {
                    guard row < area.height else { break }
                    if gutter > 0, n == 0 {
                        let number = String(line + 1)
                        grid.put(
                            String(repeating: " ", count: gutter - 1 - number.count) + number, x: area.x,
                            y: area.y + row, style: numberStyle, clip: area)
                    }
                    grid.put(piece, x: textArea.x, y: area.y + row, clip: textArea)
                    row += 1
                }
                skipRows = 0
            } else {
                if gutter > 0 {
                    let number = String(line + 1)
                    grid.put(
                        String(repeating: " ", count: gutter - 1 - number.count) + number, x: area.x, y: area.y + row,
                        style: numberStyle, clip: area)
                }
                grid.put(characters, x: textArea.x - state.leftColumn, y: area.y + row, clip: textArea)
                row += 1
            }
            line += 1
        }
    }

    // MARK: - Layout helpers

    /// Breaks characters into rows of at most `width` columns (a wide character that does
    /// not fit moves to the next row). An empty line is one empty row.
    package static func wrap(_ characters: [StyledCharacter], width: Int) -> [[StyledCharacter]] {
        guard width > 0 else { return [characters] }
        var rows: [[StyledCharacter]] = []
        var current: [StyledCharacter] = []
        var used = 0
        for item in characters {
            if used + item.width > width, !current.isEmpty {
                rows.append(current)
                current = []
                used = 0
            }
            current.append(item)
            used += item.width
        }
        rows.append(current)
        return rows
    }

    /// How many rows a line takes when wrapped at `width`.
    package static func rowCount(of line: Int, source: any TextSource, width: Int) -> Int {
        let characters = Sanitizer.characters(source.line(line, maxCharacters: ScrollTextState.wrapLimit))
        return wrap(Array(characters.prefix(ScrollTextState.wrapLimit)), width: width).count
    }

    /// Marks every case-insensitive occurrence of `needle` as a search match.
    static func highlight(_ needle: String, in characters: inout [StyledCharacter], current: Bool) {
        let pattern = needle.lowercased().map { String($0) }
        guard !pattern.isEmpty, pattern.count <= characters.count else { return }
        let lowered = characters.map { String($0.character).lowercased() }
        let style = Style(current ? .searchCurrent : .searchMatch)
        var start = 0
        while start + pattern.count <= lowered.count {
            var matches = true
            for k in 0..<pattern.count where lowered[start + k] != pattern[k] {
                matches = false
                break
            }
            if matches {
                for k in start..<(start + pattern.count) {
                    characters[k].style = Style(style.role, characters[k].style.attributes)
                }
                start += pattern.count
            } else {
                start += 1
            }
        }
    }
}
