/// How many terminal columns text takes, computed from Unicode data, not from the locale.
///
/// A grapheme cluster is the unit: East Asian wide and fullwidth characters and emoji take
/// two columns, combining marks and other zero-width characters add nothing, everything
/// else takes one. Control characters measure 0 here; the `Sanitizer` turns them into
/// visible text before anything is drawn.
package enum DisplayWidth {
    /// The width of one grapheme cluster: 0, 1 or 2.
    ///
    /// - Parameter character: the grapheme cluster.
    /// - Returns: the number of columns it takes.
    package static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii >= 0x20 && ascii < 0x7F ? 1 : 0
        }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        var hasEmojiVariation = false
        var regionalIndicators = 0
        for scalar in scalars {
            if scalar.value == 0xFE0F { hasEmojiVariation = true }
            if (0x1F1E6...0x1F1FF).contains(scalar.value) { regionalIndicators += 1 }
        }
        if regionalIndicators >= 2 { return 2 }
        if isWide(first) { return 2 }
        let properties = first.properties
        if properties.isEmojiPresentation { return 2 }
        if hasEmojiVariation && properties.isEmoji { return 2 }
        if isZeroWidth(first) { return 0 }
        return 1
    }

    /// The width of a string: the sum of its grapheme clusters' widths.
    ///
    /// - Parameter text: the text.
    /// - Returns: the number of columns it takes.
    package static func of<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The longest prefix of `text` that fits in `width` columns.
    ///
    /// - Parameters:
    ///   - text: the text.
    ///   - width: the columns available.
    ///   - ellipsis: appended (and counted) when the text had to be cut; pass "" for none.
    /// - Returns: the text, cut on a grapheme boundary.
    package static func truncate<S: StringProtocol>(_ text: S, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return String(text) }
        let room = width - of(ellipsis)
        guard room >= 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > room { break }
            result.append(character)
            used += w
        }
        return result + ellipsis
    }

    /// `text` cut or padded with spaces to exactly `width` columns.
    ///
    /// - Parameters:
    ///   - text: the text.
    ///   - width: the target width.
    /// - Returns: text of exactly `width` columns (a wide character that would straddle the
    ///   edge is replaced by a space).
    package static func pad<S: StringProtocol>(_ text: S, to width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width { break }
            result.append(character)
            used += w
        }
        if used < width { result += String(repeating: " ", count: width - used) }
        return result
    }

    // MARK: - Unicode tables

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return scalar.value != 0x00AD
        default:
            break
        }
        let v = scalar.value
        return (0x1160...0x11FF).contains(v) || v == 0x200B
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges, Unicode 15.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x1100 { return false }
        // Binary search over the sorted, disjoint ranges.
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if v < range.lowerBound {
                high = middle - 1
            } else if v > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
        0x1AFF0...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E,
        0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335,
        0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
        0x1F3E0...0x1F3F0, 0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440,
        0x1F442...0x1F4FC, 0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567,
        0x1F57A...0x1F57A, 0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F,
        0x1F680...0x1F6C5, 0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7,
        0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB,
        0x1F7F0...0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
        0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
