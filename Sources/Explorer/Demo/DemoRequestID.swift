import HTTPTypes
import Synchronization

/// The request ids of the demo's responses (`X-Request-Id`, the 500 page): random-looking
/// version 4 UUIDs, lowercase, a new one for every response.
///
/// Foundation's `UUID()` opens, reads and closes `/dev/urandom` for each one: under `explorer
/// load` those three system calls were 8% of the demo server's CPU time. These come from a
/// generator seeded once from the system's: splitmix64 over a counter, whose first 64 bits are
/// a bijection of the counter, so two ids of one process differ in practice (only the four
/// version bits are taken from them).
enum DemoRequestID {
    /// The header that carries it.
    static let header = HTTPField.Name("X-Request-Id")!

    private static let seed = UInt64.random(in: .min ... .max)
    private static let digits = Array("0123456789abcdef".utf8)
    private static let counter = Atomic<UInt64>(0)

    /// The next id.
    static func next() -> String {
        let count = counter.wrappingAdd(1, ordering: .relaxed).oldValue
        let high = mix(seed &+ count &* 0x9E37_79B9_7F4A_7C15)
        let low = mix(high ^ 0x94D0_49BB_1331_11EB)
        return format(high: high, low: low)
    }

    /// splitmix64's finalizer: a bijection of 64 bits that spreads every input bit.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 128 bits as a version 4, variant 1 UUID: `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
    static func format(high: UInt64, low: UInt64) -> String {
        let high = (high & ~0xF000) | 0x4000
        let low = (low & ~(0xC << 60)) | (0x8 << 60)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, shift) in stride(from: 60, through: 0, by: -4).enumerated() {
            if index == 8 || index == 12 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int((high >> UInt64(shift)) & 0xF)])
        }
        for (index, shift) in stride(from: 60, through: 0, by: -4).enumerated() {
            if index == 0 || index == 4 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int((low >> UInt64(shift)) & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
