import Foundation
import Networking
import Testing

/// The Public Suffix List compiled in (`publicsuffix/public_suffix_list.dat`), checked with the
/// list's own test cases (`Tests/Fixtures/publicsuffix/test_psl.txt`, from its repository):
/// every `checkPublicSuffix(name, registrable)` line, the `null` input left out (Swift has no
/// null string to pass).
@Suite struct PublicSuffixListTests {
    /// The list's test cases: the name, and its registrable domain (`nil` for a public suffix
    /// or a name that is not one).
    static func cases() throws -> [(name: String, registrable: String?)] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/publicsuffix/test_psl.txt")
        let text = try String(contentsOf: file, encoding: .utf8)
        let pattern = try Regex(#"^checkPublicSuffix\((null|'[^']*'), (null|'[^']*')\);"#)
        func argument(_ text: Substring) -> String? { text == "null" ? nil : String(text.dropFirst().dropLast()) }
        return text.split(separator: "\n").compactMap { line in
            guard let match = line.firstMatch(of: pattern), let name = argument(match.output[1].substring!) else {
                return nil
            }
            return (name, argument(match.output[2].substring!))
        }
    }

    @Test func everyTestCaseOfTheListGivesItsRegistrableDomain() throws {
        let cases = try Self.cases()
        #expect(cases.count == 77)
        let wrong = cases.filter { PublicSuffixList.shared.registrableDomain(of: $0.name) != $0.registrable }
            .map {
                "\($0.name): \(PublicSuffixList.shared.registrableDomain(of: $0.name) ?? "null"), not \($0.registrable ?? "null")"
            }
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
    }

    @Test func suffixesFromTheListsSectionsAndTheDefaultRule() {
        let list = PublicSuffixList.shared
        #expect(list.isPublicSuffix("co.uk") && list.isPublicSuffix("github.io") && list.isPublicSuffix("com"))
        #expect(list.isPublicSuffix("unlisted-tld"))
        #expect(!list.isPublicSuffix("example.co.uk") && !list.isPublicSuffix("me.github.io"))
        #expect(list.publicSuffix(of: "www.example.co.uk") == "co.uk")
        #expect(list.registrableDomain(of: "a.b.me.github.io") == "me.github.io")
    }

    @Test func wildcardsAndExceptionsFollowTheListsAlgorithm() {
        let list = PublicSuffixList(
            rules: "// a comment\nck\n*.ck\n!www.ck\njp\n*.kawasaki.jp trailing words\n!city.kawasaki.jp\n")
        #expect(list.publicSuffix(of: "shop.any.ck") == "any.ck")
        #expect(list.publicSuffix(of: "www.ck") == "ck")
        #expect(list.registrableDomain(of: "a.b.kawasaki.jp") == "a.b.kawasaki.jp")
        #expect(list.registrableDomain(of: "city.kawasaki.jp") == "city.kawasaki.jp")
        #expect(list.publicSuffix(of: "example.other") == "other")
        #expect(list.publicSuffix(of: ".ck") == nil && list.publicSuffix(of: "a..ck") == nil)
    }
}
