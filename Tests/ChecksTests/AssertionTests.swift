import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Query
@testable import Workspace

/// Every query and predicate of `assert:`, each with `not`, on one response a login answers.
@Suite struct AssertionTests {
    private let response = CheckedResponse(
        status: 200,
        headers: HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"),
            ("X-Request-Id", "req-42"),
            ("Set-Cookie", "session=abc123; Path=/; HttpOnly"),
            ("Set-Cookie", "theme=dark"),
        ]),
        body: Data(
            #"{"token":"t-9f8e","roles":["admin","reader"],"id":7,"ratio":0.5,"ok":true,"none":null,"name":"Ada Lovelace","empty":[],"order":"order-1234 placed"}"#
                .utf8),
        durationMilliseconds: 42.34
    )

    private func check(_ text: String) throws -> AssertionResult {
        try Assertion(parsing: text).check(response)
    }

    @Test(arguments: [
        "status == 200", "status != 404", "status < 300", "status <= 200", "status > 199", "status >= 200",
        "header Content-Type contains json", "header Content-Type startsWith application/json",
        "header content-type endsWith utf-8", #"header X-Request-Id matches "^req-\d+$""#,
        "header X-Request-Id == req-42",
        "header X-Missing not exists", "header X-Request-Id exists", "header X-Request-Id isString",
        "jsonpath $.token exists", "jsonpath $.token == \"t-9f8e\"", "jsonpath $.token isString",
        #"jsonpath $.roles[*] includes "admin""#, "jsonpath $.roles[*] not includes \"owner\"",
        "jsonpath $.roles contains admin",
        "jsonpath $.roles isCollection", "jsonpath $.empty isEmpty", "jsonpath $.roles not isEmpty",
        "jsonpath $.id == 7", "jsonpath $.id isInteger", "jsonpath $.ratio isNumber", "jsonpath $.ratio not isInteger",
        "jsonpath $.ratio < 1", "jsonpath $.ok == true", "jsonpath $.ok isBoolean", "jsonpath $.id not isBoolean",
        "jsonpath $.none == null", "jsonpath $.none exists", "jsonpath $.nothing not exists",
        "jsonpath $.name startsWith Ada", "jsonpath $.name endsWith Lovelace",
        #"jsonpath $.name matches "^[A-Z][a-z]+ ""#,
        #"jsonpath $.roles[?(@ == "x y")] isEmpty"#, "jsonpath $.name > Ab", "jsonpath $.name not isCollection",
        "body contains t-9f8e", "body startsWith {", "body isString",
        #"regex "order-(\d+)" == 1234"#, #"regex "order-(\d+)" isString"#, #"regex "nowhere-(\d+)" not exists"#,
        "duration < 500", "duration > 0", "duration isNumber",
        "bytes <= 10000", "bytes > 10", "bytes isInteger",
        "cookie session == abc123", "cookie theme == dark", "cookie missing not exists",
    ])
    func passes(_ text: String) throws {
        let result = try check(text)
        #expect(result.passed, "\(text): \(result.reason ?? "")")
        #expect(result.reason == nil)
    }

    @Test(arguments: [
        ("status == 201", "expected == 201, got 200"),
        ("status not == 200", "expected not == 200, got 200"),
        ("header X-Missing exists", "the header X-Missing is missing"),
        ("header Content-Type contains xml", #"expected contains "xml", got "application/json; charset=utf-8""#),
        ("jsonpath $.nothing exists", "the JSONPath $.nothing selects nothing"),
        (#"jsonpath $.roles[*] includes "owner""#, #"expected includes "owner", got ["admin","reader"]"#),
        ("jsonpath $.id isString", "expected isString, got 7"),
        ("jsonpath $.ok == false", "expected == false, got true"),
        (
            "jsonpath $.name < 5",
            #""Ada Lovelace" and 5 cannot be ordered (compare numbers with numbers, text with text)"#
        ),
        ("duration < 10", "expected < 10, got 42.3"),
        ("cookie session == other", #"expected == "other", got "abc123""#),
    ])
    func failsWithTheActualValueAndAReason(_ text: String, _ reason: String) throws {
        let result = try check(text)
        #expect(!result.passed)
        #expect(result.reason == reason)
        #expect(result.line.hasPrefix("✗ \(text): "))
    }

    @Test func aBodyThatIsNotJSONFailsAJSONPathAssertEvenNegated() throws {
        let html = CheckedResponse(
            status: 500, headers: HTTPHeaders([("Content-Type", "text/html")]), body: Data("<h1>oops</h1>".utf8),
            durationMilliseconds: 1)
        for text in ["jsonpath $.id exists", "jsonpath $.id not exists"] {
            let result = try Assertion(parsing: text).check(html)
            #expect(!result.passed)
            #expect(result.reason == "the body (text/html) is not JSON")
        }
    }

    @Test func aValueMayUseVariables() throws {
        let assertion = try Assertion(parsing: "jsonpath $.token == \"{{token}}\"")
        #expect(assertion.check(response) { $0.replacingOccurrences(of: "{{token}}", with: "t-9f8e") }.passed)
        #expect(!assertion.check(response) { $0.replacingOccurrences(of: "{{token}}", with: "old") }.passed)
    }

    @Test func aNumberIsOrderedAgainstAVariableThatHoldsOne() throws {
        // Hurl's `jsonpath "$.count" > {{one}}`, imported as `> "{{one}}"`.
        let greater = try Assertion(parsing: "jsonpath $.id > \"{{one}}\"")
        #expect(greater.check(response) { $0.replacingOccurrences(of: "{{one}}", with: "1") }.passed)
        #expect(!greater.check(response) { $0.replacingOccurrences(of: "{{one}}", with: "10") }.passed)
        #expect(try Assertion(parsing: "jsonpath $.ratio <= \"0.5\"").check(response).passed)
        #expect(
            try Assertion(parsing: "jsonpath $.id < abc").check(response).reason
                == #"7 and "abc" cannot be ordered (compare numbers with numbers, text with text)"#)
    }

    @Test func parsingReadsQuotesBracketsAndNot() throws {
        let assertion = try Assertion(parsing: #"jsonpath $.items[?(@.name == "a b")] not includes "x \"y\"""#)
        #expect(assertion.query == .jsonpath(#"$.items[?(@.name == "a b")]"#))
        #expect(assertion.isNegated)
        #expect(assertion.predicate == .includes)
        #expect(assertion.expected == .string(#"x "y""#))
        #expect(try Assertion(parsing: "status == 200").expected == .number(200, text: "200"))
        #expect(try Assertion(parsing: "header A == true").expected == .bool(true))
        #expect(try Assertion(parsing: "header A contains two words").expected == .string("two words"))
    }

    @Test(
        arguments: [
            ("statuz == 200", 0, #""statuz" is not a query"#, #"Did you mean "status"?"#),
            ("status = 200", 7, #""=" is not a predicate"#, nil),
            ("status equals 200", 7, #""equals" is not a predicate"#, nil),
            ("jsonpath $.a containz x", 13, #""containz" is not a predicate"#, #"Did you mean "contains"?"#),
            ("header", 6, "header needs a NAME, as in: header Content-Type contains json", nil),
            ("status ==", 9, "== needs a value after it, as in: status == 200", nil),
            ("status exists 200", 14, #"exists takes no value; remove "200"."#, nil),
            ("jsonpath $.items[ exists", 9, #"the JSONPath "$.items[ exists" is not valid"#, nil),
            ("status == ok", 10, #"status is a number: compare it with a number, not "ok"."#, nil),
            (#"body matches "([a-z""#, 13, "is not a valid regular expression", nil),
            ("status not", 10, #""not" must be followed by a predicate"#, nil),
        ] as [(String, Int, String, String?)])
    func malformedAssertionsSayWhatAndWhere(_ text: String, _ offset: Int, _ problem: String, _ hint: String?) {
        do {
            _ = try Assertion(parsing: text)
            Issue.record("\(text) should not parse")
        } catch {
            #expect(error.offset == offset, "\(text)")
            #expect(error.problem.contains(problem), "\(error.problem)")
            if let hint { #expect(error.problem.hasSuffix(hint), "\(error.problem)") }
        }
    }
}
