import Foundation
import Workspace

/// What an endpoint's checks found in one response: each assertion's result, the values its
/// captures read, and the captures that found nothing.
package struct CheckReport: Sendable, Hashable {
    /// One result per `assert:` line, in order.
    package var assertions: [AssertionResult] = []
    /// The captured values by variable name, in `capture:` order.
    package var captured: [(name: String, value: String, isSecret: Bool)] = []
    /// Captures that found nothing, with why (`token: the JSONPath $.token selects nothing`).
    package var captureFailures: [String] = []
    /// The response checked against its operation in the collection's `openapi:` document,
    /// when it was (`validate: true`, `send --validate`, `assert: - schema`).
    package var schema: SchemaCheck?

    /// Creates an empty report.
    package init() {}

    /// The schema check when it counts as a check of its own: no `schema` assertion stands
    /// for it (`validate: true` checked the response), and the document describes the
    /// endpoint (an undescribed one was not checked).
    private var separateSchema: SchemaCheck? {
        guard let schema, schema.unmatched == nil || schema.isRequired else { return nil }
        return assertions.contains { $0.text == "schema" } ? nil : schema
    }
    /// How many checks there are: the assertions, and the schema check of its own.
    package var checkCount: Int { assertions.count + (separateSchema == nil ? 0 : 1) }
    /// How many checks passed.
    package var passedCount: Int { assertions.filter(\.passed).count + (separateSchema?.passed == true ? 1 : 0) }
    /// Whether every assertion passed, every capture found its value and the response keeps
    /// its operation's promise (when it was checked).
    package var passed: Bool { passedCount == checkCount && captureFailures.isEmpty && schema?.passed != false }
    /// `3/4 checks`, or `nil` when the endpoint has no checks.
    package var summary: String? {
        checkCount == 0 ? nil : "\(passedCount)/\(checkCount) checks"
    }

    /// The lines a terminal shows for what failed: each failed assertion, each empty capture.
    package var failureLines: [String] {
        // A failed `schema` assertion is told by the schema check's own lines.
        let failed = assertions.filter { !$0.passed && !($0.text == "schema" && schema?.passed == false) }
        return failed.map(\.line) + (schema?.failureLines() ?? []) + captureFailures.map { "✗ capture \($0)" }
    }

    package static func == (lhs: CheckReport, rhs: CheckReport) -> Bool {
        lhs.assertions == rhs.assertions && lhs.captureFailures == rhs.captureFailures && lhs.schema == rhs.schema
            && lhs.captured.map { [$0.name, $0.value] } == rhs.captured.map { [$0.name, $0.value] }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(assertions)
        hasher.combine(captureFailures)
    }
}

extension Endpoint {
    /// Runs the endpoint's assertions and captures on a response.
    ///
    /// - Parameters:
    ///   - response: what came back.
    ///   - secretNames: variable names whose captured values are secrets (the environment's
    ///     `secrets:`); a capture marked `secret: true`, or named like a credential (token,
    ///     password …), is one too.
    ///   - expand: expands `{{variables}}` in an assertion's value.
    ///   - schema: the response checked against the collection's `openapi:` document, when it
    ///     was; a `schema` assertion passes when it passed.
    /// - Returns: the report.
    package func check(
        _ response: CheckedResponse, secretNames: [String] = [], expand: (String) throws -> String = { $0 },
        schema: SchemaCheck? = nil
    ) -> CheckReport {
        var report = CheckReport()
        report.schema = schema
        report.assertions = assertions.map { assertion in
            guard assertion.query == .schema, let schema else { return assertion.check(response, expand: expand) }
            return AssertionResult(
                text: assertion.text, passed: schema.passed, actual: nil, reason: schema.passed ? nil : schema.reason)
        }
        for capture in captures {
            do {
                let value = try capture.value(in: response)
                guard value.utf8.count <= CapturedVariable.maximumBytes else {
                    report.captureFailures.append(
                        "\(capture.name): the value has \(value.utf8.count) bytes, "
                            + "more than the \(CapturedVariable.maximumBytes) a variable may hold"
                    )
                    continue
                }
                let lowered = capture.name.lowercased()
                let secret =
                    capture.isSecret || secretNames.contains(capture.name)
                    || SecretMasker.sensitiveNameWords.contains { lowered.contains($0) }
                report.captured.append((capture.name, value, secret))
            } catch {
                report.captureFailures.append("\(capture.name): \(error.description)")
            }
        }
        return report
    }
}
