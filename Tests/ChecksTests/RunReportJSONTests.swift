import Foundation
import Testing

@testable import Checks
@testable import Workspace

/// The JSON report's text, member by member: written in one pass, its members sorted, the
/// outer levels a member a line and each request on a line of its own.
@Suite struct RunReportJSONTests {
    /// A run with a bit of everything: a data row and an iteration no row names, a request
    /// that was not sent, one that a capture required, a schema check, captures and their
    /// failures, text that JSON escapes, folders and a latency figure per repeated endpoint.
    static func varied() throws -> RunSummary {
        var results = [
            try RunReportTests.result("Health", iteration: 1, milliseconds: 1.25),
            try RunReportTests.result("Users/Get", iteration: 1, milliseconds: 30.000_4, failing: true),
            try RunReportTests.result(
                "Down", iteration: 2, status: nil, milliseconds: 3, error: "refused\n\"now\"\t\u{1}"),
            try RunReportTests.result("Health", iteration: 2, milliseconds: 0.1),
            try RunReportTests.result("Health", iteration: 5, milliseconds: 7),
        ]
        results[1].report.schema = SchemaCheck(document: "api.yaml", operation: "getUser")
        results[1].report.captured = [("id", "7", false), ("token", "t", true)]
        results[1].report.captureFailures = ["jsonpath $.x found nothing"]
        results[1].attempts = 2
        results[2].exchange = nil
        results[2].outcome = .notSent
        results[3].requiredBecause = "Users/Get needs {{token}}"
        results[3].grpcStatus = "OK"
        var summary = RunSummary(
            collection: "Reports \\ \"quoted\"", environment: "local", results: results, seconds: 1.234_56,
            startedAt: Date(timeIntervalSince1970: 1_000_000_000.123),
            iterations: [
                RunIteration(number: 1, row: DataRow(number: 1, line: 2, values: ["a": "1"])),
                RunIteration(number: 2, row: DataRow(number: 2, line: 4, values: [:])),
            ],
            dataFile: "rows.csv", notRun: 3)
        summary.collectionFile = nil
        summary.interrupted = true
        return summary
    }

