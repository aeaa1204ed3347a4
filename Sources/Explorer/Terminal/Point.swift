/// A cell position: column `x`, row `y`, both from 0 at the top left.
public struct Point: Sendable, Hashable {
    /// The column.
    public var x: Int
    /// The row.
    public var y: Int

    /// Creates a position.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A terminal size in cells.
public struct Size: Sendable, Hashable {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a size; negative values become 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }
}
