import Foundation
import History

/// A line-by-line diff (longest common subsequence), shown as unified lines:
/// `  same`, `- only in the first`, `+ only in the second`.
package enum LineDiff {
    enum Line: Sendable, Hashable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The most lines of each side that are compared; the rest is cut with a note.
    static let limit = 3000

    static func diff(_ old: [String], _ new: [String]) -> [Line] {
        let a = Array(old.prefix(limit))
        let b = Array(new.prefix(limit))
        // Trim the common head and tail so the table only covers what differs.
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        let x = Array(a[head..<(a.count - tail)])
        let y = Array(b[head..<(b.count - tail)])
        let width = y.count + 1
        var table = [Int32](repeating: 0, count: (x.count + 1) * width)
        if !x.isEmpty && !y.isEmpty {
            for i in stride(from: x.count - 1, through: 0, by: -1) {
                for j in stride(from: y.count - 1, through: 0, by: -1) {
                    table[i * width + j] = x[i] == y[j]
                        ? table[(i + 1) * width + j + 1] + 1
                        : max(table[(i + 1) * width + j], table[i * width + j + 1])
                }
            }
        }
        var result = a[0..<head].map(Line.same)
        var i = 0
        var j = 0
        while i < x.count || j < y.count {
            if i < x.count, j < y.count, x[i] == y[j] {
                result.append(.same(x[i])); i += 1; j += 1
            } else if i < x.count, j == y.count || table[(i + 1) * width + j] >= table[i * width + j + 1] {
                result.append(.removed(x[i])); i += 1
            } else {
                result.append(.added(y[j])); j += 1
            }
        }
        result += a[(a.count - tail)...].map(Line.same)
        return result
    }

    /// The text of an exchange as compared: status, URL, headers (without ones that always
    /// differ) and the pretty body.
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
        return lines
    }
}
