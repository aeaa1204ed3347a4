/// A cell position: column `x`, row `y`, both from 0 at the top left.
package struct Point: Sendable, Hashable {
    /// The column.
    package var x: Int
    /// The row.
    package var y: Int

    /// Creates a position.
    package init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A terminal size in cells.
package struct Size: Sendable, Hashable {
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int

    /// Creates a size; negative values become 0.
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }
}
