import Testing

@testable import Terminal

@Suite struct LineIndexTests {
    @Test func findsEveryLineAndDropsLineBreaks() {
        let index = LineIndex(text: "one\r\ntwo\n\nfour")
        #expect(index.lineCount == 4)
        #expect((0..<4).map { index.line($0) } == ["one", "two", "", "four"])
    }

    @Test func aTrailingLineBreakAddsNoEmptyLine() {
        #expect(LineIndex(text: "a\nb\n").lineCount == 2)
        #expect(LineIndex(text: "").lineCount == 1)
        #expect(LineIndex(text: "\n").lineCount == 1)
    }

    @Test func longLinesAreCutOnACharacterBoundary() {
        let index = LineIndex(text: "日本語")
        #expect(index.line(0, maxBytes: 4) == "日")
        #expect(index.line(0, maxBytes: 6) == "日本")
    }

    @Test func searchFindsTheNextLineIgnoringCaseAndWraps() {
        let index = LineIndex(text: "alpha\nBeta\ngamma\nbeta")
        #expect(index.firstLine(containing: "beta", from: 0) == 1)
        #expect(index.firstLine(containing: "BETA", from: 2) == 3)
        #expect(index.firstLine(containing: "alpha", from: 2) == 0)
        #expect(index.firstLine(containing: "beta", from: 0, backwards: true) == 3)
        #expect(index.firstLine(containing: "delta", from: 0) == nil)
    }
}
