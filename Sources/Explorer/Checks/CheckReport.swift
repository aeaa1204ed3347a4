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

    /// Creates an empty report.
    package init() {}

    /// How many assertions passed.
    package var passedCount: Int { assertions.filter(\.passed).count }
    /// Whether every assertion passed and every capture found its value.
    package var passed: Bool { passedCount == assertions.count && captureFailures.isEmpty }
    /// `3/4 checks`, or `nil` when the endpoint has no assertions.
    package var summary: String? {
        assertions.isEmpty ? nil : "\(passedCount)/\(assertions.count) checks"
    }

    /// The lines a terminal shows for what failed: each failed assertion, each empty capture.
    package var failureLines: [String] {
        assertions.filter { !$0.passed }.map(\.line) + captureFailures.map { "✗ capture \($0)" }
    }

    package static func == (lhs: CheckReport, rhs: CheckReport) -> Bool {
        lhs.assertions == rhs.assertions && lhs.captureFailures == rhs.captureFailures
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
    /// - Returns: the report.
    package func check(_ response: CheckedResponse, secretNames: [String] = [], expand: (String) throws -> String = { $0 }) -> CheckReport {
        var report = CheckReport()
        report.assertions = assertions.map { $0.check(response, expand: expand) }
        for capture in captures {
            do {
                let value = try capture.value(in: response)
                guard value.utf8.count <= CapturedVariable.maximumBytes else {
                    report.captureFailures.append("\(capture.name): the value has \(value.utf8.count) bytes, more than the \(CapturedVariable.maximumBytes) a variable may hold")
                    continue
                }
                let lowered = capture.name.lowercased()
                let secret = capture.isSecret || secretNames.contains(capture.name)
                    || SecretMasker.sensitiveNameWords.contains { lowered.contains($0) }
                report.captured.append((capture.name, value, secret))
            } catch {
                report.captureFailures.append("\(capture.name): \(error.description)")
            }
        }
        return report
    }
}
