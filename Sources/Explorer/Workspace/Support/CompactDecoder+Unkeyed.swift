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

    private mutating func scalar<T: CompactScalar>(_: T.Type) throws(Failure) -> T {
        try ensureMore()
        var next = position
        do {
            let value = try T.read(decoder.input, &next, end)
            position = next
            currentIndex += 1
            return value
        } catch {
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

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

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
            let nested = try decoder.keyed(at: position, end: next, depth: depth, step: step)
            position = next
            currentIndex += 1
            return KeyedDecodingContainer(KeyedReader<NestedKey>(core: nested))
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

/// A single-value container of ``CompactDecoder``: the value the decoder points at. Three
/// words, so that the existential `singleValueContainer()` returns holds it inline (no
/// allocation for each raw-value enum or optional): its path is the decoder's at the time
/// of use, as it is for the synthesized and the usual hand-written `init(from:)`.
struct SingleReader: SingleValueDecodingContainer {
    typealias Failure = CompactCoding.DecodingError

    let decoder: CompactDecoder
    let start: Int
    let end: Int

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var depth: Int { decoder.pathLength }

    private func scalar<T: CompactScalar>(_: T.Type) throws(Failure) -> T {
        var position = start
        do {
            return try T.read(decoder.input, &position, end)
        } catch {
            throw error.at(codingPath)
        }
    }

    func decodeNil() -> Bool { (try? decoder.input.tag(start, end)) == CompactTag.null }

    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    func decode(_ type: String.Type) throws -> String { try scalar(type) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.value(type, at: start, end: end, depth: depth, step: nil)
    }
}
