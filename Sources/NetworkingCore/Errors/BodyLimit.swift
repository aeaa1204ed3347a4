import Foundation

/// Which body limit a response passed, with its value: what `TransportError.bodyTooLarge`
/// names so that a person knows which setting to raise.
public enum BodyLimit: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The largest body in bytes (after decompression).
    case bodyBytes(Int)
    /// The largest size, in bytes, a compressed body may inflate to.
    case decompressedBytes(Int)
    /// The largest ratio of inflated to compressed bytes (a compression bomb passes it).
    case decompressionRatio(Int)

    /// A byte limit written as a number: `bodyTooLarge(url: u, limit: 1000)`.
    public init(integerLiteral value: Int) { self = .bodyBytes(value) }

    /// The limit as a phrase: "the body limit of 1000 bytes".
    public var description: String {
        switch self {
        case .bodyBytes(let bytes): "the body limit of \(bytes) bytes (\(Self.size(bytes)))"
        case .decompressedBytes(let bytes): "the decompressed size limit of \(bytes) bytes (\(Self.size(bytes)))"
        case .decompressionRatio(let ratio): "the decompression ratio limit of \(ratio):1 (a compression bomb?)"
        }
    }

    /// A byte count in binary units, e.g. `2 GiB`, `8 MiB`, `512 B`.
    public static func size(_ bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        return value == value.rounded() ? "\(Int(value)) \(units[unit])" : String(format: "%.1f %@", value, units[unit])
    }
}
