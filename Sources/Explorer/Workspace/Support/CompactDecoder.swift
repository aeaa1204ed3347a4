import Foundation

/// The `Decoder` of ``CompactCoding``. One object serves a whole decode: a nested value is
/// decoded by pointing it at the value's bytes, letting the type's `init(from:)` take its
/// container, and restoring it; containers are structs over the same object. Only
/// `superDecoder()` makes another.
///
/// A keyed container's cursor (the next entry it expects) cannot live in the container, whose
/// methods are not mutating: it lives in a frame on this object's stack of frames, found by
/// slot and checked by a token. Frames above a nested value's are released when the value is
/// done; a container kept past that finds its token gone and searches from its first entry,
/// which is slower but still right.
///
/// The coding path is kept as integers (a key's index in the key table, or an element's
/// index), a step per level, and made into `CodingKey`s only when asked for: `codingPath`
/// holds keys of this decoder's own types with the same names and indices, not the type's
/// own keys. A container reads its path as the first steps of the stack, so the path of a
/// container used after a sibling was opened may name the sibling (errors only).
final class CompactDecoder: Decoder {
    typealias Failure = CompactCoding.DecodingError

    /// The bytes, copied once, so that a decoder kept past `decode` still reads its own memory.
    final class Storage {
        let memory: UnsafeMutableRawPointer

        init(_ memory: UnsafeMutableRawPointer) { self.memory = memory }

        deinit { memory.deallocate() }
    }

    /// A type met by `nested` and whether it is a ``CompactCollection``.
    struct TypeSlot {
        var identity: UInt
        var collection: (any CompactCollection.Type)?
    }

    struct Frame {
        var token: Int
        var position: Int
    }

    /// What changes while decoding, behind a pointer: a class's stored properties would cost
    /// a dynamic exclusivity check at every access.
    struct State {
        /// The value the next `container`, `unkeyedContainer` or `singleValueContainer` reads.
        var valueStart: Int
        var valueEnd: Int
        var frames: UnsafeMutablePointer<Frame>
        var frameCount = 0
        var frameCapacity: Int
        var nextToken = 1
        var steps: UnsafeMutablePointer<Int>
        var stepCount = 0
        var stepCapacity: Int
        var depth = 0
        var types: UnsafeMutablePointer<TypeSlot>
        static let typeSlots = 64

        init(start: Int, end: Int) {
            valueStart = start
            valueEnd = end
            frameCapacity = 16
            frames = .allocate(capacity: frameCapacity)
            stepCapacity = 16
            steps = .allocate(capacity: stepCapacity)
            types = .allocate(capacity: Self.typeSlots)
            types.initialize(repeating: TypeSlot(identity: 0, collection: nil), count: Self.typeSlots)
        }
    }

    let storage: Storage
    let input: CompactBytes
    let keys: [String]
    private let state: UnsafeMutablePointer<State>

    var codingPath: [any CodingKey] { path(state.pointee.stepCount) }
    /// How many steps the coding path has now.
    var pathLength: Int { state.pointee.stepCount }
    let userInfo: [CodingUserInfoKey: Any]

