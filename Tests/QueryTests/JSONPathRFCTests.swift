import Foundation
import NetworkingCore
import Testing

@testable import Query

/// What the compliance suite does not check: the lenient syntax of the filter box, the
/// messages a user reads, the limits that keep a query or a document from exhausting the
/// stack, numbers beyond `Double`, I-Regexp's translation, normalized paths and speed.
@Suite struct JSONPathRFCTests {
    private func values(_ expression: String, _ document: String, syntax: JSONPath.Syntax = .strict) throws
        -> [JSONValue]
    {
        try JSONPath(expression, syntax: syntax).evaluate(try JSONValue(parsing: document))
    }

    /// The message of the failure `expression` throws when parsed strictly.
    private func message(_ expression: String, syntax: JSONPath.Syntax = .strict) -> String {
        do {
            _ = try JSONPath(expression, syntax: syntax)
            return "accepted"
        } catch {
            return String(describing: error)
        }
    }

    // MARK: - Lenient and strict syntax

    @Test(arguments: [
        ("items[0]", "$.items[0]"), (".items[0]", "$.items[0]"), ("[?(@.id > 1)]", "$[?(@.id > 1)]"),
        ("  $.items  ", "$.items"),
        ("$.odd-key", "$['odd-key']"), ("items..id", "$.items..id"), ("", "$"), ("\t\n", "$"),
    ])
    func theLenientSyntaxAcceptsWhatPeopleType(_ typed: String, _ standard: String) throws {
        let document = #"{"items": [{"id": 1}, {"id": 2}], "odd-key": true}"#
        #expect(try values(typed, document, syntax: .lenient) == values(standard, document))
        #expect(try JSONPath(typed).description == typed, "JSONPath(_:) is the lenient syntax and keeps the text")
    }

    @Test(arguments: ["items[0]", ".items", "[0]", " $.a", "$.a ", "$.a\n", "$.odd-key", ""])
    func theStrictSyntaxRefusesTheExtensions(_ expression: String) {
        #expect(throws: JSONPath.Failure.self) { try JSONPath(strict: expression) }
    }

