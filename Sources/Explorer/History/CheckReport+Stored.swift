import Checks
import Foundation
import Workspace

/// A check report as the history's `checks` column keeps it: one JSON object with each
/// assertion (`assert`, `passed`, `actual`, `reason`), each capture (`name`, `value`,
/// `secret`; a secret's value is already masked), the captures that found nothing and the
/// check against the OpenAPI document (`schema`).
extension CheckReport {
    /// The report as stored.
    var storedJSON: String {
        var object: [String: Any] = [
            "assertions": assertions.map { result -> [String: Any] in
                [
                    "assert": result.text, "passed": result.passed, "actual": result.actual ?? NSNull(),
                    "reason": result.reason ?? NSNull(),
                ]
            },
            "captured": captured.map { ["name": $0.name, "value": $0.value, "secret": $0.isSecret] as [String: Any] },
            "captureFailures": captureFailures,
        ]
        if let schema { object["schema"] = schema.jsonObject }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A stored report, or `nil` for none (an exchange without checks, or one recorded before
    /// the column existed).
    init?(storedJSON text: String?) {
        guard let data = text?.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            return nil
        }
        self.init()
        assertions = (object["assertions"] as? [[String: Any]] ?? []).map { item in
            AssertionResult(
                text: item["assert"] as? String ?? "", passed: item["passed"] as? Bool ?? false,
                actual: item["actual"] as? String, reason: item["reason"] as? String)
        }
        captured = (object["captured"] as? [[String: Any]] ?? []).map { item in
            (item["name"] as? String ?? "", item["value"] as? String ?? "", item["secret"] as? Bool ?? false)
        }
        captureFailures = object["captureFailures"] as? [String] ?? []
        schema = (object["schema"] as? [String: Any]).flatMap(SchemaCheck.init(jsonObject:))
    }
}

extension SequenceStep where Record == HistoryEntry {
    /// The step's exchange as the history keeps it: with what its checks found, when the
    /// endpoint checks something.
    package var historyEntry: HistoryEntry? {
        guard var entry = exchange?.record else { return nil }
        if endpoint.hasChecks || report.schema != nil, entry.status != nil { entry.checks = report }
        return entry
    }
}
