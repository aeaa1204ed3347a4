/// Fuzzy matching as a command palette does it: the typed characters must appear in the text
/// in order, not necessarily together (`gtusr` finds `Get user`), and a match that keeps them
/// together or starts words ranks higher.
///
/// Texts are short (names, commands, URLs): each possible start of the first character is
/// tried, so a match costs O(starts × length).
package enum FuzzyMatch {
    /// How well a text matches, and where.
    package struct Match: Sendable, Hashable {
        /// Higher is better; only comparable between matches of the same query.
        package var score: Int
        /// The matched characters, as indices into the text's characters.
        package var positions: [Int]
    }

    /// Matches `query` against `text`, ignoring case and the query's spaces.
    ///
    /// The first occurrence of each query character is taken, after the previous one, except
    /// that a later start of a word is preferred for the first character when one exists.
    /// Bonuses: a character right after the previous match, at the start of the text or of a
    /// word (after a space, `/`, `-`, `_`, `.` or a lower-to-upper case change). Penalty: the
    /// gaps between matched characters.
    ///
    /// - Parameters:
    ///   - query: what was typed; an empty query matches everything with score 0.
    ///   - text: the candidate.
    /// - Returns: the match, or nil when some query character is missing.
    package static func match(_ query: String, in text: String) -> Match? {
        let needle = Array(query.lowercased().filter { !$0.isWhitespace })
        guard !needle.isEmpty else { return Match(score: 0, positions: []) }
        let original = Array(text)
        let haystack = original.map { $0.lowercased().first ?? $0 }
        guard haystack.count >= needle.count else { return nil }
        var best: Match?
        // Try each place the first character could start, keep the best: small texts only.
        for start in haystack.indices where haystack[start] == needle[0] {
            guard let match = greedy(needle, haystack, original, from: start) else { break }
            if best == nil || match.score > best!.score { best = match }
        }
        return best
    }

    private static func greedy(_ needle: [Character], _ haystack: [Character], _ original: [Character], from start: Int)
        -> Match?
    {
        var positions: [Int] = [start]
        var index = start + 1
        for character in needle.dropFirst() {
            // Prefer the next word start holding the character when the next plain one is not
            // adjacent; else the first occurrence.
            guard let next = haystack[index...].firstIndex(of: character) else { return nil }
            var chosen = next
            if next != index,
                let wordStart = haystack.indices[index...].first(where: {
                    haystack[$0] == character && isWordStart($0, original)
                })
            {
                chosen = wordStart
            }
            positions.append(chosen)
            index = chosen + 1
        }
        var score = 0
        for (offset, position) in positions.enumerated() {
            score += 10
            if isWordStart(position, original) { score += 8 }
            if offset > 0 {
                let gap = position - positions[offset - 1] - 1
                score += gap == 0 ? 6 : -min(gap, 6)
            }
        }
        if positions.first == 0 { score += 4 }
        return Match(score: score, positions: positions)
    }

    private static func isWordStart(_ index: Int, _ text: [Character]) -> Bool {
        guard index > 0 else { return true }
        let previous = text[index - 1]
        if " /-_.:".contains(previous) { return true }
        return previous.isLowercase && text[index].isUppercase
    }

    /// The indices of `texts` that match `query`, best first; of two equal scores the shorter
    /// text first (`Get user` before `Get user avatar`), then the given order (an empty query
    /// keeps the given order).
    ///
    /// - Parameters:
    ///   - query: what was typed.
    ///   - texts: the candidates.
    /// - Returns: pairs of index and match, sorted by score.
    package static func rank(_ query: String, _ texts: [String]) -> [(index: Int, match: Match)] {
        let matches = texts.enumerated().compactMap { index, text in
            match(query, in: text).map { (index: index, match: $0) }
        }
        // An empty query ranks nothing: everything in the given order.
        guard !query.allSatisfy(\.isWhitespace) else { return matches }
        let lengths = texts.map(\.count)
        return matches.sorted { a, b in
            if a.match.score != b.match.score { return a.match.score > b.match.score }
            if lengths[a.index] != lengths[b.index] { return lengths[a.index] < lengths[b.index] }
            return a.index < b.index
        }
    }
}
