import Testing

@testable import Terminal

@Suite struct ByteSearchTests {
    private func contains(_ needle: String, in haystack: String) -> Bool {
        Array(haystack.utf8).withUnsafeBytes { ByteSearch.contains(Array(needle.utf8), in: $0) }
    }

    @Test func findsARunOfBytesWhereverItIs() {
        #expect(contains("com", in: "command"))
        #expect(contains("and", in: "command"))
        #expect(contains("command", in: "command"))
        #expect(contains("mma", in: "commmand"), "a partial match before the match")
        #expect(contains("", in: ""))
        #expect(contains("", in: "x"))
        #expect(contains("é", in: "café"))
    }

    @Test func saysNoWhenItIsNotThere() {
        #expect(!contains("commands", in: "command"))
        #expect(!contains("x", in: ""))
        #expect(!contains("Command", in: "command"), "byte for byte: case counts")
        #expect(!contains("mmd", in: "command"))
    }
}
