import Foundation
import NetworkingCore

/// The limits every response of the explorer is read under, from `config.yaml`: the largest
/// body, the total time and the longest silence. Each one stops a transfer with a line that
/// says what was kept and which setting raises it.
package struct ResponseLimits: Sendable, Hashable {
    /// The largest body kept, in bytes (`max_body`). Bodies are held in memory, so the default
    /// is 256 MiB.
    package var maximumBody: Int
    /// The longest a whole exchange may take, in seconds (`max_time`); a live event stream is
    /// cut there. Default one hour.
    package var maximumTime: Double
    /// The longest silence while waiting for the head or the next bytes, in seconds
    /// (`timeout`). Default 60 s.
    package var idleTimeout: Double
    /// The most redirects followed (`max_redirects`); one more stops the exchange. Default 10,
    /// as curl's `--max-redirs` and the CLI's.
    package var maximumRedirects = 10

    /// The defaults.
    package init(maximumBody: Int = 256 << 20, maximumTime: Double = 3600, idleTimeout: Double = 60) {
        self.maximumBody = maximumBody
        self.maximumTime = maximumTime
        self.idleTimeout = idleTimeout
    }

    /// The transfer options these limits are.
    var transferOptions: TransferOptions {
        TransferOptions(
            timeout: .milliseconds(Int64(maximumTime * 1000)), idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
            maximumBodySize: maximumBody, maximumDecompressedSize: maximumBody, maximumRedirects: maximumRedirects)
    }

    /// A byte count: digits with an optional K, M or G suffix (binary units), as `max_body`
    /// and `explorer send --max-body` take it.
    package static func byteCount(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(trimmed)
        var unit = 1
        if let last = trimmed.last, let multiplier = units[last] {
            unit = multiplier
            digits = digits.dropLast()
        }
        guard let value = Int(digits), value > 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : bytes
    }
}

extension TransportFailure {
    /// Reads a transport error with the hint a limit calls for: what was kept and the
    /// `config.yaml` setting that raises it.
    init(_ error: any Error, limits: ResponseLimits) {
        self.init(error)
        switch error as? TransportError {
        case .bodyTooLarge(_, let limit)?:
            let setting =
                switch limit {
                case .bodyBytes, .decompressedBytes:
                    "raise max_body in config.yaml (now \(BodyLimit.size(limits.maximumBody)))"
                case .decompressionRatio: "the body inflates far more than real data does; it was not read further"
                }
            self = TransportFailure(
                category: "body limit", message: message, hint: "what arrived is kept below; \(setting).")
        case .tooManyRedirects?:
            self = TransportFailure(
                category: "redirect limit", message: message,
                hint:
                    "raise max_redirects in config.yaml (now \(limits.maximumRedirects)) to follow more, or set follow_redirects: false on the endpoint to see the first redirect."
            )
        case .timedOut(_, let phase)? where phase.contains("total deadline"):
            self = TransportFailure(
                category: "time limit", message: message,
                hint: "what arrived is kept below; raise max_time in config.yaml (now \(Int(limits.maximumTime)) s).")
        default:
            break
        }
    }
}
