/// A bordered box with a title: the frame of a pane.
package struct Block: Sendable {
    /// The line characters of a border.
    package struct BorderSet: Sendable, Hashable {
        /// Top left, top right, bottom left, bottom right, horizontal, vertical.
        package var topLeft, topRight, bottomLeft, bottomRight, horizontal, vertical: Character

        /// Rounded corners with light lines.
        package static let rounded = BorderSet(
            topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│")
        /// Square corners with light lines.
        package static let plain = BorderSet(
            topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘", horizontal: "─", vertical: "│")
        /// Heavy lines (the focused pane in the high-contrast look).
        package static let thick = BorderSet(
            topLeft: "┏", topRight: "┓", bottomLeft: "┗", bottomRight: "┛", horizontal: "━", vertical: "┃")
        /// Double lines.
        package static let double = BorderSet(
            topLeft: "╔", topRight: "╗", bottomLeft: "╚", bottomRight: "╝", horizontal: "═", vertical: "║")
        /// ASCII only.
        package static let ascii = BorderSet(
            topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|")
    }

    /// The title on the top border (sanitized; cut with an ellipsis when too long).
    package var title: [Span]
    /// Text on the right of the top border (a count, a status).
    package var trailingTitle: [Span]
    /// Whether the pane has focus: the border takes `.focusBorder`.
    package var focused: Bool
    /// The border's characters.
    package var borders: BorderSet
    /// A style the inside is cleared with, or nil to leave it as it is.
    package var fill: Style?

    /// Creates a block.
    package init(
        title: String = "", trailingTitle: [Span] = [], focused: Bool = false, borders: BorderSet = .rounded,
        fill: Style? = .plain
    ) {
        self.title = title.isEmpty ? [] : [Span(title, role: .title)]
        self.trailingTitle = trailingTitle
        self.focused = focused
        self.borders = borders
        self.fill = fill
    }

    /// Creates a block with a styled title.
    package init(
        titleSpans: [Span], trailingTitle: [Span] = [], focused: Bool = false, borders: BorderSet = .rounded,
        fill: Style? = .plain
    ) {
        self.title = titleSpans
        self.trailingTitle = trailingTitle
        self.focused = focused
        self.borders = borders
        self.fill = fill
    }

    /// The inside of the block drawn in `area`.
    package static func inner(_ area: Rect) -> Rect { area.inset(by: 1) }

    /// Draws the block and returns its inside.
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on.
    ///   - area: the block's outer rectangle.
    /// - Returns: the rectangle inside the border.
    @discardableResult
    package func render(into grid: inout CellGrid, area: Rect) -> Rect {
        let inside = Block.inner(area)
        if let fill { grid.fill(inside, style: fill) }
        guard area.width >= 2, area.height >= 2 else { return inside }
        let style = Style(focused ? .focusBorder : .border, focused ? [.bold] : [])
        let horizontal = String(repeating: borders.horizontal, count: area.width - 2)
        grid.put(String(borders.topLeft) + horizontal + String(borders.topRight), x: area.x, y: area.y, style: style)
        grid.put(
            String(borders.bottomLeft) + horizontal + String(borders.bottomRight), x: area.x, y: area.maxY - 1,
            style: style)
        for y in (area.y + 1)..<(area.maxY - 1) {
            grid.set(area.x, y, Cell(String(borders.vertical), style: style))
            grid.set(area.maxX - 1, y, Cell(String(borders.vertical), style: style))
        }
        let room = area.width - 4
        var trailingWidth = DisplayWidth.of(trailingTitle.plainText)
        if trailingWidth > 0, trailingWidth + 2 <= room {
            let x = area.maxX - 2 - trailingWidth
            grid.put([Span(" ", style)] + trailingTitle + [Span(" ", style)], x: x - 1, y: area.y, clip: area)
        } else {
            trailingWidth = 0
        }
        if !title.isEmpty, room > 0 {
            let titleRoom = room - (trailingWidth > 0 ? trailingWidth + 3 : 0)
            let characters = Sanitizer.characters(title)
            let clipped = Block.fit(characters, width: titleRoom - 2)
            if !clipped.isEmpty {
                let titleArea = Rect(x: area.x + 1, y: area.y, width: titleRoom, height: 1)
                var x = grid.put(" ", x: area.x + 1, y: area.y, style: style, clip: titleArea)
                x = grid.put(clipped, x: x, y: area.y, clip: titleArea)
                grid.put(" ", x: x, y: area.y, style: style, clip: titleArea)
            }
        }
        return inside
    }

    /// Characters cut to `width` columns, with an ellipsis when cut.
    package static func fit(_ characters: [StyledCharacter], width: Int) -> [StyledCharacter] {
        guard width > 0 else { return [] }
        let total = characters.reduce(0) { $0 + $1.width }
        if total <= width { return characters }
        var result: [StyledCharacter] = []
        var used = 0
        for item in characters {
            if used + item.width > width - 1 { break }
            result.append(item)
            used += item.width
        }
        result.append(StyledCharacter("…", characters.last?.style ?? .plain))
        return result
    }
}
