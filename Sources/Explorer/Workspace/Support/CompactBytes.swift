/// Bounds-checked reads from the bytes being decoded: every read takes the offset where its
/// value must end (a container's end, or the buffer's) and throws rather than pass it.
struct CompactBytes {
    let base: UnsafePointer<UInt8>
    let count: Int

    typealias Failure = CompactCoding.DecodingError

    @inline(__always)
    func tag(_ position: Int, _ limit: Int) throws(Failure) -> UInt8 {
        guard position < limit else { throw truncated(position) }
        return base[position]
    }

    @inline(__always)
    func varint(_ position: inout Int, _ limit: Int) throws(Failure) -> UInt64 {
        if position < limit, base[position] < 0x80 {
            defer { position += 1 }
            return UInt64(base[position])
        }
        return try longVarint(&position, limit)
    }

    private func longVarint(_ position: inout Int, _ limit: Int) throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < limit else { throw truncated(position) }
            let byte = base[position]
            if shift == 63 && byte > 1 { throw Failure(.malformed, at: position, "a varint longer than 64 bits") }
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// A length prefix, checked against the bytes left before `limit`.
    @inline(__always)
    func length(_ position: inout Int, _ limit: Int) throws(Failure) -> Int {
        let start = position
        let value = try varint(&position, limit)
        guard value <= UInt64(limit - position) else {
            throw Failure(.truncated, at: start, "a length of \(value) bytes with \(limit - position) left")
        }
        return Int(value)
    }

    /// Where the value at `position` ends: one read for any value, containers included.
    func skip(_ position: Int, _ limit: Int) throws(Failure) -> Int {
        var next = position + 1
        let tag = try tag(position, limit)
        switch tag {
        case CompactTag.absent...CompactTag.trueValue, CompactTag.smallInteger...:
            return next
        case CompactTag.signed, CompactTag.unsigned:
            _ = try varint(&next, limit)
            return next
        case CompactTag.float, CompactTag.double:
            let size = tag == CompactTag.float ? 4 : 8
            guard limit - next >= size else { throw truncated(next) }
            return next + size
        case CompactTag.string, CompactTag.bytes, CompactTag.keyed, CompactTag.unkeyed:
            let size = try length(&next, limit)
            return next + size
        default:
            throw Failure(.malformed, at: position, "an unknown tag \(tag)")
        }
    }

    func truncated(_ position: Int) -> Failure {
        Failure(.truncated, at: position, "the bytes end inside a value")
    }

    func mismatch(_ expected: String, _ tag: UInt8, _ position: Int) -> Failure {
        if tag == CompactTag.null { return Failure(.valueNotFound, at: position, "expected \(expected), found nil") }
        if tag > CompactTag.unkeyed && tag < CompactTag.smallInteger {
            return Failure(.malformed, at: position, "an unknown tag \(tag)")
        }
        return Failure(.typeMismatch, at: position, "expected \(expected), found \(CompactTag.name(tag))")
    }

    // MARK: Scalars

    func bool(_ position: inout Int, _ limit: Int) throws(Failure) -> Bool {
        let tag = try tag(position, limit)
        guard tag == CompactTag.trueValue || tag == CompactTag.falseValue else {
            throw mismatch("a Bool", tag, position)
        }
        position += 1
        return tag == CompactTag.trueValue
    }

    func int64(_ position: inout Int, _ limit: Int) throws(Failure) -> Int64 {
        let tag = try tag(position, limit)
        if tag >= CompactTag.smallInteger {
            position += 1
            return Int64(tag & 0x7F)
        }
        var next = position + 1
        switch tag {
        case CompactTag.signed:
            let zigzag = try varint(&next, limit)
            position = next
            return Int64(bitPattern: (zigzag >> 1) ^ (0 &- (zigzag & 1)))
        case CompactTag.unsigned:
            let value = try varint(&next, limit)
            guard value <= UInt64(Int64.max) else { throw outOfRange("\(value)", "Int64", position) }
            position = next
            return Int64(value)
        default:
            throw mismatch("an integer", tag, position)
        }
    }

    func uint64(_ position: inout Int, _ limit: Int) throws(Failure) -> UInt64 {
        let tag = try tag(position, limit)
        if tag >= CompactTag.smallInteger {
            position += 1
            return UInt64(tag & 0x7F)
        }
        guard tag == CompactTag.unsigned else {
            let start = position
            let value = try int64(&position, limit)
            guard value >= 0 else {
                position = start
                throw outOfRange("\(value)", "an unsigned integer", start)
            }
            return UInt64(value)
        }
        var next = position + 1
        let value = try varint(&next, limit)
        position = next
        return value
    }

    func int(_ position: inout Int, _ limit: Int) throws(Failure) -> Int {
        let start = position
        let value = try int64(&position, limit)
        guard let exact = Int(exactly: value) else {
            position = start
            throw outOfRange("\(value)", "Int", start)
        }
        return exact
    }

