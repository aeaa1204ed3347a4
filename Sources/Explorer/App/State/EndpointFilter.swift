import Synchronization
import Terminal

/// The endpoints list's filter, kept between frames and keystrokes.
///
/// The rows the filter lets through are read for every frame and most actions (the selection
/// indexes them). At 10,000 endpoints, making each row's text, lowercasing it and matching it
/// every time took most of a keystroke's frame. This keeps, for one version of the rows
/// (`AppState.endpointFilterVersion`), each row's lowercased text made once, and the last
/// filter's result: the same filter again costs nothing, and a filter that narrows the last
/// one (a word typed on) matches only the rows the last one let through.
///
/// A reference shared by copies of the state, sound because a version names one content of the
/// rows: every change of the rows, the drafts or the collection takes a new version
/// (`EndpointFilter.nextVersion()`), never reused in the process.
final class EndpointFilter: Sendable {
    /// The rows' texts of one version, and the last filter matched against them.
    private struct Memo {
        var version: Int
        var texts: [[UInt8]]
        var words: [[UInt8]]?
        var visible: [Int]
    }

    private let memo = Mutex<Memo?>(nil)
    private static let versions = Atomic<Int>(0)

    init() {}

    /// A version no other content of the rows has had in this process.
    static func nextVersion() -> Int {
        versions.add(1, ordering: .relaxed).newValue
    }

    /// The indices of the rows `filter` lets through, in order: every whitespace-separated word
    /// of the filter occurs in the row's text, ignoring case (what `ListState.matching` does).
    ///
    /// - Parameters:
    ///   - filter: the endpoints list's filter.
    ///   - version: the rows' version.
    ///   - count: how many rows there are.
    ///   - rows: each row's text; made only when this version has none kept.
    func visibleRows(
        _ filter: String, version: Int, count: Int, rows: () -> [String]
    ) -> [Int] {
        let words = Self.words(filter)
        guard !words.isEmpty else { return Array(0..<count) }
        var memo = kept(version: version, count: count, rows: rows)
        if memo.words == words { return memo.visible }
        // A filter whose every earlier word is inside one of its words lets through no row the
        // earlier one did not: only those are matched again.
        let candidates: [Int]
        if let earlier = memo.words, !earlier.isEmpty,
            earlier.allSatisfy({ old in words.contains { Self.contains(old, in: $0) } })
        {
            candidates = memo.visible
        } else {
            candidates = Array(memo.texts.indices)
        }
        memo.visible = candidates.filter { index in
            memo.texts[index].withUnsafeBytes { text in words.allSatisfy { ByteSearch.contains($0, in: text) } }
        }
        memo.words = words
        let result = memo.visible
        let store = memo
        self.memo.withLock { $0 = store }
        return result
    }

    /// The kept texts of `version` (`count` rows), made (and kept, without a filter result)
    /// when absent.
    private func kept(version: Int, count: Int, rows: () -> [String]) -> Memo {
        if let memo = memo.withLock({ $0 }), memo.version == version, memo.texts.count == count { return memo }
        let fresh = Memo(
            version: version, texts: rows().map { Array($0.lowercased().utf8) }, words: nil, visible: [])
        memo.withLock { $0 = fresh }
        return fresh
    }

    /// The filter's words, lowercased, as bytes.
    static func words(_ filter: String) -> [[UInt8]] {
        filter.lowercased().split(whereSeparator: \.isWhitespace).map { Array($0.utf8) }
    }

    private static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBytes { ByteSearch.contains(needle, in: $0) }
    }
}
