import Testing

@testable import Terminal

@Suite struct TextFieldTests {
    @Test func typingAndDeletingWorkOnWholeGraphemes() {
        var field = TextFieldState("caf")
        field.insert("e\u{301}")
        #expect(field.text == "cafe\u{301}" && field.cursor == 4)
        field.insert("👍🏽")
        field.deleteBackward()
        #expect(field.text == "cafe\u{301}")
        field.moveCursor(by: -1)
        field.deleteForward()
        #expect(field.text == "caf")
    }

    @Test func wordJumpsAndKills() {
        var field = TextFieldState("get /users/42 now")
        field.handle(KeyPress(.left, .ctrl))
        #expect(field.cursor == 14)
        field.handle(KeyPress(.left, .ctrl))
        #expect(field.cursor == 11)
        field.handle(.ctrl("w"))
        #expect(field.text == "get /42 now")
        field.handle(.ctrl("k"))
        #expect(field.text == "get /")
        field.handle(.ctrl("a"))
        field.handle(.alt("f"))
        #expect(field.cursor == 3)
        field.handle(.ctrl("u"))
        #expect(field.text == " /")
    }

    @Test func pastedControlCharactersAreNotStored() {
        var field = TextFieldState()
        field.handle(.paste("line1\nline2\u{1B}[2J\t!"))
        #expect(field.text == "line1 line2[2J !")
    }

    @Test func theFieldScrollsToKeepTheCursorVisible() {
        var grid = CellGrid(width: 5, height: 1)
        TextField(state: TextFieldState("abcdefgh"), focused: true).render(into: &grid, area: grid.bounds)
        #expect(grid.textLines() == ["efgh "])
        #expect(grid.cursor == Point(x: 4, y: 0))
    }
}
