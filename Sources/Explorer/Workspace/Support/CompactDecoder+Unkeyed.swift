/// An unkeyed container of ``CompactDecoder``: its cursor is its own (its methods are mutating).
struct UnkeyedReader: UnkeyedDecodingContainer {
    typealias Failure = CompactCoding.DecodingError

    let decoder: CompactDecoder
    let end: Int
    let total: Int
    var position: Int
    /// How many steps of the decoder's path are this container's.
    let depth: Int
    private(set) var currentIndex = 0

    init(decoder: CompactDecoder, end: Int, total: Int, position: Int, depth: Int) {
        self.decoder = decoder
        self.end = end
        self.total = total
        self.position = position
        self.depth = depth
    }

    var codingPath: [any CodingKey] { decoder.path(depth) }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    private func ensureMore() throws(Failure) {
        guard currentIndex < total else {
            throw Failure(.valueNotFound, at: position, "no value after the \(total) of an unkeyed container")
                .at(decoder.path(depth, CompactDecoder.indexStep(currentIndex)))
        }
    }

    private mutating func scalar<T>(_ read: (CompactBytes, inout Int, Int) throws -> T) throws -> T {
        try ensureMore()
        var next = position
        do {
            let value = try read(decoder.input, &next, end)
            position = next
            currentIndex += 1
            return value
        } catch let error as Failure {
            throw error.at(decoder.path(depth, CompactDecoder.indexStep(currentIndex)))
        }
    }

    /// The end of the next value, checked.
    private func nextEnd() throws(Failure) -> Int {
        try ensureMore()
        do {
            return try decoder.input.skip(position, end)
        } catch {
            throw error.at(decoder.path(depth, CompactDecoder.indexStep(currentIndex)))
        }
    }

    mutating func decodeNil() throws -> Bool {
        try ensureMore()
        guard try decoder.input.tag(position, end) == CompactTag.null else { return false }
        position += 1
        currentIndex += 1
        return true
    }

    mutating func decode(_: Bool.Type) throws -> Bool { try scalar { try $0.bool(&$1, $2) } }
    mutating func decode(_: String.Type) throws -> String { try scalar { try $0.string(&$1, $2) } }
    mutating func decode(_: Double.Type) throws -> Double { try scalar { try $0.double(&$1, $2) } }
    mutating func decode(_: Float.Type) throws -> Float { try scalar { try $0.float(&$1, $2) } }
    mutating func decode(_: Int.Type) throws -> Int { try scalar { try $0.int(&$1, $2) } }
    mutating func decode(_: Int8.Type) throws -> Int8 { try scalar { try $0.signed(Int8.self, &$1, $2) } }
    mutating func decode(_: Int16.Type) throws -> Int16 { try scalar { try $0.signed(Int16.self, &$1, $2) } }
    mutating func decode(_: Int32.Type) throws -> Int32 { try scalar { try $0.signed(Int32.self, &$1, $2) } }
    mutating func decode(_: Int64.Type) throws -> Int64 { try scalar { try $0.int64(&$1, $2) } }
    mutating func decode(_: UInt.Type) throws -> UInt { try scalar { try $0.unsigned(UInt.self, &$1, $2) } }
    mutating func decode(_: UInt8.Type) throws -> UInt8 { try scalar { try $0.unsigned(UInt8.self, &$1, $2) } }
    mutating func decode(_: UInt16.Type) throws -> UInt16 {
        try scalar { try $0.unsigned(UInt16.self, &$1, $2) }
    }
    mutating func decode(_: UInt32.Type) throws -> UInt32 {
        try scalar { try $0.unsigned(UInt32.self, &$1, $2) }
    }
    mutating func decode(_: UInt64.Type) throws -> UInt64 { try scalar { try $0.uint64(&$1, $2) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let next = try nextEnd()
        let value = try decoder.value(
            type, at: position, end: next, depth: depth, step: CompactDecoder.indexStep(currentIndex))
        position = next
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let next = try nextEnd()
        let step = CompactDecoder.indexStep(currentIndex)
        do {
            let nested = try decoder.keyed(type, at: position, end: next, depth: depth, step: step)
            position = next
            currentIndex += 1
            return KeyedDecodingContainer(nested)
        } catch {
            throw error.at(decoder.path(depth, CompactDecoder.indexStep(currentIndex)))
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let next = try nextEnd()
        let step = CompactDecoder.indexStep(currentIndex)
        do {
            let nested = try decoder.unkeyed(at: position, end: next, depth: depth, step: step)
            position = next
            currentIndex += 1
            return nested
        } catch {
            throw error.at(decoder.path(depth, CompactDecoder.indexStep(currentIndex)))
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        let next = try nextEnd()
        let sub = decoder.superDecoder(
            at: position, end: next, depth: depth, step: CompactDecoder.indexStep(currentIndex))
        position = next
        currentIndex += 1
        return sub
    }
}

/// A single-value container of ``CompactDecoder``: the value the decoder points at.
struct SingleReader: SingleValueDecodingContainer {
    typealias Failure = CompactCoding.DecodingError

    let decoder: CompactDecoder
    let start: Int
    let end: Int
    let depth: Int

    var codingPath: [any CodingKey] { decoder.path(depth) }

    private func scalar<T>(_ read: (inout Int, Int) throws -> T) throws -> T {
        var position = start
        do {
            return try read(&position, end)
        } catch let error as Failure {
            throw error.at(codingPath)
        }
    }

    func decodeNil() -> Bool { (try? decoder.input.tag(start, end)) == CompactTag.null }

    func decode(_: Bool.Type) throws -> Bool { try scalar(decoder.input.bool) }
    func decode(_: String.Type) throws -> String { try scalar(decoder.input.string) }
    func decode(_: Double.Type) throws -> Double { try scalar(decoder.input.double) }
    func decode(_: Float.Type) throws -> Float { try scalar(decoder.input.float) }
    func decode(_: Int.Type) throws -> Int { try scalar(decoder.input.int) }
    func decode(_: Int8.Type) throws -> Int8 { try scalar { try decoder.input.signed(Int8.self, &$0, $1) } }
    func decode(_: Int16.Type) throws -> Int16 { try scalar { try decoder.input.signed(Int16.self, &$0, $1) } }
    func decode(_: Int32.Type) throws -> Int32 { try scalar { try decoder.input.signed(Int32.self, &$0, $1) } }
    func decode(_: Int64.Type) throws -> Int64 { try scalar(decoder.input.int64) }
    func decode(_: UInt.Type) throws -> UInt { try scalar { try decoder.input.unsigned(UInt.self, &$0, $1) } }
    func decode(_: UInt8.Type) throws -> UInt8 { try scalar { try decoder.input.unsigned(UInt8.self, &$0, $1) } }
    func decode(_: UInt16.Type) throws -> UInt16 { try scalar { try decoder.input.unsigned(UInt16.self, &$0, $1) } }
    func decode(_: UInt32.Type) throws -> UInt32 { try scalar { try decoder.input.unsigned(UInt32.self, &$0, $1) } }
    func decode(_: UInt64.Type) throws -> UInt64 { try scalar(decoder.input.uint64) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.value(type, at: start, end: end, depth: depth, step: nil)
    }
}
