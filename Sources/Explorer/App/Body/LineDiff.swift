import Foundation
import History

/// A line-by-line diff, shown as unified lines: `  same`, `- only in the first`,
/// `+ only in the second`.
///
/// The common lines are a longest common subsequence found by the standard library's
/// `difference(from:)` (Myers: O((n+m)·D) time for D differing lines, memory linear in n+m).
/// Between two common lines, the first side's lines come before the second side's.
enum LineDiff {
    enum Line: Sendable, Hashable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The most body lines of each exchange that are compared; one note line stands for the rest.
    ///
    /// A few changes in 10 000 lines take well under 0.1 s and a few MB. The worst case is the
    /// same lines in another order (a list sorted the other way): D nears n+m, about 2.5 s at
    /// this limit (10 s at 20 000), which is why the limit is here and a comparison runs off the
    /// main queue.
    static let limit = 10_000

    /// Compares two texts line by line.
    ///
    /// - Returns: every line of both sides once, in order: the common ones as `.same`, and in
    ///   each gap between two common lines the removed lines, then the added ones.
    static func diff(_ old: [String], _ new: [String]) -> [Line] {
        // Each distinct line becomes a small integer: hashed once, then compared as integers.
        var ids: [String: Int] = [:]
        func id(_ line: String) -> Int {
            if let id = ids[line] { return id }
            ids[line] = ids.count
            return ids.count - 1
        }
        let oldIDs = old.map(id)
        let newIDs = new.map(id)
        var onOldSide = [Bool](repeating: false, count: ids.count)
        var onNewSide = [Bool](repeating: false, count: ids.count)
        for id in oldIDs { onOldSide[id] = true }
        for id in newIDs { onNewSide[id] = true }

        // A line found on one side only can never be common. Leaving such lines out before
        // Myers runs keeps D to the lines that could match: two unrelated bodies cost O(n+m),
        // not the (n+m)² steps of Myers' worst case.
        let oldShared = old.indices.filter { onNewSide[oldIDs[$0]] }
        let newShared = new.indices.filter { onOldSide[newIDs[$0]] }
        let difference = newShared.map { newIDs[$0] }.difference(from: oldShared.map { oldIDs[$0] })

        var oldChanged = [Bool](repeating: false, count: oldShared.count)
        var newChanged = [Bool](repeating: false, count: newShared.count)
        for change in difference {
            switch change {
            case .remove(let offset, _, _): oldChanged[offset] = true
            case .insert(let offset, _, _): newChanged[offset] = true
            }
        }
        // What the difference leaves unchanged is common to both, in the same order on each side.
        let oldCommon = oldShared.indices.filter { !oldChanged[$0] }.map { oldShared[$0] }
        let newCommon = newShared.indices.filter { !newChanged[$0] }.map { newShared[$0] }

        var result: [Line] = []
        result.reserveCapacity(old.count + new.count - oldCommon.count)
        var oldNext = 0
        var newNext = 0
        // The ends of both sides close the last gap.
        let anchors = Array(zip(oldCommon, newCommon)) + [(old.count, new.count)]
        for (oldIndex, newIndex) in anchors {
            result += old[oldNext..<oldIndex].map(Line.removed)
            result += new[newNext..<newIndex].map(Line.added)
            if oldIndex < old.count { result.append(.same(old[oldIndex])) }
            oldNext = oldIndex + 1
            newNext = newIndex + 1
        }
        return result
    }

    /// The text of an exchange as compared: status, URL, headers (without ones that always
    /// differ) and the pretty body, cut after `limit` lines with a note saying how many remain.
    static func comparableLines(_ entry: HistoryEntry) -> [String] {
        var lines = [
            "status: \(entry.status.map(String.init) ?? "no response") \(entry.reason ?? entry.transportError ?? "")",
            "\(entry.method) \(entry.url)",
            "environment: \(entry.environment ?? "-")",
        ]
        let volatile: Set<String> = ["date", "x-request-id", "content-length", "age", "etag"]
        lines += entry.responseHeaders.fields
            .filter { !volatile.contains($0.name.lowercased()) }
            .map { "\($0.name.lowercased()): \($0.value)" }
            .sorted()
        lines.append("")
        let document = BodyDocument.make(entry.responseBody ?? Data(), contentType: entry.contentType)
        for index in 0..<min(document.lineCount, limit) { lines.append(document.plainLine(index)) }
        if document.lineCount > limit {
            lines.append("… \(document.lineCount - limit) more body lines, not compared")
        }
        return lines
    }
}
