import Testing

@testable import Terminal

@Suite struct FuzzyMatchTests {
    @Test func charactersMatchInOrderNotTogether() throws {
        let match = try #require(FuzzyMatch.match("gtusr", in: "Get user"))
        let text: [Character] = Array("Get user")
        #expect(match.positions.map { text[$0] } == ["G", "t", "u", "s", "r"])
        #expect(FuzzyMatch.match("rg", in: "Get user") == nil, "order matters")
        #expect(FuzzyMatch.match("xyz", in: "Get user") == nil)
    }

    @Test func caseAndTheQuerysSpacesAreIgnored() {
        #expect(FuzzyMatch.match("GET USER", in: "get user") != nil)
        #expect(FuzzyMatch.match("", in: "anything")?.score == 0)
    }

    @Test func wordStartsAndRunsRankFirst() {
        let ranked = FuzzyMatch.rank("gu", ["Debug output", "Get user", "Go up"]).map(\.index)
        #expect(ranked.first == 1 || ranked.first == 2)
        #expect(ranked.last == 0, "g and u inside words rank below word starts")
        let shorter = FuzzyMatch.rank("get user", ["Get user avatar", "Get user"]).map(\.index)
        #expect(shorter == [1, 0], "the shorter text wins a tie")
    }

    @Test func aWordStartIsPreferredOverAnEarlierLetterInsideAWord() throws {
        // The "p" of "path" rather than the one inside "alpha"; an adjacent letter stays first.
        let match = try #require(FuzzyMatch.match("ap", in: "alpha path"))
        #expect(match.positions == [0, 6])
        #expect(FuzzyMatch.match("ap", in: "api path")?.positions == [0, 1])
    }
}
