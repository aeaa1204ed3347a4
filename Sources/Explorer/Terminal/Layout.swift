/// How much of a split one part takes.
package enum Constraint: Sendable, Hashable {
    /// Exactly this many cells (less if the space runs out).
    case fixed(Int)
    /// This percentage of the whole (0–100), rounded down.
    case percent(Int)
    /// A share of what is left after fixed and percent parts, by weight.
    case fill(Int)

    /// A fill of weight 1.
    package static let fill = Constraint.fill(1)
}

/// The direction of a split.
package enum Axis: Sendable, Hashable {
    /// Side by side: parts are columns.
    case horizontal
    /// Stacked: parts are rows.
    case vertical
}

/// Splits rectangles into parts by constraints.
package enum Layout {
    /// Splits `rect` along `axis`.
    ///
    /// Fixed and percent parts are served first, in order, until the space runs out; the
    /// rest is shared by the fill parts in proportion to their weights, the last fill part
    /// taking the rounding remainder. The parts are adjacent, separated by `spacing` cells,
    /// and always one per constraint (empty when nothing is left).
    ///
    /// - Parameters:
    ///   - rect: the rectangle to split.
    ///   - axis: the direction.
    ///   - constraints: one per part.
    ///   - spacing: cells between parts.
    /// - Returns: one rectangle per constraint.
    package static func split(_ rect: Rect, _ axis: Axis, _ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        guard !constraints.isEmpty else { return [] }
        let total = axis == .horizontal ? rect.width : rect.height
        let gaps = max(0, spacing) * (constraints.count - 1)
        var remaining = max(0, total - gaps)
        var sizes = Array(repeating: 0, count: constraints.count)
        for (i, constraint) in constraints.enumerated() {
            switch constraint {
            case .fixed(let n):
                sizes[i] = min(max(0, n), remaining)
            case .percent(let p):
                sizes[i] = min(max(0, total * min(max(p, 0), 100) / 100), remaining)
            case .fill:
                continue
            }
            remaining -= sizes[i]
        }
        let fills = constraints.enumerated().compactMap { i, c -> (Int, Int)? in
            if case .fill(let w) = c { return (i, max(0, w)) }
            return nil
        }
        let weights = fills.reduce(0) { $0 + $1.1 }
        if weights > 0 {
            var given = 0
            for (n, (i, w)) in fills.enumerated() {
                sizes[i] = n == fills.count - 1 ? remaining - given : remaining * w / weights
                given += sizes[i]
            }
        }
        var result: [Rect] = []
        var offset = axis == .horizontal ? rect.x : rect.y
        for size in sizes {
            switch axis {
            case .horizontal:
                result.append(Rect(x: offset, y: rect.y, width: size, height: rect.height))
            case .vertical:
                result.append(Rect(x: rect.x, y: offset, width: rect.width, height: size))
            }
            offset += size + max(0, spacing)
        }
        return result
    }

    /// Splits `rect` into columns.
    package static func columns(_ rect: Rect, _ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        split(rect, .horizontal, constraints, spacing: spacing)
    }

    /// Splits `rect` into rows.
    package static func rows(_ rect: Rect, _ constraints: [Constraint], spacing: Int = 0) -> [Rect] {
        split(rect, .vertical, constraints, spacing: spacing)
    }
}
