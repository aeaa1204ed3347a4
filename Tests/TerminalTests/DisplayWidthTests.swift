import Testing

@testable import Terminal

@Suite struct DisplayWidthTests {
    @Test func asciiTakesOneColumnEach() {
        #expect(DisplayWidth.of("hello") == 5)
    }

    @Test func cjkAndFullwidthTakeTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국") == 4)
        #expect(DisplayWidth.of("ＡＢ") == 4)
    }

    @Test func emojiTakeTwoColumnsIncludingSequences() {
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)
        #expect(DisplayWidth.of("🇫🇷") == 2)
        #expect(DisplayWidth.of("❤️") == 2)
    }

    @Test func combiningMarksAddNothing() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("a\u{300}\u{301}\u{302}") == 1)
        #expect(DisplayWidth.of("\u{200B}") == 0)
    }

    @Test func rightToLeftLettersTakeOneColumn() {
        #expect(DisplayWidth.of("שלום") == 4)
        #expect(DisplayWidth.of("مرحبا") == 5)
    }

    @Test func truncateCutsOnGraphemesAndAddsAnEllipsis() {
        #expect(DisplayWidth.truncate("日本語テキスト", to: 7) == "日本語…")
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
    }

    @Test func padNeverSplitsAWideCharacter() {
        #expect(DisplayWidth.pad("日本", to: 3) == "日 ")
        #expect(DisplayWidth.pad("ab", to: 4) == "ab  ")
    }

    @Test func theWideTableIsSortedAndDisjointSoItsBinarySearchIsExact() {
        let ranges = DisplayWidth.wideRanges
        for (a, b) in zip(ranges, ranges.dropFirst()) { #expect(a.upperBound < b.lowerBound) }
        for value in stride(from: UInt32(0x1000), to: 0x40000, by: 7) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(DisplayWidth.isWide(scalar) == ranges.contains { $0.contains(value) })
        }
    }
}
