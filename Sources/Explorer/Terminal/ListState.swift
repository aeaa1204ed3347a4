/// The state of a list the app keeps: selection, scroll position and filter.
///
/// `selected` indexes the *filtered* rows; `selectedItem(in:)` maps it back to the items.
package struct ListState: Sendable, Hashable {
    /// The selected row among the visible (filtered) rows.
    package var selected: Int
    /// The first row shown; the view adjusts it so the selection is always visible.
    package var offset: Int
    /// Filter-as-you-type text; empty shows everything.
    package var filter: String

    /// Creates a list state.
    package init(selected: Int = 0, offset: Int = 0, filter: String = "") {
        self.selected = selected
        self.offset = offset
        self.filter = filter
    }

    /// The indices of the items the filter lets through, in order.
    ///
    /// Every whitespace-separated word of the filter must occur in the item's text,
    /// ignoring case.
    package func visibleIndices(_ items: [ListItem]) -> [Int] {
        visibleIndices(count: items.count) { items.map(\.filterText) }
    }

    /// The same for `count` items whose texts are made only when a filter needs them: with no
    /// filter, every index (a list asked for its selection on every action makes nothing).
    package func visibleIndices(count: Int, texts: () -> [String]) -> [Int] {
        if filter.allSatisfy(\.isWhitespace) { return Array(0..<count) }
        return ListState.matching(texts(), filter: filter)
    }

    /// The index in `items` of the selected row, or nil when nothing matches.
    package func selectedItem(in items: [ListItem]) -> Int? {
        let visible = visibleIndices(items)
        guard !visible.isEmpty else { return nil }
        return visible[min(max(0, selected), visible.count - 1)]
    }

    /// Indices of `texts` matching `filter` (every word, case-insensitive).
    ///
    /// Compared as lowercased UTF-8 bytes: Foundation's `contains` (which `import Foundation`
    /// makes the one called) goes through `CFStringFind` with the locale, which showed in
    /// profiles of a frame, and lists are filtered again for every frame drawn.
    package static func matching(_ texts: [String], filter: String) -> [Int] {
        let words = filter.lowercased().split(whereSeparator: \.isWhitespace).map { Array($0.utf8) }
        guard !words.isEmpty else { return Array(texts.indices) }
        return texts.indices.filter { i in
            let text = Array(texts[i].lowercased().utf8)
            return text.withUnsafeBytes { bytes in words.allSatisfy { ByteSearch.contains($0, in: bytes) } }
        }
    }

    // MARK: - Moving

    /// Moves the selection by `delta` rows, clamped to `count` rows.
    package mutating func move(by delta: Int, count: Int) {
        guard count > 0 else {
            selected = 0
            return
        }
        selected = min(max(0, selected + delta), count - 1)
    }

    /// Selects the first row.
    package mutating func moveToFirst() { selected = 0 }

    /// Selects the last of `count` rows.
    package mutating func moveToLast(count: Int) { selected = max(0, count - 1) }

    /// Sets the filter and selects the first match.
    package mutating func setFilter(_ text: String) {
        filter = text
        selected = 0
        offset = 0
    }

    /// Keeps `offset` so that the selection shows in `height` rows; the reducer calls it
    /// when it knows the height, the view applies the same rule when it draws.
    package mutating func scrollToSelection(height: Int, count: Int) {
        offset = visibleOffset(height: height, count: count)
    }

    /// The first row to show in `height` rows: the stored offset, moved as little as
    /// possible to keep the selection visible.
    package func visibleOffset(height: Int, count: Int) -> Int {
        guard height > 0, count > 0 else { return 0 }
        let sel = min(max(0, selected), count - 1)
        var top = min(max(0, offset), max(0, count - height))
        if sel < top { top = sel }
        if sel >= top + height { top = sel - height + 1 }
        return top
    }

    /// The visible row (index among filtered rows) drawn at `row` of a list `height` rows
    /// high, for mouse clicks; nil below the last row.
    ///
    /// - Parameters:
    ///   - row: the clicked row, relative to the list's top.
    ///   - height: the list's height.
    ///   - count: the number of visible (filtered) rows.
    /// - Returns: the row's index among the visible rows.
    package func index(atRow row: Int, height: Int, count: Int) -> Int? {
        guard row >= 0, row < height else { return nil }
        let index = visibleOffset(height: height, count: count) + row
        return index < count ? index : nil
    }
}
