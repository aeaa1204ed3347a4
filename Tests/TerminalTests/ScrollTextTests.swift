import Foundation
import Testing

@testable import Terminal

/// A source that records which lines were asked for.
final class CountingSource: TextSource, @unchecked Sendable {
    let lineCount: Int
    let lineLength: Int?
    private let lock = NSLock()
    private var requested: Set<Int> = []
    private var calls = 0

    init(lineCount: Int, lineLength: Int? = nil) {
        self.lineCount = lineCount
        self.lineLength = lineLength
    }

    func line(_ index: Int, maxCharacters: Int) -> [Span] {
        lock.withLock {
            _ = requested.insert(index)
            calls += 1
        }
        if let lineLength { return [Span(String(repeating: "y", count: min(lineLength, maxCharacters)))] }
        return [Span("line \(index) " + String(repeating: "x", count: index % 50))]
    }

    var requestedLines: Set<Int> { lock.withLock { requested } }
    var callCount: Int { lock.withLock { calls } }
}

@Suite struct ScrollTextTests {
    @Test func onlyTheVisibleLinesAreFetched() {
        let source = CountingSource(lineCount: 5_000_000)
        var grid = CellGrid(width: 80, height: 24)
        let state = ScrollTextState(topLine: 2_000_000, wrap: false)
        ScrollText(source: source, state: state).render(into: &grid, area: grid.bounds)
        #expect(source.requestedLines == Set(2_000_000..<2_000_024))
    }

    @Test func wrapOnBreaksLongLinesAndStartsAtTheTopRow() {
        let source = LinesTextSource(text: "abcdefghij\nshort")
        var grid = CellGrid(width: 4, height: 3)
        ScrollText(source: source, state: ScrollTextState(topRow: 1, wrap: true)).render(into: &grid, area: grid.bounds)
        #expect(grid.textLines() == ["efgh", "ij  ", "shor"])
    }

    @Test func wrapOffScrollsSideways() {
        let source = LinesTextSource(text: "abcdefghij")
        var grid = CellGrid(width: 4, height: 1)
        ScrollText(source: source, state: ScrollTextState(leftColumn: 3, wrap: false)).render(
            into: &grid, area: grid.bounds)
        #expect(grid.textLines() == ["defg"])
    }

    @Test func scrollingByRowsWalksThroughWrappedLines() {
        let source = LinesTextSource(text: "abcdefghij\nshort\nend")
        var state = ScrollTextState(wrap: true)
        state.scroll(by: 2, source: source, width: 4)
        #expect(state.topLine == 0 && state.topRow == 2)
        state.scroll(by: 1, source: source, width: 4)
        #expect(state.topLine == 1 && state.topRow == 0)
        state.scroll(by: -2, source: source, width: 4)
        #expect(state.topLine == 0 && state.topRow == 1)
        state.scroll(by: 100, source: source, width: 4)
        #expect(state.topLine == 2)
    }

    @Test func searchMatchesAreHighlightedAndLineNumbersShow() {
        let source = LinesTextSource(text: "find the Needle\nno match\nneedle again")
        var grid = CellGrid(width: 20, height: 3)
        let state = ScrollTextState(wrap: false, showLineNumbers: true, search: "needle", currentMatchLine: 2)
        ScrollText(source: source, state: state).render(into: &grid, area: grid.bounds)
        #expect(grid.textLines()[0] == "1 find the Needle   ")
        #expect(grid[11, 0].style.role == .searchMatch)
        #expect(grid[2, 2].style.role == .searchCurrent)
        #expect(grid[0, 0].style.role == .dim)
    }

    @Test func escapeSequencesInABodyAreDrawnInert() {
        let body = LineIndex(text: "before\u{1B}]0;owned\u{7}after\u{1B}[2J")
        var grid = CellGrid(width: 40, height: 1)
        ScrollText(source: BytesTextSource(body), state: ScrollTextState()).render(into: &grid, area: grid.bounds)
        #expect(grid.textLines()[0].hasPrefix("before␛]0;owned\\u{7}after␛[2J"))
    }

    @Test func pagingThroughOneHugeLineMeasuresItOnce() {
        let source = CountingSource(lineCount: 1, lineLength: 1_000_000)
        var state = ScrollTextState(wrap: true)
        state.scroll(by: 50, source: source, width: 100)
        #expect(state.topRow == 50)
        #expect(source.callCount == 1)
    }
}
