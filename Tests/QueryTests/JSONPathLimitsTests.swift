import Foundation
import NetworkingCore
import Testing

@testable import Query

/// A query that asks for exponential work on a small body stops at its node or time limit with
/// a sentence naming the limit: never a partial result, never a silent "no match".
@Suite struct JSONPathLimitsTests {
    /// An 800-byte document, 400 arrays deep: `$..*` selects 399 nodes, `$..*..*` every
    /// descendant of each (about 80,000), `$..*..*..*` about ten million.
    private let body = try! JSONValue(parsing: String(repeating: "[", count: 400) + String(repeating: "]", count: 400))

    private func message(_ expression: String, limits: EvaluationLimits) throws -> String? {
        let path = try JSONPath(strict: expression)
        do {
            _ = try path.evaluate(body, limits: limits)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theBodyIsSmall() {
        #expect(body.serialized().utf8.count == 800)
    }

    @Test func nestedDescentsStopAtTheNodeLimit() throws {
        let failure = try message("$..*..*..*", limits: EvaluationLimits(queryNodes: 50_000))
        #expect(
            failure == "The JSONPath $..*..*..* visited and selected more than 50000 nodes; "
                + "set EXPLORER_MAX_QUERY_NODES to a larger value to allow more.")
    }

    @Test func aQueryThatRunsTooLongStopsAtTheTimeLimit() throws {
        let started = Date()
        let failure = try message("$..*..*..*..*", limits: EvaluationLimits(queryNodes: .max, querySeconds: 0.1))
        #expect(
            failure
                == "The JSONPath $..*..*..*..* ran for more than 0.1 seconds; set EXPLORER_QUERY_TIMEOUT to a larger value to allow more."
        )
        #expect(Date().timeIntervalSince(started) < 2)
    }

    /// `$..*..*` visits and selects about 80,000 nodes, but those hold about ten million: written
    /// out, they count against the same limit, so a few selected nodes cannot write gigabytes.
    @Test func whatTheMatchesHoldCountsWhenTheyAreWritten() throws {
        let path = try JSONPath(strict: "$..*..*")
        let text = Data(body.serialized().utf8)
        let limits = EvaluationLimits(queryNodes: 200_000)
        #expect(try path.evaluate(body, limits: limits).count == 79_401)
        do {
            _ = try path.evaluate(text, limits: limits)
            Issue.record("the matches were written past the node limit")
        } catch let error as JSONPath.Failure {
            #expect(
                error.description
                    == "The values the JSONPath $..*..* selected hold more than 200000 nodes; "
                    + "set EXPLORER_MAX_QUERY_NODES to a larger value to allow more.")
            #expect(error.limit?.variable == "EXPLORER_MAX_QUERY_NODES")
        }
        #expect(try JSONPath(strict: "$[0][0]").evaluate(text, limits: EvaluationLimits(queryNodes: 398)).count > 0)
        #expect(JSONPath.valueCount([body], upTo: .max) == 400)
    }

    @Test func theLimitIsCarriedWithTheFailure() throws {
        let path = try JSONPath("$..*..*")
        do {
            _ = try path.locate(body, limits: EvaluationLimits(queryNodes: 100))
            Issue.record("the query passed its limit without an error")
        } catch {
            #expect(error.limit?.variable == "EXPLORER_MAX_QUERY_NODES")
        }
    }

    @Test func ordinaryQueriesAreFarBelowTheDefaults() throws {
        #expect(try JSONPath("$..*").evaluate(body).count == 399)
        #expect(try JSONPath("$..*..*").evaluate(body).count == 399 * 398 / 2)
        #expect(EvaluationLimits().queryNodes == 10_000_000 && EvaluationLimits().querySeconds == 10)
    }

    @Test func aCatastrophicMatchIsAnErrorNotFalse() throws {
        let document = JSONValue.array([.string(String(repeating: "a", count: 40) + "!")])
        #expect {
            try JSONPath(strict: "$[?match(@, '(a|aa)+')]").evaluate(
                document, limits: EvaluationLimits(regexSeconds: 0.1))
        } throws: { error in
            "\(error)".contains("ran for more than 0.1 seconds") && "\(error)".contains("EXPLORER_REGEX_TIMEOUT")
        }
    }

    @Test func aMatchThatOutlastsTheQuerysTimeLimitNamesTheQueryLimit() throws {
        let document = JSONValue.array([.string(String(repeating: "a", count: 40) + "!")])
        #expect {
            try JSONPath(strict: "$[?match(@, '(a|aa)+')]").evaluate(
                document, limits: EvaluationLimits(querySeconds: 0.1, regexSeconds: 5))
        } throws: { error in
            "\(error)".contains("ran for more than 0.1 seconds") && "\(error)".contains("EXPLORER_QUERY_TIMEOUT")
        }
    }

    @Test func aSearchTheRegexEngineGivesUpOnIsAnErrorNotFalse() throws {
        // ICU's backtracking stack fills on (a|b)*c over a long run of a: NSRegularExpression
        // alone answers "no match".
        let document = JSONValue.array([.string(String(repeating: "a", count: 1_000_000) + "c")])
        #expect {
            try JSONPath(strict: "$[?search(@, '(a|b)*c')]").evaluate(document)
        } throws: { error in
            "\(error)".contains("gave up") && "\(error)".contains("cannot be raised")
        }
    }
}
