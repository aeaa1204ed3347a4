import Testing

@testable import Terminal

@Suite struct WordWrapTests {
    private func rows(_ text: String, _ width: Int) -> [String] {
        WordWrap.rows(Sanitizer.characters([Span(text)]), width: width).map { String($0.map(\.character)) }
    }

    @Test func breaksAtTheLastSpaceAndDropsIt() {
        #expect(rows("The server hit a snag & gave up.", 12) == ["The server", "hit a snag &", "gave up."])
    }

    @Test func keepsAnIndentAndCutsAWordLongerThanARow() {
        #expect(rows("   --globoff \\", 20) == ["   --globoff \\"])
        #expect(rows("  'https://example.com/a/long/path'", 16) == ["  'https://examp", "le.com/a/long/pa", "th'"])
    }

    @Test func emptyTextOrNoRoomGivesNoRows() {
        #expect(rows("", 10).isEmpty)
        #expect(rows("text", 0).isEmpty)
    }

    @Test func anEmptyParagraphOfADialogIsABlankRow() throws {
        var grid = CellGrid(size: Size(width: 40, height: 12))
        ConfirmDialog(title: "Kept", message: [[Span("first")], [Span("")], [Span("second")]], hints: [])
            .render(into: &grid, area: grid.bounds)
        let lines = grid.textLines()
        let first = try #require(lines.firstIndex { $0.contains("first") })
        let second = try #require(lines.firstIndex { $0.contains("second") })
        #expect(first + 2 == second, "one blank row between them")
    }
}
