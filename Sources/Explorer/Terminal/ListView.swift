/// A scrolling, filterable list with a selection.
package struct ListView: Sendable {
    /// All items (the filter in `state` picks the visible ones).
    package var items: [ListItem]
    /// Selection, offset and filter.
    package var state: ListState
    /// Whether the list has focus (the selection takes `.selection`, else `.selectionInactive`).
    package var focused: Bool
    /// Shown when no item is visible.
    package var emptyText: String

    /// Creates a list view.
    package init(items: [ListItem], state: ListState, focused: Bool = true, emptyText: String = "Nothing here") {
        self.items = items
        self.state = state
        self.focused = focused
        self.emptyText = emptyText
    }

    /// Draws the visible rows in `area`, the selected row highlighted across the full
    /// width, filter matches underlined.
    ///
    /// - Parameters:
    ///   - grid: the grid to draw on.
    ///   - area: the list's rectangle.
    package func render(into grid: inout CellGrid, area: Rect) {
        guard !area.isEmpty else { return }
        let visible = state.visibleIndices(items)
        if visible.isEmpty {
            grid.put(
                DisplayWidth.truncate(emptyText, to: area.width), x: area.x, y: area.y, style: Style(.dim), clip: area)
            return
        }
        let top = state.visibleOffset(height: area.height, count: visible.count)
        let selected = min(max(0, state.selected), visible.count - 1)
        let words = state.filter.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        for row in 0..<area.height {
            let index = top + row
            guard index < visible.count else { break }
            let item = items[visible[index]]
            let line = area.row(row)
            let isSelected = index == selected
            var characters = Sanitizer.characters(item.spans)
            if !words.isEmpty { ListView.underline(words, in: &characters) }
            var trailing = Sanitizer.characters(item.trailing)
            let trailingWidth = trailing.reduce(0) { $0 + $1.width }
            if isSelected {
                let selection = Style(focused ? .selection : .selectionInactive)
                grid.fill(line, style: selection)
                for i in characters.indices {
                    characters[i].style = Style(selection.role, characters[i].style.attributes)
                }
                for i in trailing.indices {
                    trailing[i].style = Style(selection.role, trailing[i].style.attributes)
                }
            }
            var textArea = line
            if trailingWidth > 0, trailingWidth + 2 < line.width {
                textArea.width = line.width - trailingWidth - 1
                grid.put(trailing, x: line.maxX - trailingWidth, y: line.y, clip: line)
            }
            let fitted = Block.fit(characters, width: textArea.width)
            grid.put(fitted, x: line.x, y: line.y, clip: textArea)
        }
    }

    /// Underlines the first occurrence of each word.
    static func underline(_ words: [String], in characters: inout [StyledCharacter]) {
        let lowered = characters.map { String($0.character).lowercased() }
        for word in words {
            let needle = word.map { String($0) }
            guard !needle.isEmpty, needle.count <= lowered.count else { continue }
            for start in 0...(lowered.count - needle.count)
            where Array(lowered[start..<(start + needle.count)]) == needle {
                for i in start..<(start + needle.count) { characters[i].style.attributes.insert(.underline) }
                break
            }
        }
    }
}
