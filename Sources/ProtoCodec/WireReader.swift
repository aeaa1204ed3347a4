/// Reads the binary format's primitives from a byte buffer, throwing at its end or on a
/// malformed varint.
struct WireReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    /// What went wrong, without the place: the decoder adds the field path.
    struct Malformed: Error {
        let reason: String
    }

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.bytes = bytes
        self.position = start
        self.end = end
    }

    var isAtEnd: Bool { position >= end }

    @inline(__always)
    mutating func varint() throws(Malformed) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < end {
            let byte = bytes[position]
            position += 1
            if shift < 64 { result |= UInt64(byte & 0x7F) << shift }
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 70 { throw Malformed(reason: "a varint longer than 10 bytes") }
        }
        throw Malformed(reason: "the message ends inside a varint")
    }

    @inline(__always)
    mutating func fixed32() throws(Malformed) -> UInt32 {
        guard end - position >= 4 else { throw Malformed(reason: "the message ends inside a 32-bit value") }
        var value: UInt32 = 0
        for offset in 0..<4 { value |= UInt32(bytes[position + offset]) << (8 * offset) }
        position += 4
        return value
    }

    @inline(__always)
    mutating func fixed64() throws(Malformed) -> UInt64 {
        let low = try fixed32()
        let high = try fixed32()
        return UInt64(low) | UInt64(high) << 32
    }

    /// A length-delimited value's range; the reader moves past it.
    mutating func lengthDelimited() throws(Malformed) -> Range<Int> {
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw Malformed(reason: "a length of \(length) bytes runs past the message's end")
        }
        let range = position..<(position + Int(length))
        position = range.upperBound
        return range
    }

    /// Skips one value of `wireType` after a tag of `number`; a group is skipped to its end tag.
    mutating func skip(wireType: UInt32, number: UInt64) throws(Malformed) {
        switch wireType {
        case 0: _ = try varint()
        case 1: _ = try fixed64()
        case 2: _ = try lengthDelimited()
        case 5: _ = try fixed32()
        case 3:
            while true {
                let tag = try varint()
                if tag & 7 == 4 {
                    guard tag >> 3 == number else { throw Malformed(reason: "a group ends with another's tag") }
                    return
                }
                try skip(wireType: UInt32(tag & 7), number: tag >> 3)
            }
        default: throw Malformed(reason: "wire type \(wireType) is not one of the format's")
        }
    }

    /// A group's body ending at its end tag of `number`; the reader moves past the end tag.
    mutating func group(number: UInt64) throws(Malformed) -> Range<Int> {
        let start = position
        while true {
            let before = position
            let tag = try varint()
            if tag & 7 == 4 {
                guard tag >> 3 == number else { throw Malformed(reason: "a group ends with another's tag") }
                return start..<before
            }
            try skip(wireType: UInt32(tag & 7), number: tag >> 3)
        }
    }

    static func zigZag32(_ value: UInt64) -> Int32 {
        let value = UInt32(truncatingIfNeeded: value)
        return Int32(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    static func zigZag64(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
