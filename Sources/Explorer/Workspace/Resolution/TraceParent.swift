import Foundation

/// A W3C Trace Context `traceparent` header (version 00): `00-TRACEID-PARENTID-FLAGS`.
package struct TraceParent: Sendable, Hashable, CustomStringConvertible {
    /// The trace id: 32 lowercase hex digits, not all zero.
    package var traceID: String
    /// The parent (span) id: 16 lowercase hex digits, not all zero.
    package var parentID: String
    /// The trace flags: `01` when sampled.
    package var flags: String

    /// A fresh header value: a random trace id and parent id, sampled.
    package static func random() -> TraceParent {
        var generator = SystemRandomNumberGenerator()
        func hex(_ bytes: Int) -> String {
            var text = ""
            repeat {
                text = (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }
                    .joined()
            } while text.allSatisfy { $0 == "0" }
            return text
        }
        return TraceParent(traceID: hex(16), parentID: hex(8), flags: "01")
    }

    /// Creates a header value from its parts.
    package init(traceID: String, parentID: String, flags: String) {
        self.traceID = traceID
        self.parentID = parentID
        self.flags = flags
    }

    /// Reads a header value; `nil` when it is not a valid version-00 value (or a later version's
    /// first four fields).
    package init?(parsing value: String) {
        let parts = value.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", parts[1].count == 32, parts[2].count == 16,
            parts[3].count == 2, parts[0] != "00" || parts.count == 4,
            parts.prefix(4).allSatisfy({ $0.allSatisfy { "0123456789abcdef".contains($0) } }),
            parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" })
        else { return nil }
        traceID = String(parts[1])
        parentID = String(parts[2])
        flags = String(parts[3])
    }

    /// The header's value: `00-<trace id>-<parent id>-<flags>`.
    package var description: String { "00-\(traceID)-\(parentID)-\(flags)" }
}
