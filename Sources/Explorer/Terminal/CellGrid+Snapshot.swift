extension CellGrid {
    /// The rows as text, one string per row (wide characters once, continuations skipped).
    package func textLines() -> [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width {
                let cell = cells[y * width + x]
                if !cell.isContinuation { line += cell.text }
            }
            return line
        }
    }

    /// A human-readable picture of the grid for snapshot tests.
    ///
    /// Each row prints as its text between `|` bars, followed by a mask line with one
    /// letter per column naming its style (`.` for plain); a legend at the end says which
    /// letter is which role and attributes, in order of first appearance, so snapshots stay
    /// stable when roles are added. A cursor, when set, is listed last.
    ///
    /// - Returns: the snapshot text.
    package func snapshot() -> String {
        var legend: [Style: Character] = [.plain: "."]
        var order: [Style] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var out = ""
        let text = textLines()
        for y in 0..<height {
            var mask = ""
            for x in 0..<width {
                let style = cells[y * width + x].style
                if let letter = legend[style] {
                    mask.append(letter)
                } else {
                    let letter = order.count < letters.count ? letters[order.count] : "?"
                    legend[style] = letter
                    order.append(style)
                    mask.append(letter)
                }
            }
            out += "|" + text[y] + "|\n"
            out += "|" + mask + "|\n"
        }
        for style in order {
            let attributes = style.attributes.letters
            out += "\(legend[style]!)=\(style.role.rawValue)" + (attributes.isEmpty ? "" : "+" + attributes) + "\n"
        }
        if let cursor { out += "cursor=\(cursor.x),\(cursor.y)\n" }
        return out
    }
}
