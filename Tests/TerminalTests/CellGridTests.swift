import Testing

@testable import Terminal

@Suite struct CellGridTests {
    @Test func wideCharactersTakeACellAndAContinuation() {
        var grid = CellGrid(width: 6, height: 1)
        let end = grid.put("日本", x: 0, y: 0)
        #expect(end == 4)
        #expect(grid[0, 0].text == "日")
        #expect(grid[1, 0].isContinuation)
        #expect(grid[2, 0].text == "本")
        #expect(grid.textLines() == ["日本  "])
    }

    @Test func aWideCharacterThatDoesNotFitBecomesASpace() {
        var grid = CellGrid(width: 3, height: 1)
        grid.put("a日本", x: 0, y: 0)
        #expect(grid.textLines() == ["a日"])
        var clipped = CellGrid(width: 4, height: 1)
        clipped.put("日本", x: 1, y: 0, clip: Rect(x: 0, y: 0, width: 4, height: 1))
        #expect(clipped.textLines() == [" 日 "])
        var scrolled = CellGrid(width: 4, height: 1)
        scrolled.fill(scrolled.bounds, with: "x")
        scrolled.put("日本語", x: -1, y: 0)
        #expect(scrolled.textLines() == [" 本 "])
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = CellGrid(width: 4, height: 1)
        grid.put("日本", x: 0, y: 0)
        grid.put("x", x: 1, y: 0)
        #expect(grid.textLines() == [" x本"])
        #expect(!grid[1, 0].isContinuation)
    }

    @Test func combiningMarksStayWithTheirLetter() {
        var grid = CellGrid(width: 4, height: 1)
        grid.put("e\u{301}x", x: 0, y: 0)
        #expect(grid[0, 0].text == "e\u{301}")
        #expect(grid[1, 0].text == "x")
    }

    @Test func textIsClippedToTheRectangle() {
        var grid = CellGrid(width: 10, height: 2)
        grid.put("abcdefgh", x: 2, y: 1, clip: Rect(x: 3, y: 1, width: 3, height: 1))
        #expect(grid.textLines() == ["          ", "   bcd    "])
    }

    @Test func snapshotShowsTextStyleMaskAndLegend() {
        var grid = CellGrid(width: 5, height: 1)
        grid.put("ab", x: 0, y: 0, style: Style(.title, [.bold]))
        grid.put("日", x: 2, y: 0, style: Style(.error))
        grid.cursor = Point(x: 4, y: 0)
        #expect(grid.snapshot() == "|ab日 |\n|aabb.|\na=title+b\nb=error\ncursor=4,0\n")
    }
}