    @Test func bothSyntaxesRefuseADigitAfterADot() {
        #expect(
            message("$.1")
                == #"A member name after . cannot start with "1" (write ['1…'] for such a name, or [1…] for an index) at position 3 of $.1"#
        )
        #expect(message("items.0", syntax: .lenient).contains("cannot start with \"0\""))
    }

    @Test func blanksInsideBracketsMakeAQueryNotSingularOnlyInTheStrictSyntax() throws {
        // `singular-query` is built of `name-segment = "[" name-selector "]"`, without S.
        #expect(message("$[?@[ 'a' ] == 1]").contains("cannot be compared"))
        #expect(message("$[?length(@[ 0 ]) == 1]").contains("needs a single value here"))
        #expect(try values("$[?@[ 'a' ] == 1]", #"[{"a": 1}, {"a": 2}]"#, syntax: .lenient) == [["a": 1]])
        #expect(
            try values("$[?@ ['a'] == 1]", #"[{"a": 1}, {"a": 2}]"#) == [["a": 1]],
            "blanks between segments are allowed")
    }

    // MARK: - Messages

    @Test(arguments: [
        ("$.a[1", "Expected ] at position 6 of $.a[1"),
        (
            "$.items[",
            "Expected a selector (a quoted name, *, an index, a slice such as 1:3, or a filter ?@.a), not the end, at position 9 of $.items["
        ),
        ("$[1 2]", #"Expected , or ] instead of "2" at position 5 of $[1 2]"#),
        ("a", "A JSONPath query starts with $ (as in $.items[0]) at position 1 of a"),
        (
            "$['a\\x']",
            #"\x is not an escape (the escapes are \b \f \n \r \t \/ \\ \' and \uXXXX) at position 5 of $['a\x']"#
        ),
        ("$['\\uDC00']", #"\uDC00 is a low surrogate without a high surrogate before it at position 4 of $['\uDC00']"#),
        ("$[-0]", "-0 is not an index; write 0 at position 3 of $[-0]"),
        (
            "$[9007199254740992]",
            "9007199254740992 is out of range (integers are within ±9007199254740991) at position 3 of $[9007199254740992]"
        ),
        ("$[?(@.a == 1]", "Expected ) to close the ( at position 4 at position 13 of $[?(@.a == 1]"),
        ("$['a]", "The string opened at position 3 is not closed (expected ') at position 6 of $['a]"),
    ])
    func aMessageSaysWhatAndWhere(_ expression: String, _ expected: String) {
        #expect(message(expression) == expected)
    }

    @Test func aFailureCarriesItsPosition() {
        do {
            _ = try JSONPath(strict: "$.a[1")
        } catch let failure as JSONPath.Failure {
            #expect(failure.position == 6)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    // MARK: - Function types (§2.4.3)

    @Test(
        arguments: [
            ("$[?length(@.a) == 1]", nil),
            ("$[?count(@.*) > 1]", nil),
            ("$[?match(@.a, 'x.*')]", nil),
            ("$[?value(@..a) == 1]", nil),
            ("$[?length(value(@.*)) == 1]", nil),
            (
                "$[?length(@.a)]",
                "length() gives a value, which is not a test: compare it, as in length(@.a) == 1 at position 4"
            ),
            (
                "$[?count(1) == 1]",
                "count() needs a query here (its nodes, as in count(@.*)), not a literal or a test at position 10"
            ),
            (
                "$[?count(length(@)) == 1]",
                "count() needs a query here (its nodes, as in count(@.*)), and length() gives a value at position 10"
            ),
            ("$[?length(@.*) == 1]", "length() needs a single value here, and this query can select several nodes"),
            (
                "$[?length(@.a == 1) == 1]",
                "length() needs a value here (a literal, a singular query or a function), not a test"
            ),
            (
                "$[?match(@.a, 'x') == true]",
                "match() gives true or false, which cannot be compared: use it alone as a test"
            ),
            ("$[?length(@.a, 1) == 1]", "length() takes 1 argument, not 2"),
            ("$[?foo(@.a)]", "Unknown function foo() (the functions are length, count, match, search and value)"),
            ("$[?@.* == 1]", "can select several nodes, so it cannot be compared"),
            ("$[?true]", "The literal true alone is not a test"),
        ] as [(String, String?)])
    func functionsAreWellTyped(_ expression: String, _ problem: String?) {
        let text = message(expression)
        if let problem {
            #expect(text.contains(problem), "\(text)")
        } else {
            #expect(text == "accepted")
        }
    }

    // MARK: - Limits

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        let depth = JSONPath.maximumNesting
        let fits =
            "$[?" + String(repeating: "(", count: depth - 1) + "@.a" + String(repeating: ")", count: depth - 1) + "]"
        #expect(throws: Never.self) { try JSONPath(strict: fits) }
        let deeper = "$[?" + String(repeating: "(", count: depth) + "@.a" + String(repeating: ")", count: depth) + "]"
        #expect(message(deeper).contains("nest deeper than 64 levels"))
        let filters = "$" + String(repeating: "[?@", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(message(filters).contains("nest deeper than 64 levels"))
        // A query far past the limit is refused just as calmly.
        #expect(throws: JSONPath.Failure.self) { try JSONPath(strict: "$[?" + String(repeating: "(", count: 100_000)) }
        #expect(throws: JSONPath.Failure.self) { try JSONPath(strict: "$[?" + String(repeating: "!(", count: 100_000)) }
    }

    @Test func aDocumentTenThousandLevelsDeepIsWalkedWithoutRecursion() throws {
        var value = JSONValue.number("7")
        for _ in 0..<10_000 { value = .array([value]) }
        // Built here rather than parsed: the reader refuses documents deeper than 512 levels.
        var everything = try JSONPath(strict: "$..*").evaluate(value)
        #expect(everything.count == 10_000)
        #expect(try JSONPath(strict: "$..[?@ == 7]").evaluate(value) == [.number("7")])
        #expect(
            try JSONPath(strict: "$[?@ == $[0]]").evaluate(.array([value, value])).count == 2,
            "deep equality uses its own stack")
        // The matches share the document's levels: let go of them while it still holds them.
        everything = []
        Self.dismantle(&value)
    }

    /// Lets go of a deeply nested value one level at a time, from the top: letting go of a
    /// 10,000-deep value at once would recurse in its deinitializer (a limit of Swift's
    /// indirect enums, not of the evaluator).
    private static func dismantle(_ value: inout JSONValue) {
        var level = value
        value = .null
        while case .array(let elements) = level {
            level = elements.first ?? .null
        }
    }

    @Test func descendingAFiveMegabyteDocumentIsQuick() throws {
        let item =
            #"{"id": 12345, "name": "an item with a name", "tags": ["a", "b", "c"], "price": {"amount": 12.5, "currency": "EUR"}}"#
        let text = "[" + Array(repeating: item, count: 50_000).joined(separator: ",") + "]"
        #expect(text.utf8.count > 5_000_000)
        let document = try JSONValue(parsing: text)
        let clock = ContinuousClock()
        var count = 0
        let elapsed = try clock.measure {
            count = try JSONPath(strict: "$..*").evaluate(document).count
        }
        #expect(count == 50_000 * 10)
        #expect(elapsed < .seconds(5), "$..* on 5 MB took \(elapsed)")
        let filtered = try JSONPath(strict: "$[?@.price.amount > 12 && match(@.name, '.*name')].id").evaluate(document)
        #expect(filtered.count == 50_000)
    }

    // MARK: - Comparisons

    @Test(arguments: [
        ("$[?@ == 1]", #"[1, 1.0, 10e-1, 0.1e1, 2, "1"]"#, 4),
        ("$[?@ > 1e308]", #"[1e309, 1e308, 2e308, -1e400]"#, 2),
        ("$[?@ == 12345678901234567890]", #"[12345678901234567890, 12345678901234567891]"#, 1),
        ("$[?@ < -0]", #"[0, -0.0, -1e-400, 1e-400]"#, 1),
        (
            "$[?@ == $[0]]",
            #"[{"a": [1.0, {"b": 2e0, "c": 0}]}, {"a": [1, {"c": 0, "b": 2}]}, {"a": [1, {"b": 3, "c": 0}]}]"#, 2
        ),
        ("$[?@ == 'e\u{301}']", #"["é", "e\u0301"]"#, 1),
        ("$[?@ < 'b']", #"["a", "B", "é", "b", 1]"#, 2),
    ])
    func comparisonsFollowTheRFC(_ expression: String, _ document: String, _ expected: Int) throws {
        #expect(try values(expression, document).count == expected)
    }

    @Test func numbersCompareByValueWhateverTheirSpelling() {
        #expect(JSONNumber.compare("1", "1.0") == .orderedSame)
        #expect(JSONNumber.compare("100", "1e2") == .orderedSame)
        #expect(JSONNumber.compare("-0", "0") == .orderedSame)
        #expect(JSONNumber.compare("0.001", "1E-3") == .orderedSame)
        #expect(JSONNumber.compare("1e400", "1e399") == .orderedDescending)
        #expect(JSONNumber.compare("-1e400", "-1e399") == .orderedAscending)
        #expect(JSONNumber.compare("9007199254740993", "9007199254740992") == .orderedDescending)
    }

    // MARK: - I-Regexp

    @Test(arguments: [
        ("a.c", "abc", true), ("a.c", "a\nc", false), ("a.c", "a\rc", false), ("a.c", "a\u{2028}c", true),
        ("a.c", "a😀c", true),
        (#"\p{Lu}+"#, "ÀB", true), (#"\p{Lu}+"#, "Ab", false), (#"\P{L}"#, "1", true), ("[a-c]{2,3}", "abc", true),
        ("[^.]", ".", false), (#"[\-x]"#, "-", true), ("a|b", "b", true), ("(ab)+", "abab", true),
        ("#", "#", true), ("a b", "a b", true), ("^ab", "ab", true), ("ab$", "ab", true), ("ab$", "ab\n", false),
    ])
    func matchReadsIRegexp(_ pattern: String, _ text: String, _ expected: Bool) throws {
        let document = JSONValue.array([.string(text)])
        let quoted = pattern.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        #expect(
            try JSONPath(strict: "$[?match(@, '\(quoted)')]").evaluate(document).count == (expected ? 1 : 0),
            "\(pattern) on \(text)")
    }

    @Test(arguments: [
        #"\d"#, #"\w"#, "a**", "(?:a)", "a{,2}", "[]", #"\p{IsBasicLatin}"#, #"\1"#, "(a", "a)", "[a", "a{2",
    ])
    func aPatternThatIsNotAnIRegexpMatchesNothing(_ pattern: String) {
        #expect(IRegexp.translate(pattern) == nil, "\(pattern)")
    }

    // MARK: - Results

    @Test func locateGivesNormalizedPaths() throws {
        let document = try JSONValue(parsing: #"{"a": [{"it's": 1}, {"b\n": 2}]}"#)
        let located = try JSONPath(strict: "$..[?@ > 0]").locate(document)
        #expect(located.map(\.path) == [#"$['a'][0]['it\'s']"#, #"$['a'][1]['b\n']"#])
    }

    @Test(arguments: [
        ("$.a", false), ("$['a'][0]", false), ("$.a[-1].b", false), ("$", false), ("$.*", true), ("$..a", true),
        ("$[0,1]", true), ("$[0:1]", true), ("$[?@.a]", true),
    ])
    func indefiniteIsTheOppositeOfSingular(_ expression: String, _ indefinite: Bool) throws {
        #expect(try JSONPath(strict: expression).isIndefinite == indefinite)
    }

    @Test func aRepeatedKeyIsReadAsItsLastValue() throws {
        #expect(try values("$.a", #"{"a": 1, "a": 2}"#) == [.number("2")])
    }
}
