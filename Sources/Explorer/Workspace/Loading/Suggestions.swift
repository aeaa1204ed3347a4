/// "Did you mean" candidates: the names closest to what a user typed.
package enum Suggestions {
    /// Up to `limit` names within a small edit distance of `word` (or containing it), closest first.
    package static func closest(to word: String, in names: [String], limit: Int = 3) -> [String] {
        let lowered = word.lowercased()
        var scored: [(name: String, score: Int)] = []
        var seen: Set<String> = []
        for name in names where seen.insert(name).inserted {
            let candidate = name.lowercased()
            let distance = editDistance(lowered, candidate)
            let threshold = max(2, min(lowered.count, candidate.count) / 3)
            if distance <= threshold {
                scored.append((name, distance))
            } else if !lowered.isEmpty && (candidate.contains(lowered) || lowered.contains(candidate)) {
                scored.append((name, threshold + 1))
            }
        }
        return scored.sorted { $0.score != $1.score ? $0.score < $1.score : $0.name < $1.name }.prefix(limit).map(
            \.name)
    }

    /// The Levenshtein distance between two strings, counted in `Character`s.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
