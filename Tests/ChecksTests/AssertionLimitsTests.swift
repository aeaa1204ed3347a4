import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Query
@testable import Workspace

/// A regular expression that backtracks without end is stopped at its time limit, and one the
/// engine gives up on is not "no match": either way the assertion fails with a sentence naming
/// why, and `not matches` never passes on it.
@Suite struct AssertionLimitsTests {
    private func response(_ body: String) -> CheckedResponse {
        CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: Data(body.utf8),
            durationMilliseconds: 1)
    }

    private let fast = EvaluationLimits(regexSeconds: 0.1)
    private let twoHundredAs = String(repeating: "a", count: 200)

    @Test func aCatastrophicMatchesFailsAtTheTimeLimit() throws {
        let started = Date()
        let result = try Assertion(parsing: "body matches \"a*a*a*a*a*b\"").check(response(twoHundredAs), limits: fast)
        #expect(!result.passed)
        #expect(
            result.reason
                == "the regular expression \"a*a*a*a*a*b\" ran for more than 0.1 seconds on a text of 200 characters "
                + "without an answer; set EXPLORER_REGEX_TIMEOUT to a larger value to allow more")
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func notMatchesDoesNotPassWhenTheSearchRanOutOfTime() throws {
        let result = try Assertion(parsing: "body not matches \"a*a*a*a*a*b\"").check(
            response(twoHundredAs), limits: fast)
        #expect(!result.passed)
        #expect(result.reason?.contains("EXPLORER_REGEX_TIMEOUT") == true)
    }

    @Test func notMatchesDoesNotPassWhenTheEngineGivesUp() throws {
        // (a|b)*c fills ICU's backtracking stack on a long run of a: NSRegularExpression alone
        // answers "no match", and `not matches` passed though the body does match.
        let result = try Assertion(parsing: "body not matches \"(a|b)*c\"").check(
            response(String(repeating: "a", count: 1_000_000) + "c"))
        #expect(!result.passed)
        #expect(
            result.reason?.hasPrefix("the regular expression \"(a|b)*c\" gave up on a text of 1000001 characters")
                == true)
        #expect(
            result.reason?.hasSuffix("this limit cannot be raised: write the pattern without nested repetition") == true
        )
        let nested = try Assertion(parsing: "body not matches \"(a+)+$\"").check(
            response(String(repeating: "a", count: 1_000_000) + "!"))
        #expect(!nested.passed, "the engine gave no answer, so the assertion cannot pass")
        #expect(nested.reason?.contains("gave up") == true)
    }

    @Test func theRegexQueryAndCapturesAreBoundedToo() throws {
        let result = try Assertion(parsing: "regex \"(a*a*a*a*a*b)\" not exists").check(
            response(twoHundredAs), limits: fast)
        #expect(!result.passed)
        #expect(result.reason?.contains("ran for more than 0.1 seconds") == true)
        #expect(throws: CheckFailure.self) {
            try CheckedResponse.firstMatch(of: "(a*a*a*a*a*b)", in: twoHundredAs, limits: fast)
        }
    }

    @Test func aJSONPathPastItsNodeLimitFailsTheAssertion() throws {
        let body = CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: Data((String(repeating: "[", count: 400) + String(repeating: "]", count: 400)).utf8),
            durationMilliseconds: 1)
        let result = try Assertion(parsing: "jsonpath $..*..*..* not isEmpty").check(
            body, limits: EvaluationLimits(queryNodes: 10_000))
        #expect(!result.passed)
        #expect(
            result.reason
                == "the JSONPath $..*..*..* visited and selected more than 10000 nodes; set EXPLORER_MAX_QUERY_NODES to a larger value to allow more"
        )
    }

    @Test func ordinaryPatternsAnswerAsBefore() throws {
        #expect(try Assertion(parsing: #"body matches "^a+$""#).check(response(twoHundredAs)).passed)
        #expect(try Assertion(parsing: #"body not matches "b""#).check(response(twoHundredAs)).passed)
    }
}
