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
        for word in ["true", "True", "TRUE", "tRUE", "yes", "Yes", "YES", "on", "On", "ON"] {
            #expect(try node(word).flag == true, "\(word)")
        }
        for word in ["false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"] {
            #expect(try node(word).flag == false, "\(word)")
        }
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
            #expect(
                flag == byRule.bool,
                "\(word): \(String(describing: flag)) against \(String(describing: byRule.bool)), \(byRule.tag)")
        }
    }

    @Test func aMappingsValueIsFoundByTheKeysTextQuotedOrNot() throws {
        let mapping = try #require(
            try Yams.compose(yaml: "name: a\n'path': /b\n\"1\": one\ntrue: yes\n", .explorerFiles)?.mapping)
        #expect(mapping.value("name")?.string == "a")
        #expect(mapping.value("path")?.string == "/b")
        #expect(mapping.value("1")?.string == "one")
        #expect(mapping.value("true")?.string == "yes")
        #expect(mapping.value("Name") == nil)
        // The same answers as Yams' own subscript.
        for key in ["name", "path", "1", "true", "Name"] { #expect(mapping.value(key) == mapping[key], "\(key)") }
    }

    @Test func placeholdersAreFoundByteByByteAsBefore() {
        func names(_ text: String) -> [String] { Template.placeholders(in: text).map(\.name) }
        #expect(names("x{{{a}}}y") == ["{a"])
        #expect(names("{{a}}}}{{ b }}") == ["a", "b"])
        #expect(names("}} {{a") == [])
        #expect(names("{{}}") == [""])
        let text = "é{{ naïve }}ü{{😀}}"
        let found = Template.placeholders(in: text)
        #expect(found.map(\.name) == ["naïve", "😀"])
        #expect(found.map { String(text[$0.range]) } == ["{{ naïve }}", "{{😀}}"])
        #expect(found.map { String(text[$0.inner]) } == [" naïve ", "😀"])
    }
}
