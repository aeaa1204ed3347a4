import Testing
import Yams
@testable import Workspace

/// The explorer reads its YAML without Yams's regular-expression rules; booleans are read by
/// `Node.flag` as they were read with Yams's rule for them.
@Suite struct YAMLResolverTests {
    private func node(_ yaml: String) throws -> Node {
        try #require(try Yams.compose(yaml: "value: \(yaml)\n", .explorerFiles)?.mapping?["value"])
    }

    @Test func plainBooleanWordsAreFlags() throws {
        for word in ["true", "True", "TRUE", "tRUE", "yes", "Yes", "YES", "on", "On", "ON"] { #expect(try node(word).flag == true, "\(word)") }
        for word in ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"] { #expect(try node(word).flag == false, "\(word)") }
    }

    @Test func quotedWordsOtherCasesAndOtherScalarsAreNot() throws {
        for text in ["'true'", "\"no\"", "y", "1", "0", "null", "~", "text", "[true]", "{a: true}"] {
            #expect(try node(text).flag == nil, "\(text)")
        }
    }

    @Test func theWordsAreThoseYamsReadsWithItsRuleForBooleans() throws {
        // The explorer's files were read with that one rule before.
        let withTheRule = Resolver.basic.appending(.bool)
        for word in ["true", "Yes", "OFF", "on", "'true'", "\"No\"", "tRUE", "y", "1", "text"] {
            let byRule = try #require(try Yams.compose(yaml: "value: \(word)\n", withTheRule)?.mapping?["value"])
            let flag = try node(word).flag
            #expect(flag == byRule.bool, "\(word): \(String(describing: flag)) against \(String(describing: byRule.bool)), \(byRule.tag)")
        }
    }
}
