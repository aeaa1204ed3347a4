import Testing

@testable import Terminal

@Suite struct SanitizerTests {
    @Test func escapeSequencesShowAsVisibleText() {
        #expect(Sanitizer.sanitize("\u{1B}[2J") == "␛[2J")
        #expect(Sanitizer.sanitize("\u{1B}]0;owned\u{7}") == "␛]0;owned\\u{7}")
    }

    @Test func controlCharactersShowAsEscapes() {
        #expect(Sanitizer.sanitize("a\u{0}b\u{7F}c\u{9B}") == "a\\u{0}b\\u{7F}c\\u{9B}")
        #expect(Sanitizer.sanitize("line\r") == "line\\u{D}")
    }

    @Test func bidiOverridesAreShownNotObeyed() {
        #expect(Sanitizer.sanitize("abc\u{202E}def") == "abc\\u{202E}def")
    }

    @Test func tabsBecomeSpaces() {
        #expect(Sanitizer.sanitize("a\tb") == "a    b")
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(Sanitizer.sanitize(bytes: [0x61, 0xFF, 0x62, 0xC3]) == "a\u{FFFD}b\u{FFFD}")
    }

    @Test func safeTextIsUnchanged() {
        let text = "héllo 日本 🚀 שלום e\u{301}"
        #expect(Sanitizer.sanitize(text) == text)
    }

    @Test func gridDrawingNeverStoresAControlCharacter() {
        var grid = CellGrid(width: 20, height: 1)
        grid.put("\u{1B}[2J\u{1B}]0;x\u{7}", x: 0, y: 0)
        let controls = grid.cells.flatMap { $0.text.unicodeScalars }.filter { $0.value < 0x20 || $0.value == 0x7F }
        #expect(controls.isEmpty)
        #expect(grid.textLines()[0].hasPrefix("␛[2J␛]0;x\\u{7}"))
        #expect(grid[0, 0].style.role == .escaped)
        #expect(grid[1, 0].style.role == .text)
    }
}