    init(copying raw: UnsafeRawBufferPointer, userInfo: [CodingUserInfoKey: Any]) throws(Failure) {
        self.userInfo = userInfo
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(raw.count, 1), alignment: 8)
        if let source = raw.baseAddress { memory.copyMemory(from: source, byteCount: raw.count) }
        storage = Storage(memory)
        let input = CompactBytes(
            base: UnsafePointer(memory.bindMemory(to: UInt8.self, capacity: raw.count)), count: raw.count)
        self.input = input
        let (keys, root) = try Self.header(input)
        self.keys = keys
        // Allocated last: a throw before this point leaves nothing for `deinit` to free.
        state = .allocate(capacity: 1)
        state.initialize(to: State(start: root, end: raw.count))
    }

    /// The key table at the start of `input`, and where the value after it starts.
    private static func header(_ input: CompactBytes) throws(Failure) -> (keys: [String], root: Int) {
        guard input.count > 0 else { throw input.truncated(0) }
        guard input.base[0] == CompactCoding.formatVersion else {
            throw Failure(.unsupportedFormat, at: 0, "format \(input.base[0]), not this build's")
        }
        var position = 1
        let count = try input.varint(&position, input.count)
        guard count <= UInt64(input.count - position) else {
            throw Failure(.truncated, at: 1, "\(count) key names with \(input.count - position) bytes left")
        }
        var keys: [String] = []
        keys.reserveCapacity(Int(count))
        for _ in 0..<count {
            let size = try input.length(&position, input.count)
            guard let name = CompactBytes.validString(UnsafeBufferPointer(start: input.base + position, count: size))
            else { throw Failure(.malformed, at: position, "a key name that is not valid UTF-8") }
            keys.append(name)
            position += size
        }
        return (keys, position)
    }

    /// A decoder of one value of `parent`'s bytes (`superDecoder()`), at `steps` of its path.
    private init(parent: CompactDecoder, start: Int, end: Int, steps: Int) {
        storage = parent.storage
        input = parent.input
        keys = parent.keys
        userInfo = parent.userInfo
        state = .allocate(capacity: 1)
        state.initialize(to: State(start: start, end: end))
        state.pointee.depth = parent.state.pointee.depth
        for index in 0..<steps { push(parent.state.pointee.steps[index]) }
    }

    deinit {
        state.pointee.frames.deallocate()
        state.pointee.steps.deallocate()
        state.pointee.types.deallocate()
        state.deallocate()
    }

    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        let (start, limit) = (state.pointee.valueStart, state.pointee.valueEnd)
        let end = try input.skip(start, limit)
        guard end == limit else { throw Failure(.malformed, at: end, "\(limit - end) bytes after the value") }
        return try value(type, at: start, end: end, depth: 0, step: nil)
    }

    // MARK: Coding path

    private func push(_ step: Int) {
        if state.pointee.stepCount == state.pointee.stepCapacity {
            let larger = UnsafeMutablePointer<Int>.allocate(capacity: state.pointee.stepCapacity * 2)
            larger.moveInitialize(from: state.pointee.steps, count: state.pointee.stepCount)
            state.pointee.steps.deallocate()
            state.pointee.steps = larger
            state.pointee.stepCapacity *= 2
        }
        state.pointee.steps[state.pointee.stepCount] = step
        state.pointee.stepCount += 1
    }

    /// The step of an element of an unkeyed container (a key's step is its table index).
    static func indexStep(_ index: Int) -> Int { -1 - index }

    /// The first `count` steps of the path as keys, then `step`.
    func path(_ count: Int, _ step: Int? = nil) -> [any CodingKey] {
        var path: [any CodingKey] = []
        for index in 0..<min(count, state.pointee.stepCount) { path.append(key(state.pointee.steps[index])) }
        if let step { path.append(key(step)) }
        return path
    }

    private func key(_ step: Int) -> any CodingKey {
        step >= 0 ? CompactNameKey(keys[step]) : CompactIndexKey(-1 - step)
    }

    // MARK: Values

    /// The value at `start` (ending at `end`) as `type`, at `step` below the first `depth`
    /// steps of the path: common scalars are read directly, anything else by its
    /// `init(from:)` with this decoder pointed at it.
    func value<T: Decodable>(_ type: T.Type, at start: Int, end: Int, depth: Int, step: Int?) throws -> T {
        var position = start
        do {
            if T.self == String.self { return unsafeBitCast(try input.string(&position, end), to: T.self) }
            if T.self == Int.self { return unsafeBitCast(try input.int(&position, end), to: T.self) }
            if T.self == Bool.self { return unsafeBitCast(try input.bool(&position, end), to: T.self) }
            if T.self == Double.self { return unsafeBitCast(try input.double(&position, end), to: T.self) }
            if T.self == Date.self {
                let date = Date(timeIntervalSinceReferenceDate: try input.double(&position, end))
                return unsafeBitCast(date, to: T.self)
            }
            if T.self == Data.self, try input.tag(start, end) == CompactTag.bytes {
                return unsafeBitCast(Data(try input.blob(CompactTag.bytes, &position, end)), to: T.self)
            }
            if T.self == URL.self, try input.tag(start, end) == CompactTag.string {
                let text = try input.string(&position, end)
                guard let url = URL(string: text) else {
                    throw Failure(.typeMismatch, at: start, "expected a URL, found \"\(text)\"")
                }
                return unsafeBitCast(url, to: T.self)
            }
            return try nested(type, at: start, end: end, depth: depth, step: step)
        } catch let error as Failure {
            throw error.at(path(depth, step))
        }
    }

    private func nested<T: Decodable>(_ type: T.Type, at start: Int, end: Int, depth: Int, step: Int?) throws -> T {
        let saved = state.pointee
        guard saved.depth < CompactCoding.maximumDepth else {
            throw Failure(.tooDeep, at: start, "values nested deeper than \(CompactCoding.maximumDepth)")
        }
        state.pointee.depth += 1
        state.pointee.valueStart = start
        state.pointee.valueEnd = end
        state.pointee.stepCount = min(depth, saved.stepCount)
        if let step { push(step) }
        defer {
            state.pointee.depth = saved.depth
            state.pointee.valueStart = saved.valueStart
            state.pointee.valueEnd = saved.valueEnd
            state.pointee.frameCount = saved.frameCount
            state.pointee.stepCount = saved.stepCount
        }
        if let collection = collectionType(type) {
            return try filled(collection, as: type, at: start, end: end)
        }
        return try T(from: self)
    }

    /// `type` as a ``CompactCollection``, or nil: a conformance check costs as much as the rest of
    /// decoding a small struct, so its answer is kept for each type met (a direct-mapped table).
    @inline(__always)
    private func collectionType<T>(_ type: T.Type) -> (any CompactCollection.Type)? {
        let identity = UInt(bitPattern: ObjectIdentifier(type))
        let slot = state.pointee.types + Int(truncatingIfNeeded: (identity >> 4) & UInt(State.typeSlots - 1))
        if slot.pointee.identity == identity { return slot.pointee.collection }
        let collection = type as? any CompactCollection.Type
        slot.pointee = TypeSlot(identity: identity, collection: collection)
        return collection
    }

    private func filled<C: CompactCollection, T>(_: C.Type, as: T.Type, at start: Int, end: Int) throws -> T {
        unsafeBitCast(try C.decodeCompact(self, at: start, end: end, depth: state.pointee.stepCount), to: T.self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let current = state.pointee
        let core = try keyed(at: current.valueStart, end: current.valueEnd, depth: current.stepCount)
        return KeyedDecodingContainer(KeyedReader<Key>(core: core))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let current = state.pointee
        return try unkeyed(at: current.valueStart, end: current.valueEnd, depth: current.stepCount)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let current = state.pointee
        return SingleReader(decoder: self, start: current.valueStart, end: current.valueEnd)
    }

    /// A keyed container at `start`, whose path is the first `depth` steps, then `step`.
    func keyed(at start: Int, end limit: Int, depth: Int, step: Int? = nil) throws(Failure) -> KeyedCore {
        let tag = try input.tag(start, limit)
        guard tag == CompactTag.keyed else { throw input.mismatch("a keyed container", tag, start) }
        var position = start + 1
        let size = try input.length(&position, limit)
        let end = position + size
        let count = try input.varint(&position, end)
        guard count <= UInt64(end - position) / 2 else {
            throw Failure(.malformed, at: start, "\(count) entries in \(end - position) bytes")
        }
        let depth = placeStep(depth, step)
        if state.pointee.frameCount == state.pointee.frameCapacity {
            let larger = UnsafeMutablePointer<Frame>.allocate(capacity: state.pointee.frameCapacity * 2)
            larger.moveInitialize(from: state.pointee.frames, count: state.pointee.frameCount)
            state.pointee.frames.deallocate()
            state.pointee.frames = larger
            state.pointee.frameCapacity *= 2
        }
        let token = state.pointee.nextToken
        let slot = state.pointee.frameCount
        state.pointee.nextToken += 1
        (state.pointee.frames + slot).initialize(to: Frame(token: token, position: position))
        state.pointee.frameCount += 1
        return KeyedCore(
            decoder: self, start: position, end: end, slot: slot, token: token, depth: depth, count: Int(count))
    }

    /// An unkeyed container at `start`, whose path is the first `depth` steps, then `step`.
    func unkeyed(at start: Int, end limit: Int, depth: Int, step: Int? = nil) throws(Failure) -> UnkeyedReader {
        let tag = try input.tag(start, limit)
        guard tag == CompactTag.unkeyed else { throw input.mismatch("an unkeyed container", tag, start) }
        var position = start + 1
        let size = try input.length(&position, limit)
        let end = position + size
        let count = try input.varint(&position, end)
        guard count <= UInt64(end - position) else {
            throw Failure(.malformed, at: start, "\(count) values in \(end - position) bytes")
        }
        return UnkeyedReader(
            decoder: self, end: end, total: Int(count), position: position, depth: placeStep(depth, step))
    }

    /// Cuts the path to `depth` steps and adds `step`; the new depth.
    private func placeStep(_ depth: Int, _ step: Int?) -> Int {
        guard let step else { return depth }
        state.pointee.stepCount = min(depth, state.pointee.stepCount)
        push(step)
        return state.pointee.stepCount
    }

    func superDecoder(at start: Int, end: Int, depth: Int, step: Int) -> any Decoder {
        let steps = placeStep(depth, step)
        return CompactDecoder(parent: self, start: start, end: end, steps: steps)
    }

    /// Where a keyed container's cursor is, if the container's frame is still its own.
    @inline(__always)
    func cursor(_ slot: Int, _ token: Int) -> Int? {
        let frames = state.pointee.frames
        return slot < state.pointee.frameCount && frames[slot].token == token ? frames[slot].position : nil
    }

    @inline(__always)
    func move(_ slot: Int, _ token: Int, to position: Int) {
        let frames = state.pointee.frames
        if slot < state.pointee.frameCount && frames[slot].token == token { frames[slot].position = position }
    }
}

