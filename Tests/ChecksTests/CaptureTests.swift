import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Query
@testable import Workspace

/// Captures read a value from each place a response keeps one.
@Suite struct CaptureTests {
    private let response = CheckedResponse(
        status: 201,
        headers: HTTPHeaders([
            ("Content-Type", "application/json"), ("X-Request-Id", "req-7"), ("Set-Cookie", "session=s3cr3t; HttpOnly"),
        ]),
        body: Data(#"{"token":"abc.def","user":{"id":7,"roles":["admin"]},"note":"order-981 ok","ok":true}"#.utf8),
        durationMilliseconds: 3
    )

    @Test(arguments: [
        (Capture.Source.jsonpath("$.token"), "abc.def"),
        (.jsonpath("$.user.id"), "7"),
        (.jsonpath("$.ok"), "true"),
        (.jsonpath("$.user.roles"), #"["admin"]"#),
        (.jsonpath("$.user"), #"{"id":7,"roles":["admin"]}"#),
        (.header("x-request-id"), "req-7"),
        (.regex(#"order-(\d+)"#, inHeaders: false), "981"),
        (.regex(#"X-Request-Id: (\S+)"#, inHeaders: true), "req-7"),
        (.status, "201"),
        (.cookie("session"), "s3cr3t"),
    ])
    func readsTheValue(_ source: Capture.Source, _ value: String) throws {
        #expect(try Capture(name: "v", source: source).value(in: response) == value)
    }

    @Test func anObjectKeepsItsMemberOrderAndNumbersTheirSpelling() throws {
        let prices = CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: Data(#"{"price": {"total": 10.50, "currency": "EUR", "id": 90071992547409931}}"#.utf8),
            durationMilliseconds: 1)
        #expect(
            try Capture(name: "v", source: .jsonpath("$.price")).value(in: prices)
                == #"{"total":10.50,"currency":"EUR","id":90071992547409931}"#)
        #expect(try Capture(name: "v", source: .jsonpath("$.price.id")).value(in: prices) == "90071992547409931")
        let result = try Assertion(parsing: "jsonpath $.price.total == 11").check(prices)
        #expect(result.actual == "10.50")
        #expect(result.reason == "expected == 11, got 10.50")
    }

    @Test(arguments: [
        (Capture.Source.jsonpath("$.missing"), "the JSONPath $.missing selects nothing"),
        (.header("X-None"), "the response has no header X-None"),
        (.regex("nope-(\\d)", inHeaders: false), "the regex nope-(\\d) does not match the body"),
        (.cookie("other"), "the response sets no cookie other"),
    ])
    func aMissingValueIsAFailureNotAnEmptyVariable(_ source: Capture.Source, _ reason: String) {
        #expect(throws: CheckFailure(reason)) { try Capture(name: "v", source: source).value(in: response) }
    }
}