    func signed<I: FixedWidthInteger & SignedInteger>(_: I.Type, _ position: inout Int, _ limit: Int) throws(Failure)
        -> I
    {
        let start = position
        let value = try int64(&position, limit)
        guard let exact = I(exactly: value) else {
            position = start
            throw outOfRange("\(value)", "\(I.self)", start)
        }
        return exact
    }

    func unsigned<I: FixedWidthInteger & UnsignedInteger>(_: I.Type, _ position: inout Int, _ limit: Int)
        throws(Failure) -> I
    {
        let start = position
        let value = try uint64(&position, limit)
        guard let exact = I(exactly: value) else {
            position = start
            throw outOfRange("\(value)", "\(I.self)", start)
        }
        return exact
    }

    private func outOfRange(_ value: String, _ type: String, _ position: Int) -> Failure {
        Failure(.typeMismatch, at: position, "\(value) does not fit in \(type)")
    }

    func double(_ position: inout Int, _ limit: Int) throws(Failure) -> Double {
        let tag = try tag(position, limit)
        if tag == CompactTag.float { return Double(try float(&position, limit)) }
        guard tag == CompactTag.double else { throw mismatch("a Double", tag, position) }
        guard limit - position >= 9 else { throw truncated(position + 1) }
        let bits = UnsafeRawPointer(base + position + 1).loadUnaligned(as: UInt64.self)
        position += 9
        return Double(bitPattern: UInt64(littleEndian: bits))
    }

    func float(_ position: inout Int, _ limit: Int) throws(Failure) -> Float {
        let tag = try tag(position, limit)
        guard tag == CompactTag.float else { throw mismatch("a Float", tag, position) }
        guard limit - position >= 5 else { throw truncated(position + 1) }
        let bits = UnsafeRawPointer(base + position + 1).loadUnaligned(as: UInt32.self)
        position += 5
        return Float(bitPattern: UInt32(littleEndian: bits))
    }

    /// The bytes of a string or a `Data` value (tag `tag`), without the tag and length.
    func blob(_ expected: UInt8, _ position: inout Int, _ limit: Int) throws(Failure) -> UnsafeBufferPointer<UInt8> {
        let tag = try tag(position, limit)
        guard tag == expected else { throw mismatch(CompactTag.name(expected), tag, position) }
        var next = position + 1
        let size = try length(&next, limit)
        position = next + size
        return UnsafeBufferPointer(start: base + next, count: size)
    }

    func string(_ position: inout Int, _ limit: Int) throws(Failure) -> String {
        let start = position
        let utf8 = try blob(CompactTag.string, &position, limit)
        guard let text = Self.validString(utf8) else {
            position = start
            throw Failure(.malformed, at: start, "a string that is not valid UTF-8")
        }
        return text
    }

    /// The string of `utf8`, or nil if it is not valid UTF-8. `String(decoding:as:)` is the
    /// fast path the standard library specialises (`String(validating:as:)` is generic and
    /// several times slower here); it replaces invalid sequences, which a comparison of the
    /// bytes then detects, for the strings that are not ASCII only.
    static func validString(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: utf8, as: UTF8.self)
        if isASCII(utf8) { return text }
        return text.utf8.elementsEqual(utf8) ? text : nil
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        let raw = UnsafeRawPointer(bytes.baseAddress)
        if let raw {
            while index + 8 <= count {
                if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                    return false
                }
                index += 8
            }
        }
        while index < count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }
}

// MARK: - Scalars

/// A type read straight from the bytes, without a container: what the containers'
/// `decode(_:forKey:)` overloads for the standard library's scalars read, through one generic
/// path (a method passed as a closure would allocate its context at every call).
protocol CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
}

extension Bool: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.bool(&position, limit) }
}

extension String: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.string(&position, limit) }
}

extension Double: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.double(&position, limit) }
}

extension Float: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.float(&position, limit) }
}

extension Int: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.int(&position, limit) }
}

extension Int64: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.int64(&position, limit) }
}

extension UInt64: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.uint64(&position, limit) }
}

extension Int8: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.signed(Self.self, &position, limit) }
}

extension Int16: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.signed(Self.self, &position, limit) }
}

extension Int32: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.signed(Self.self, &position, limit) }
}

extension UInt: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.unsigned(Self.self, &position, limit) }
}

extension UInt8: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.unsigned(Self.self, &position, limit) }
}

extension UInt16: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.unsigned(Self.self, &position, limit) }
}

extension UInt32: CompactScalar {
    static func read(_ input: CompactBytes, _ position: inout Int, _ limit: Int) throws(CompactCoding.DecodingError)
        -> Self
    { try input.unsigned(Self.self, &position, limit) }
}