// MARK: - Collections

/// Collections the decoder fills itself rather than through their `init(from:)`: the same
/// values in the same order, but with the capacity reserved from the count, no container
/// boxed in an existential, and (for a dictionary) no array of keys made and parsed back.
protocol CompactCollection {
    static func decodeCompact(_ decoder: CompactDecoder, at start: Int, end: Int, depth: Int) throws -> Self
}

extension Array: CompactCollection where Element: Decodable {
    static func decodeCompact(_ decoder: CompactDecoder, at start: Int, end: Int, depth: Int) throws -> Self {
        var reader = try decoder.unkeyed(at: start, end: end, depth: depth)
        var elements: [Element] = []
        elements.reserveCapacity(reader.total)
        while !reader.isAtEnd { elements.append(try reader.decode(Element.self)) }
        return elements
    }
}

extension Dictionary: CompactCollection where Key == String, Value: Decodable {
    static func decodeCompact(_ decoder: CompactDecoder, at start: Int, end: Int, depth: Int) throws -> Self {
        let core = try decoder.keyed(at: start, end: end, depth: depth)
        var entries: [String: Value] = [:]
        entries.reserveCapacity(core.count)
        try core.forEachEntry { name, entry in entries[name] = try core.value(Value.self, entry) }
        return entries
    }
}
