import Foundation
import NetworkingCore
import Query
import Testing
import Workspace

@testable import Measure

/// The structural JSON diff's rules: objects by key, arrays by position or by an id-like
/// member, strings, numbers and types told apart, ignore queries.
@Suite struct JSONDiffTests {
    func json(_ text: String) -> JSONValue { try! JSONValue(parsing: text) }

    func diff(_ a: String, _ b: String, ignoring: [String] = []) -> [JSONDifference] {
        JSONDiff(ignoring: ignoring.map { try! JSONPath(strict: $0) }).differences(json(a), json(b))
    }

    @Test func objectsAreComparedByKeyWhateverTheirOrder() {
        #expect(diff(#"{"a": 1, "b": "x"}"#, #"{"b": "x", "a": 1}"#).isEmpty)
    }

    @Test func aChangedStringANumberAndATypeAreToldApart() {
        let found = diff(
            #"{"name": "Ada", "age": 36, "id": 1, "ok": true}"#,
            #"{"name": "Grace", "age": 85, "id": "1", "ok": false}"#)
        #expect(
            found == [
                JSONDifference(kind: .string, path: "$.name", first: "Ada", second: "Grace"),
                JSONDifference(kind: .number, path: "$.age", first: .number("36"), second: .number("85")),
                JSONDifference(kind: .type, path: "$.id", first: .number("1"), second: "1"),
                JSONDifference(kind: .boolean, path: "$.ok", first: true, second: false),
            ])
    }

    @Test func equalNumbersWrittenDifferentlyAreTheSame() {
        #expect(diff(#"{"a": 1, "b": 2.50, "c": 1e3}"#, #"{"a": 1.0, "b": 2.5, "c": 1000}"#).isEmpty)
    }

    @Test func membersOnlyInOneDocumentAreAddedOrRemoved() {
        let found = diff(#"{"a": 1, "gone": [1]}"#, #"{"a": 1, "new": {"x": null}}"#)
        #expect(
            found == [
                JSONDifference(kind: .removed, path: "$.gone", first: [1], second: nil),
                JSONDifference(kind: .added, path: "$.new", first: nil, second: ["x": nil]),
            ])
    }

    @Test func arraysWithoutIdsAreComparedByPosition() {
        let found = diff(#"[1, 2, 3]"#, #"[1, 5]"#)
        #expect(
            found == [
                JSONDifference(kind: .number, path: "$[1]", first: 2, second: 5),
                JSONDifference(kind: .removed, path: "$[2]", first: 3, second: nil),
            ])
    }

    @Test func arraysOfObjectsWithAnIdAreMatchedByIt() {
        // The second array has a new element first and the others reordered: by position every
        // element would differ; by id, one is added and one changed.
        let found = diff(
            #"{"users": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Alan"}]}"#,
            #"{"users": [{"id": 3, "name": "Grace"}, {"id": 2, "name": "Alan"}, {"id": 1, "name": "Ada L."}]}"#)
        #expect(
            found == [
                JSONDifference(kind: .string, path: "$.users[?@.id==1].name", first: "Ada", second: "Ada L."),
                JSONDifference(
                    kind: .added, path: "$.users[?@.id==3]", first: nil, second: ["id": 3, "name": "Grace"]),
            ])
    }

