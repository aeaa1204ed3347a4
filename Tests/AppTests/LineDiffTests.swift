import Foundation
import Testing

@testable import App
@testable import History

/// `LineDiff`: the line-by-line comparison of two history entries.
@Suite struct LineDiffTests {
    /// The first side as the diff keeps it: its common and removed lines, in order.
    private func oldSide(_ lines: [LineDiff.Line]) -> [String] {
        lines.compactMap {
            switch $0 {
            case .same(let text), .removed(let text): text
            case .added: nil
            }
        }
    }

    /// The second side as the diff keeps it: its common and added lines, in order.
    private func newSide(_ lines: [LineDiff.Line]) -> [String] {
        lines.compactMap {
            switch $0 {
            case .same(let text), .added(let text): text
            case .removed: nil
            }
        }
    }

    /// The length of a longest common subsequence, by the textbook table (fine for a few lines).
    private func longestCommonLength(_ a: [String], _ b: [String]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in a.indices.reversed() {
            for j in b.indices.reversed() {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    @Test func identicalTextsAreAllTheSame() {
        #expect(LineDiff.diff(["a", "b"], ["a", "b"]) == [.same("a"), .same("b")])
        #expect(LineDiff.diff([], []) == [])
    }

    @Test func oneEmptySideIsAllRemovedOrAllAdded() {
        #expect(LineDiff.diff(["a", "b"], []) == [.removed("a"), .removed("b")])
        #expect(LineDiff.diff([], ["a", "b"]) == [.added("a"), .added("b")])
    }

    @Test func unrelatedTextsShowTheFirstRemovedThenTheSecondAdded() {
        #expect(LineDiff.diff(["a", "b"], ["x", "y"]) == [.removed("a"), .removed("b"), .added("x"), .added("y")])
    }

    @Test func repeatedLinesAreMatchedOnlyAsOftenAsBothSidesHaveThem() {
        let lines = LineDiff.diff(["{", "}", "{", "}"], ["{", "}"])
        #expect(lines.filter { if case .same = $0 { true } else { false } }.count == 2)
        #expect(oldSide(lines) == ["{", "}", "{", "}"])
        #expect(newSide(lines) == ["{", "}"])
    }

    @Test func everyDiffKeepsBothSidesAndAsManyCommonLinesAsPossible() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let old = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                ["a", "b", "c", "{", "}"].randomElement(using: &generator)!
            }
            let new = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                ["a", "b", "c", "{", "x"].randomElement(using: &generator)!
            }
            let lines = LineDiff.diff(old, new)
            #expect(oldSide(lines) == old)
            #expect(newSide(lines) == new)
            let common = lines.filter { if case .same = $0 { true } else { false } }.count
            #expect(common == longestCommonLength(old, new), "\(old) → \(new)")
        }
    }

    @Test func twentyThousandLineBodiesWithAFewChangesAreComparedWhole() {
        let old = (0..<20_000).map { #"  {"id": \#($0), "name": "item \#($0)", "status": "open"},"# }
        var new = old
        new[3] = #"  {"id": 3, "name": "item 3", "status": "closed"},"#
        new[12_345] = #"  {"id": 12345, "name": "renamed", "status": "open"},"#
        new.remove(at: 19_000)
        new.insert("  {},", at: 10_000)

        let lines = LineDiff.diff(old, new)

        let removed = lines.compactMap { if case .removed(let text) = $0 { text } else { nil } }
        let added = lines.compactMap { if case .added(let text) = $0 { text } else { nil } }
        #expect(removed == [old[3], old[12_345], old[19_000]])
        #expect(added == [new[3], "  {},", new[12_346]])
        #expect(lines.count == 20_000 + 3)
        #expect(oldSide(lines) == old)
        #expect(newSide(lines) == new)
    }

    @Test func aBodyLongerThanTheLimitIsCutWithANote() {
        let body = (0..<(LineDiff.limit + 5)).map { "line \($0)" }.joined(separator: "\n")
        let entry = HistoryEntry(
            id: 1, environment: "local", endpoint: "Items", method: "GET", url: "http://l/items",
            status: 200, reason: "OK", responseHeaders: ["Content-Type": "text/plain"],
            responseBody: Data(body.utf8))
        let lines = LineDiff.comparableLines(entry)
        #expect(lines.last == "… 5 more body lines, not compared")
        #expect(lines.dropLast().last == "line \(LineDiff.limit - 1)")
    }
}