    /// The text the report had (but its last line break) when it was a tree of values serialized with its keys sorted
    /// (before it was written in one pass), for `varied()`.
    static let variedText = #"""
        {
          "format":"explorer-run-report",
          "iterations":[
        {"iteration":1,"line":2,"requests":[
        {"assertions":[
        {"actual":"200","assert":"status == 200","expected":null,"passed":true,"reason":null}
        ],"attempts":1,"captureFailures":[],"captured":[],"endpoint":"Health","error":null,"folders":[],"grpcStatus":null,"line":4,"method":"GET","name":"Health","outcome":"passed","reason":"OK","requiredBecause":null,"schemaPassed":null,"sizes":{"requestBody":0,"responseBody":2},"startedAt":"2001-09-09T01:46:40.000Z","status":200,"timings":{"headMs":0.625,"totalMs":1.25},"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","url":"http://127.0.0.1:1//health"},
        {"assertions":[
        {"actual":"200","assert":"status == 200","expected":null,"passed":true,"reason":null},
        {"actual":"\"Bob\"","assert":"jsonpath $.name == \"Ada\"","expected":"== \"Ada\"","passed":false,"reason":"expected == \"Ada\", got \"Bob\""}
        ],"attempts":2,"captureFailures":["jsonpath $.x found nothing"],"captured":["id","token"],"endpoint":"Users/Get","error":null,"folders":["Users"],"grpcStatus":null,"line":9,"method":"GET","name":"Get","outcome":"failed","reason":"OK","requiredBecause":null,"schemaPassed":true,"sizes":{"requestBody":0,"responseBody":2},"startedAt":"2001-09-09T01:46:40.000Z","status":200,"timings":{"headMs":15.0,"totalMs":30.0},"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","url":"http://127.0.0.1:1//users/1"}
        ],"row":1},
        {"iteration":2,"line":4,"requests":[
        {"assertions":[
        {"actual":null,"assert":"status == 200","expected":null,"passed":false,"reason":null}
        ],"attempts":1,"captureFailures":[],"captured":[],"endpoint":"Down","error":"refused\n\"now\"\t\u0001","folders":[],"grpcStatus":null,"line":14,"method":null,"name":"Down","outcome":"notSent","reason":null,"requiredBecause":null,"schemaPassed":null,"sizes":{"requestBody":null,"responseBody":null},"startedAt":null,"status":null,"timings":{"headMs":null,"totalMs":3.0},"traceId":null,"url":null},
        {"assertions":[
        {"actual":"200","assert":"status == 200","expected":null,"passed":true,"reason":null}
        ],"attempts":1,"captureFailures":[],"captured":[],"endpoint":"Health","error":null,"folders":[],"grpcStatus":"OK","line":4,"method":"GET","name":"Health","outcome":"passed","reason":"OK","requiredBecause":"Users/Get needs {{token}}","schemaPassed":null,"sizes":{"requestBody":0,"responseBody":2},"startedAt":"2001-09-09T01:46:40.000Z","status":200,"timings":{"headMs":0.05,"totalMs":0.1},"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","url":"http://127.0.0.1:1//health"}
        ],"row":2},
        {"iteration":5,"line":null,"requests":[
        {"assertions":[
        {"actual":"200","assert":"status == 200","expected":null,"passed":true,"reason":null}
        ],"attempts":1,"captureFailures":[],"captured":[],"endpoint":"Health","error":null,"folders":[],"grpcStatus":null,"line":4,"method":"GET","name":"Health","outcome":"passed","reason":"OK","requiredBecause":null,"schemaPassed":null,"sizes":{"requestBody":0,"responseBody":2},"startedAt":"2001-09-09T01:46:40.000Z","status":200,"timings":{"headMs":3.5,"totalMs":7.0},"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","url":"http://127.0.0.1:1//health"}
        ],"row":null}
        ],
          "latency":[
        {"count":2,"endpoint":"Health","max":7.0,"mean":4.125,"min":1.25,"p50":1.25,"p90":7.0,"p95":7.0,"p99":7.0,"stddev":2.875}
        ],
          "run":{
            "collection":"Reports \\ \"quoted\"",
            "collectionFile":null,
            "data":"rows.csv",
            "environment":"local",
            "errors":1,
            "exitCode":2,
            "failed":1,
            "interrupted":true,
            "notRun":3,
            "passed":3,
            "requests":5,
            "seconds":1.235,
            "startedAt":"2001-09-09T01:46:40.123Z",
            "stopped":true
          },
          "version":1
        }
        """#

    /// The same for `RunReportTests.mixed()`.
    static let mixedText = #"""
        {
          "format":"explorer-run-report",
          "iterations":[
        {"iteration":1,"line":null,"requests":[
        {"assertions":[
        {"actual":"200","assert":"status == 200","expected":null,"passed":true,"reason":null}
        ],"attempts":1,"captureFailures":[],"captured":[],"endpoint":"Health","error":null,"folders":[],"grpcStatus":null,"line":4,"method":"GET","name":"Health","outcome":"passed","reason":"OK","requiredBecause":null,"schemaPassed":null,"sizes":{"requestBody":0,"responseBody":2},"startedAt":"2001-09-09T01:46:40.000Z","status":200,"timings":{"headMs":6.0,"totalMs":12.0},"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","url":"http://127.0.0.1:1//health"},
        {"assertions":[
        {"actual":"200","assert":"status == 200","expected":null,"passed":true,"reason":null},
        {"actual":"\"Bob\"","assert":"jsonpath $.name == \"Ada\"","expected":"== \"Ada\"","passed":false,"reason":"expected == \"Ada\", got \"Bob\""}
        ],"attempts":1,"captureFailures":[],"captured":[],"endpoint":"Users/Get","error":null,"folders":["Users"],"grpcStatus":null,"line":9,"method":"GET","name":"Get","outcome":"failed","reason":"OK","requiredBecause":null,"schemaPassed":null,"sizes":{"requestBody":0,"responseBody":2},"startedAt":"2001-09-09T01:46:40.000Z","status":200,"timings":{"headMs":15.0,"totalMs":30.0},"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","url":"http://127.0.0.1:1//users/1"},
        {"assertions":[
        {"actual":null,"assert":"status == 200","expected":null,"passed":false,"reason":null}
        ],"attempts":1,"captureFailures":[],"captured":[],"endpoint":"Down","error":"Connection refused","folders":[],"grpcStatus":null,"line":14,"method":"GET","name":"Down","outcome":"transportFailure","reason":null,"requiredBecause":null,"schemaPassed":null,"sizes":{"requestBody":0,"responseBody":2},"startedAt":"2001-09-09T01:46:40.000Z","status":null,"timings":{"headMs":1.5,"totalMs":3.0},"traceId":"4bf92f3577b34da6a3ce929d0e0e4736","url":"http://127.0.0.1:1//down"}
        ],"row":null}
        ],
          "latency":[],
          "run":{
            "collection":"Reports <b>&",
            "collectionFile":"api/reports.yaml",
            "data":null,
            "environment":"local",
            "errors":1,
            "exitCode":1,
            "failed":1,
            "interrupted":false,
            "notRun":0,
            "passed":1,
            "requests":3,
            "seconds":1.5,
            "startedAt":"2001-09-09T01:46:40.000Z",
            "stopped":false
          },
          "version":1
        }
        """#

    @Test func theReportIsTheSameTextItWasWhenBuiltAsATree() throws {
        #expect(String(decoding: try Self.varied().jsonReportData, as: UTF8.self) == Self.variedText + "\n")
        #expect(String(decoding: try RunReportTests.mixed().jsonReportData, as: UTF8.self) == Self.mixedText + "\n")
        let empty = String(decoding: RunReportTests.summary([]).jsonReportData, as: UTF8.self)
        #expect(empty.hasPrefix("{\n  \"format\":\"explorer-run-report\",\n  \"iterations\":[\n{\"iteration\":1,"))
        #expect(empty.contains("\"requests\":[],\"row\":null}\n],\n  \"latency\":[],\n  \"run\":{\n    "))
    }
}
