/// Breaks styled text into rows of at most a given width at spaces, for prose (messages,
/// dialogs); `ScrollText.wrap` breaks anywhere, for bodies where every column counts.
package enum WordWrap {
    /// The rows of `characters` wrapped at `width` columns.
    ///
    /// A row breaks at its last space and the space is dropped; leading spaces (an indent)
    /// are kept and never taken for a break. A word longer than a row is cut, so nothing is
    /// lost.
    ///
    /// - Parameters:
    ///   - characters: the text, already sanitized.
    ///   - width: the row width in columns.
    /// - Returns: the rows; none for empty text or a width below 1.
    package static func rows(_ characters: [StyledCharacter], width: Int) -> [[StyledCharacter]] {
        guard width > 0 else { return [] }
        var rows: [[StyledCharacter]] = []
        var row: [StyledCharacter] = []
        var used = 0
        for item in characters {
            if used + item.width > width, !row.isEmpty {
                if item.character == " " {
                    rows.append(row)
                    row = []
                    used = 0
                    continue
                }
                if let space = breakIndex(in: row) {
                    rows.append(Array(row[..<space]))
                    row = Array(row[(space + 1)...])
                } else {
                    rows.append(row)
                    row = []
                }
                used = row.reduce(0) { $0 + $1.width }
            }
            row.append(item)
            used += item.width
        }
        if !row.isEmpty { rows.append(row) }
        return rows
    }

    /// The last space of a row that follows some text (not part of its indent).
    private static func breakIndex(in row: [StyledCharacter]) -> Int? {
        guard let firstText = row.firstIndex(where: { $0.character != " " }),
            let space = row.lastIndex(where: { $0.character == " " }), space > firstText
        else { return nil }
        return space
    }
}