    @Test func aStringIdAndAnIdLikeMemberServeToo() {
        let byUUID = diff(
            #"[{"uuid": "b", "v": 1}, {"uuid": "a", "v": 2}]"#, #"[{"uuid": "a", "v": 2}, {"uuid": "b", "v": 3}]"#)
        #expect(byUUID == [JSONDifference(kind: .number, path: "$[?@.uuid=='b'].v", first: 1, second: 3)])
        let bySuffix = diff(
            #"[{"orderId": 7, "n": 1}, {"orderId": 8, "n": 1}]"#, #"[{"orderId": 8, "n": 1}, {"orderId": 7, "n": 2}]"#)
        #expect(bySuffix == [JSONDifference(kind: .number, path: "$[?@.orderId==7].n", first: 1, second: 2)])
    }

    @Test func anIdThatRepeatsIsNoIdentity() {
        // Two elements share id 1: the arrays are compared by position.
        let found = diff(#"[{"id": 1, "v": 1}, {"id": 1, "v": 2}]"#, #"[{"id": 1, "v": 2}, {"id": 1, "v": 1}]"#)
        #expect(found.map(\.path) == ["$[0].v", "$[1].v"])
    }

    @Test func theIdFoundIsAValidQueryForTheNode() throws {
        let first = json(#"{"items": [{"id": 4, "tag": "x"}, {"id": 5, "tag": "y"}]}"#)
        let second = json(#"{"items": [{"id": 5, "tag": "z"}, {"id": 4, "tag": "x"}]}"#)
        let found = JSONDiff().differences(first, second)
        #expect(found.count == 1)
        let query = try JSONPath(strict: found[0].path)
        #expect(try query.evaluate(first) == ["y"])
        #expect(try query.evaluate(second) == ["z"])
    }

    @Test func ignoredQueriesLeaveTheirNodesOutWithEverythingBelow() {
        let a = #"{"requestId": "r1", "meta": {"at": 1, "by": "x"}, "items": [{"id": 1, "at": 5, "v": 1}], "gone": 1}"#
        let b =
            #"{"requestId": "r2", "meta": {"at": 2, "by": "y"}, "items": [{"id": 1, "at": 6, "v": 1}, {"id": 2, "at": 7, "v": 1}]}"#
        let found = diff(a, b, ignoring: ["$.requestId", "$.meta", "$.items[*].at", "$.gone", "$.items[?@.id==2]"])
        #expect(found.isEmpty)
        let result = JSONDiff(ignoring: [try! JSONPath(strict: "$.requestId")]).compare(json(a), json(b))
        #expect(result.ignoredNodes == 1)
        #expect(
            result.differences.map(\.path) == [
                "$.meta.at", "$.meta.by", "$.items[?@.id==1].at", "$.items[?@.id==2]", "$.gone",
            ])
    }

    @Test func aDescendantQueryIgnoresAMemberAtAnyDepth() {
        let found = diff(
            #"{"a": {"etag": "1", "b": [{"etag": "2", "v": 1}]}}"#,
            #"{"a": {"etag": "3", "b": [{"etag": "4", "v": 2}]}}"#,
            ignoring: ["$..etag"])
        #expect(found == [JSONDifference(kind: .number, path: "$.a.b[0].v", first: 1, second: 2)])
    }

    @Test func namesThatAreNotShorthandAreQuoted() throws {
        let found = diff(#"{"content-type": "a", "it's": 1}"#, #"{"content-type": "b", "it's": 2}"#)
        #expect(found.map(\.path) == ["$['content-type']", #"$['it\'s']"#])
        for difference in found { _ = try JSONPath(strict: difference.path) }
    }

    /// An ignore query that stops at its node limit hides nothing, and the result says which
    /// query and why: what it would have hidden is compared and listed, never silently.
    @Test func anIgnoreRulePastItsLimitIsReportedAndHidesNothing() throws {
        var limits = EvaluationLimits()
        limits.queryNodes = 50
        let rule = try JSONPath(strict: "$..*")
        let a = JSONValue.array((0..<40).map { JSONValue($0) })
        let b = JSONValue.array((0..<40).map { JSONValue($0 == 3 ? 99 : $0) })
        let result = JSONDiff(ignoring: [rule], evaluationLimits: limits).compare(a, b)
        #expect(result.differences.map(\.path) == ["$[3]"], "nothing was left out")
        #expect(result.unappliedIgnores.count == 1)
        #expect(result.unappliedIgnores.first?.hasPrefix("the ignore rule $..* was not applied: ") == true)
        #expect(result.unappliedIgnores.first?.contains(EvaluationLimits.queryNodesVariable) == true)
        #expect(JSONDiff(ignoring: [rule]).compare(a, b).unappliedIgnores.isEmpty, "within the limits it applies")
    }

    @Test func theLimitCountsWhatItLeavesOut() {
        let a = JSONValue.array((0..<50).map { JSONValue($0) })
        let b = JSONValue.array((0..<50).map { JSONValue($0 + 1) })
        let result = JSONDiff(limit: 10).compare(a, b)
        #expect(result.differences.count == 10)
        #expect(result.omitted == 40)
        #expect(!result.isSame)
    }

    @Test func rulesAreReadAsQueriesOrHeaderNames() throws {
        #expect(try CompareRules.IgnoreRule(parsing: "$.requestId") == .path("$.requestId"))
        #expect(try CompareRules.IgnoreRule(parsing: " header Date ") == .header("Date"))
        #expect(try CompareRules.IgnoreRule(parsing: "HEADER x-request-id") == .header("x-request-id"))
        #expect(throws: CompareRules.Problem.self) { try CompareRules.IgnoreRule(parsing: "$.items[") }
        #expect(throws: CompareRules.Problem.self) { try CompareRules.IgnoreRule(parsing: "requestId") }
        #expect(throws: CompareRules.Problem.self) { try CompareRules.IgnoreRule(parsing: "header") }
        let rules = CompareRules(ignore: [.path("$.a"), .header("Date"), .header("ETag")])
        #expect(rules.ignoredHeaders == ["date", "etag"])
        #expect(rules.ignoredPaths.map(\.description) == ["$.a"])
    }
}
