/// Appends the binary format's primitives to one growing byte array.
struct WireWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    @inline(__always)
    mutating func tag(_ tag: UInt32) { varint(UInt64(tag)) }

    @inline(__always)
    mutating func fixed32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    @inline(__always)
    mutating func fixed64(_ value: UInt64) {
        fixed32(UInt32(truncatingIfNeeded: value))
        fixed32(UInt32(truncatingIfNeeded: value >> 32))
    }

    /// A length-delimited value's bytes after its length.
    mutating func lengthDelimited(_ value: some Collection<UInt8>) {
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { lengthDelimited($0) }
    }

    /// Starts a length-delimited value whose length is not known yet: one byte is kept for it,
    /// and `endLengthDelimited(_:)` writes it, moving the value when the length needs more.
    mutating func beginLengthDelimited() -> Int {
        bytes.append(0)
        return bytes.count
    }

    mutating func endLengthDelimited(_ start: Int) {
        let length = bytes.count - start
        if length < 0x80 {
            bytes[start - 1] = UInt8(length)
            return
        }
        var prefix: [UInt8] = []
        var value = UInt64(length)
        while value >= 0x80 {
            prefix.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        prefix.append(UInt8(value))
        bytes.replaceSubrange((start - 1)..<start, with: prefix)
    }

    static func zigZag32(_ value: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: (value << 1) ^ (value >> 31)))
    }

    static func zigZag64(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}
