/// Modal boxes drawn over a screen: a confirm dialog, a picker, the help.
package enum Overlay {
    /// Clears a centred box of the given size and draws its frame.
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on.
    ///   - area: the screen area to centre in.
    ///   - width: the box's outer width (cut to the area).
    ///   - height: the box's outer height (cut to the area).
    ///   - title: the frame's title.
    /// - Returns: the inside of the box.
    @discardableResult
    package static func frame(into grid: inout CellGrid, area: Rect, width: Int, height: Int, title: String) -> Rect {
        let box = area.centered(width: width, height: height)
        grid.fill(box, style: Style(.overlay))
        return Block(title: title, focused: true, borders: .rounded, fill: Style(.overlay)).render(into: &grid, area: box)
    }
}

/// A yes/no question in a box: "Send DELETE to production?".
package struct ConfirmDialog: Sendable {
    /// The box's title.
    package var title: String
    /// The question, wrapped to the box.
    package var message: String
    /// The hints under the question (`y` confirm, `n` cancel).
    package var hints: [KeyHint]
    /// Whether confirming is dangerous: the title shows as an error.
    package var destructive: Bool

    /// Creates a dialog.
    package init(title: String, message: String, hints: [KeyHint], destructive: Bool = false) {
        self.title = title
        self.message = message
        self.hints = hints
        self.destructive = destructive
    }

    /// Draws the dialog centred in `area`.
    package func render(into grid: inout CellGrid, area: Rect) {
        let width = min(area.width, max(30, min(60, DisplayWidth.of(message) + 4)))
        let lines = ScrollText.wrap(Sanitizer.characters([Span(message, Style(.overlay))]), width: max(1, width - 4))
        let height = min(area.height, lines.count + 4)
        let inside = Overlay.frame(into: &grid, area: area, width: width, height: height, title: title)
        if destructive {
            let titleRow = Rect(x: inside.x, y: inside.y - 1, width: inside.width, height: 1)
            grid.put(" " + title + " ", x: inside.x, y: inside.y - 1, style: Style(.error, [.bold]), clip: titleRow)
        }
        let text = inside.inset(left: 1, right: 1)
        for (i, line) in lines.enumerated() where i < text.height - 1 {
            grid.put(line, x: text.x, y: text.y + i, clip: text)
        }
        var hintRow = text.row(text.height - 1)
        hintRow.height = text.height > 0 ? 1 : 0
        var x = hintRow.x
        for hint in hints {
            x = grid.put(hint.key, x: x, y: hintRow.y, style: Style(.statusKey, [.bold]), clip: hintRow)
            x = grid.put(" " + hint.label + "   ", x: x, y: hintRow.y, style: Style(.overlay), clip: hintRow)
        }
    }
}

/// A filterable list in a box: pick an environment, an endpoint, a theme.
package struct Picker: Sendable {
    /// The box's title.
    package var title: String
    /// The items and the list state (its `filter` is shown and typed into).
    package var list: ListView
    /// The box's preferred size.
    package var width: Int
    /// The box's preferred height.
    package var height: Int

    /// Creates a picker.
    package init(title: String, items: [ListItem], state: ListState, width: Int = 50, height: Int = 16) {
        self.title = title
        self.list = ListView(items: items, state: state, focused: true, emptyText: "No match")
        self.width = width
        self.height = height
    }

    /// Draws the picker centred in `area`: a filter line, then the list.
    package func render(into grid: inout CellGrid, area: Rect) {
        let inside = Overlay.frame(into: &grid, area: area, width: width, height: height, title: title)
        guard inside.height >= 2 else { return }
        let parts = Layout.rows(inside, [.fixed(1), .fill])
        var field = TextFieldState(list.state.filter)
        field.moveToEnd()
        let prompt = grid.put("/ ", x: parts[0].x, y: parts[0].y, style: Style(.dim), clip: parts[0])
        TextField(state: field, focused: true, placeholder: "type to filter", style: Style(.overlay))
            .render(into: &grid, area: Rect(x: prompt, y: parts[0].y, width: parts[0].maxX - prompt, height: 1))
        list.render(into: &grid, area: parts[1])
    }
}

/// The key help: every binding of a keymap in two columns.
package struct HelpOverlay: Sendable {
    /// The box's title.
    package var title: String
    /// The lines: key names and what they do.
    package var lines: [KeyHint]
    /// The first line shown (the help scrolls when long).
    package var offset: Int

    /// Creates the help overlay.
    package init(title: String = "Keys", lines: [KeyHint], offset: Int = 0) {
        self.title = title
        self.lines = lines
        self.offset = offset
    }

    /// Draws the help centred in `area`.
    package func render(into grid: inout CellGrid, area: Rect) {
        let keyWidth = min(20, lines.map { DisplayWidth.of($0.key) }.max() ?? 0)
        let labelWidth = lines.map { DisplayWidth.of($0.label) }.max() ?? 0
        let inside = Overlay.frame(into: &grid, area: area, width: keyWidth + labelWidth + 7, height: lines.count + 2, title: title)
        let start = min(max(0, offset), max(0, lines.count - inside.height))
        for row in 0..<inside.height {
            let index = start + row
            guard index < lines.count else { break }
            let line = inside.row(row).inset(left: 1, right: 1)
            let x = grid.put(DisplayWidth.pad(lines[index].key, to: keyWidth), x: line.x, y: line.y, style: Style(.statusKey, [.bold]), clip: line)
            grid.put("  " + lines[index].label, x: x, y: line.y, style: Style(.overlay), clip: line)
        }
    }
}
