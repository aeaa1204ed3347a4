/// A list in a box to pick one item from. When filterable, a
/// filter line above the list shows what is typed into the list state's `filter`.
package struct Picker: Sendable {
    /// The box's title.
    package var title: String
    /// The items and the list state.
    package var list: ListView
    /// Whether the filter line is shown (a short list picked by number needs none).
    package var filterable: Bool
    /// The box's preferred outer width (cut to the screen).
    package var width: Int
    /// The box's preferred outer height (cut to the screen).
    package var height: Int
    /// What the filter line shows when the caller filters and orders the items itself (a
    /// fuzzy search); nil shows the list state's own `filter`.
    package var query: String?

    /// Creates a picker of a given size.
    package init(
        title: String, items: [ListItem], state: ListState, filterable: Bool = true, width: Int = 50, height: Int = 16
    ) {
        self.title = title
        self.list = ListView(items: items, state: state, focused: true, emptyText: "No match")
        self.filterable = filterable
        self.width = width
        self.height = height
    }

    /// Creates a picker as large as its items need: every row whole, with room for the
    /// trailing text, at least `minimumWidth` wide.
    package init(title: String, items: [ListItem], state: ListState, filterable: Bool = true, minimumWidth: Int = 40) {
        let widest =
            items.map { DisplayWidth.of($0.spans.plainText) + (DisplayWidth.of($0.trailing.plainText) + 2) }.max() ?? 0
        let width = max(minimumWidth, DisplayWidth.of(title) + 6, widest + 2)
        self.init(
            title: title, items: items, state: state, filterable: filterable, width: width,
            height: items.count + (filterable ? 3 : 2))
    }

    /// Draws the picker centred in `area`: the filter line when filterable, then the list.
    package func render(into grid: inout CellGrid, area: Rect) {
        let box = (
            width: min(width, Overlay.maximumWidth(in: area)), height: min(height, Overlay.maximumHeight(in: area))
        )
        let inside = Overlay.frame(into: &grid, area: area, width: box.width, height: box.height, title: title)
        guard filterable else {
            list.render(into: &grid, area: inside)
            return
        }
        guard inside.height >= 2 else { return }
        let parts = Layout.rows(inside, [.fixed(1), .fill])
        var field = TextFieldState(query ?? list.state.filter)
        field.moveToEnd()
        let prompt = grid.put("/ ", x: parts[0].x, y: parts[0].y, style: Style(.dim), clip: parts[0])
        TextField(state: field, focused: true, placeholder: "type to filter", style: Style(.overlay))
            .render(into: &grid, area: Rect(x: prompt, y: parts[0].y, width: parts[0].maxX - prompt, height: 1))
        list.render(into: &grid, area: parts[1])
    }
}
