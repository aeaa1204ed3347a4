/// A rectangle of cells.
package struct Rect: Sendable, Hashable {
    /// Left column.
    package var x: Int
    /// Top row.
    package var y: Int
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int

    /// Creates a rectangle; negative sizes become 0.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The rectangle covering a whole screen of `size`.
    package init(size: Size) {
        self.init(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// The rectangle's size.
    package var size: Size { Size(width: width, height: height) }
    /// One past the right column.
    package var maxX: Int { x + width }
    /// One past the bottom row.
    package var maxY: Int { y + height }
    /// Whether it has no cells.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// Whether a point lies inside.
    package func contains(_ point: Point) -> Bool {
        point.x >= x && point.x < maxX && point.y >= y && point.y < maxY
    }

    /// The rectangle shrunk by `amount` cells on every side.
    package func inset(by amount: Int) -> Rect {
        inset(top: amount, left: amount, bottom: amount, right: amount)
    }

    /// The rectangle shrunk by the given number of cells per side.
    package func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    /// The part of the rectangle that also lies in `other`.
    package func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// A rectangle of `size` centred in this one (clipped to it).
    package func centered(width w: Int, height h: Int) -> Rect {
        let cw = min(w, width)
        let ch = min(h, height)
        return Rect(x: x + (width - cw) / 2, y: y + (height - ch) / 2, width: cw, height: ch)
    }

    /// The single row `row` (relative to the top) of the rectangle.
    package func row(_ row: Int) -> Rect {
        Rect(x: x, y: y + row, width: width, height: row >= 0 && row < height ? 1 : 0)
    }
}
