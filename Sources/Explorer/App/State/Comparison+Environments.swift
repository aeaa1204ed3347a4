import Foundation
import Measure
import NetworkingCore
import Terminal
import Workspace

extension Comparison {
    /// One endpoint's answers in two environments, as the comparison view shows them: each
    /// side's status line, then each difference as a pair, the first environment's value
    /// removed (`-`) and the second's added (`+`); what is the same stays plain. Secrets are
    /// masked, a credential header's value never shown.
    init(endpoint: String, _ comparison: ResponseComparison, mask: (String) -> String) {
        let first = comparison.first
        let second = comparison.second
        var verdict = comparison.matches ? "match" : "differ"
        if first.status == nil || second.status == nil { verdict = "no response" }
        self.init(
            title: "\(endpoint): \(first.environment) ↔ \(second.environment) — \(verdict)",
            lines: Self.lines(comparison, mask: mask))
    }

    private static func lines(_ comparison: ResponseComparison, mask: (String) -> String) -> [LineDiff.Line] {
        var lines: [LineDiff.Line] = []
        let width = max(comparison.first.environment.count, comparison.second.environment.count) + 2
        for side in [comparison.first, comparison.second] {
            let time = side.status == nil ? "" : "  " + ResponseComparison.milliseconds(side.milliseconds)
            let name = side.environment.padding(toLength: width, withPad: " ", startingAt: 0)
            lines.append(.same(name + side.statusLine + time + "  " + side.method + " " + mask(side.url)))
        }
        lines.append(.same(""))
        if comparison.statusDiffers {
            lines.append(.removed("status  \(comparison.first.statusLine)"))
            lines.append(.added("status  \(comparison.second.statusLine)"))
        } else {
            lines.append(.same("status  same"))
        }
        if comparison.first.status == nil || comparison.second.status == nil { return lines }
        lines.append(.same(comparison.headers.isEmpty ? "headers same" : "headers"))
        for header in comparison.headers {
            let secret = HTTPHeaders.isCredential(name: header.name)
            func shown(_ value: String) -> String {
                secret ? SecretMasker.mask : ResponseComparison.clipped(mask(value))
            }
            if let value = header.first { lines.append(.removed("\(header.name): \(shown(value))")) }
            if let value = header.second { lines.append(.added("\(header.name): \(shown(value))")) }
        }
        switch comparison.body {
        case .same:
            lines.append(.same("body    same"))
        case .json(let result):
            let count = result.differences.count + result.omitted
            lines.append(.same("body    \(count) difference\(count == 1 ? "" : "s") (JSON)"))
            for difference in result.differences {
                func shown(_ value: JSONValue?) -> String {
                    value.map { ResponseComparison.clipped(mask($0.serialized())) } ?? "(none)"
                }
                let kind =
                    difference.kind == .type
                    ? " (\(difference.first?.typeName ?? "") → \(difference.second?.typeName ?? ""))" : ""
                if difference.kind != .added {
                    lines.append(.removed("\(difference.path): \(shown(difference.first))\(kind)"))
                }
                if difference.kind != .removed {
                    lines.append(.added("\(difference.path): \(shown(difference.second))\(kind)"))
                }
            }
            if result.omitted > 0 { lines.append(.same("  … \(result.omitted) more not listed")) }
        case .text(let line, let first, let second):
            lines.append(.same("body    differs from line \(line)"))
            lines.append(.removed((first.map { ResponseComparison.clipped(mask($0)) } ?? "(no such line)")))
            lines.append(.added((second.map { ResponseComparison.clipped(mask($0)) } ?? "(no such line)")))
        case .bytes(let first, let second):
            lines.append(.same("body    differs (bytes: \(first) | \(second))"))
        }
        return lines
    }
}
