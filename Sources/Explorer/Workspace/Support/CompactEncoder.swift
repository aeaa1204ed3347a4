import Foundation

/// The `Encoder` of ``CompactCoding``: it builds a tree of the values (containers may be
/// written in any order, as the `Encoder` protocols allow), then writes the tree in one pass
/// after measuring it. One encoder object serves every nested value: `node(for:)` saves what
/// it was building, lets the value encode itself, and restores it; only `superEncoder()` makes
/// another.
final class CompactEncoder: Encoder {
    /// What every encoder of one `encode` call shares: the key table and a misuse to report.
    final class State {
        @exclusivity(unchecked) var index: [String: UInt32] = [:]
        @exclusivity(unchecked) var names: [String] = []
        var problem: String?
        let userInfo: [CodingUserInfoKey: Any]

        init(userInfo: [CodingUserInfoKey: Any]) { self.userInfo = userInfo }

        func key(_ name: String) -> UInt32 {
            if let found = index[name] { return found }
            let next = UInt32(names.count)
            index[name] = next
            names.append(name)
            return next
        }
    }

    /// A value of the tree.
    enum Node {
        case absent, null
        case bool(Bool)
        case signed(Int64)
        case unsigned(UInt64)
        case float(Float)
        case double(Double)
        case string(String)
        case bytes(Data)
        case keyed(KeyedBox)
        case unkeyed(UnkeyedBox)
        /// What a `superEncoder()` encodes, read when the tree is written.
        case deferred(CompactEncoder)
    }

    // The boxes' and the encoder's stored properties are `@exclusivity(unchecked)`: nothing
    // here accesses one while another access to it is under way, and the dynamic checks were
    // a fifth of encoding's instructions.

    final class KeyedBox {
        @exclusivity(unchecked) var keys: [UInt32] = []
        @exclusivity(unchecked) var values: [Node] = []
        @exclusivity(unchecked) var bodySize = 0
    }

    final class UnkeyedBox {
        @exclusivity(unchecked) var values: [Node] = []
        @exclusivity(unchecked) var bodySize = 0
    }

    let state: State
    @exclusivity(unchecked) var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { state.userInfo }
    /// What the value being encoded has produced so far.
    @exclusivity(unchecked) private var produced: Node?

    init(state: State, codingPath: [any CodingKey]) {
        self.state = state
        self.codingPath = codingPath
    }

    /// The node of `value`, with the coding path extended by `extra` and `key` while it encodes.
    func node<T: Encodable>(for value: T, key: (any CodingKey)? = nil, extra: [any CodingKey] = []) throws -> Node {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .signed(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
        if T.self == Data.self { return .bytes(unsafeBitCast(value, to: Data.self)) }
        if T.self == Date.self { return .double(unsafeBitCast(value, to: Date.self).timeIntervalSinceReferenceDate) }
        if T.self == URL.self {
            let url = unsafeBitCast(value, to: URL.self)
            if url.baseURL == nil { return .string(url.relativeString) }
        }
        let saved = produced
        let depth = codingPath.count
        produced = nil
        codingPath.append(contentsOf: extra)
        if let key { codingPath.append(key) }
        defer {
            produced = saved
            codingPath.removeLast(codingPath.count - depth)
        }
        try value.encode(to: self)
        return produced ?? .keyed(KeyedBox())
    }

    func path(_ base: Int, _ extra: [any CodingKey]) -> [any CodingKey] {
        Array(codingPath.prefix(base)) + extra
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: KeyedBox
        if case .keyed(let existing)? = produced {
            box = existing
        } else {
            if produced != nil { misuse("a keyed container") }
            box = KeyedBox()
            produced = .keyed(box)
        }
        return KeyedEncodingContainer(KeyedWriter(encoder: self, box: box, base: codingPath.count, extra: []))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: UnkeyedBox
        if case .unkeyed(let existing)? = produced {
            box = existing
        } else {
            if produced != nil { misuse("an unkeyed container") }
            box = UnkeyedBox()
            produced = .unkeyed(box)
        }
        return UnkeyedWriter(encoder: self, box: box, base: codingPath.count, extra: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleWriter(encoder: self)
    }

    fileprivate func set(_ node: Node) { produced = node }

    private func misuse(_ asked: String) {
        let place = CompactCoding.DecodingError.render(codingPath)
        state.problem =
            state.problem ?? "\(place.isEmpty ? "the top level" : place) asked for \(asked) "
            + "after encoding another kind of value"
    }
}

// MARK: - Containers

private struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: CompactEncoder
    let box: CompactEncoder.KeyedBox
    let base: Int
    let extra: [any CodingKey]

    var codingPath: [any CodingKey] { encoder.path(base, extra) }

    private func put(_ key: some CodingKey, _ node: CompactEncoder.Node) {
        box.keys.append(encoder.state.key(key.stringValue))
        box.values.append(node)
    }

    mutating func encodeNil(forKey key: Key) { put(key, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) { put(key, .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) { put(key, .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) { put(key, .double(value)) }
    mutating func encode(_ value: Float, forKey key: Key) { put(key, .float(value)) }
    mutating func encode(_ value: Int, forKey key: Key) { put(key, .signed(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) { put(key, .signed(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) { put(key, .signed(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) { put(key, .signed(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) { put(key, .signed(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) { put(key, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) { put(key, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) { put(key, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) { put(key, .unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) { put(key, .unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(key, try encoder.node(for: value, key: key, extra: extra))
    }

    // A nil given to `encodeIfPresent` keeps its entry, marked absent (see `CompactCoding`).
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { put(key, value.map { .bool($0) } ?? .absent) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) { put(key, value.map { .string($0) } ?? .absent) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) { put(key, value.map { .double($0) } ?? .absent) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) { put(key, value.map { .float($0) } ?? .absent) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) {
        put(key, value.map { .signed(Int64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) {
        put(key, value.map { .signed(Int64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) {
        put(key, value.map { .signed(Int64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) {
        put(key, value.map { .signed(Int64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) { put(key, value.map { .signed($0) } ?? .absent) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) {
        put(key, value.map { .unsigned(UInt64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) {
        put(key, value.map { .unsigned(UInt64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) {
        put(key, value.map { .unsigned(UInt64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) {
        put(key, value.map { .unsigned(UInt64($0)) } ?? .absent)
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) {
        put(key, value.map { .unsigned($0) } ?? .absent)
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return put(key, .absent) }
        try encode(value, forKey: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = CompactEncoder.KeyedBox()
        put(key, .keyed(nested))
        return KeyedEncodingContainer(
            KeyedWriter<NestedKey>(encoder: encoder, box: nested, base: base, extra: extra + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = CompactEncoder.UnkeyedBox()
        put(key, .unkeyed(nested))
        return UnkeyedWriter(encoder: encoder, box: nested, base: base, extra: extra + [key])
    }

    mutating func superEncoder() -> any Encoder { sub(CompactSuperKey()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { sub(key) }

    private func sub(_ key: some CodingKey) -> any Encoder {
        let sub = CompactEncoder(state: encoder.state, codingPath: codingPath + [key])
        put(key, .deferred(sub))
        return sub
    }
}

private struct UnkeyedWriter: UnkeyedEncodingContainer {
    let encoder: CompactEncoder
    let box: CompactEncoder.UnkeyedBox
    let base: Int
    let extra: [any CodingKey]

    var codingPath: [any CodingKey] { encoder.path(base, extra) }
    var count: Int { box.values.count }

    private func put(_ node: CompactEncoder.Node) { box.values.append(node) }

    mutating func encodeNil() { put(.null) }
    mutating func encode(_ value: Bool) { put(.bool(value)) }
    mutating func encode(_ value: String) { put(.string(value)) }
    mutating func encode(_ value: Double) { put(.double(value)) }
    mutating func encode(_ value: Float) { put(.float(value)) }
    mutating func encode(_ value: Int) { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) { put(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) { put(.signed(value)) }
    mutating func encode(_ value: UInt) { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) { put(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) { put(.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        put(try encoder.node(for: value, key: CompactIndexKey(count), extra: extra))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = CompactEncoder.KeyedBox()
        let key = CompactIndexKey(count)
        put(.keyed(nested))
        return KeyedEncodingContainer(
            KeyedWriter<NestedKey>(encoder: encoder, box: nested, base: base, extra: extra + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = CompactEncoder.UnkeyedBox()
        let key = CompactIndexKey(count)
        put(.unkeyed(nested))
        return UnkeyedWriter(encoder: encoder, box: nested, base: base, extra: extra + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let sub = CompactEncoder(state: encoder.state, codingPath: codingPath + [CompactIndexKey(count)])
        put(.deferred(sub))
        return sub
    }
}

private struct SingleWriter: SingleValueEncodingContainer {
    let encoder: CompactEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.set(.null) }
    mutating func encode(_ value: Bool) { encoder.set(.bool(value)) }
    mutating func encode(_ value: String) { encoder.set(.string(value)) }
    mutating func encode(_ value: Double) { encoder.set(.double(value)) }
    mutating func encode(_ value: Float) { encoder.set(.float(value)) }
    mutating func encode(_ value: Int) { encoder.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int8) { encoder.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int16) { encoder.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int32) { encoder.set(.signed(Int64(value))) }
    mutating func encode(_ value: Int64) { encoder.set(.signed(value)) }
    mutating func encode(_ value: UInt) { encoder.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) { encoder.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt16) { encoder.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt32) { encoder.set(.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt64) { encoder.set(.unsigned(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.set(try encoder.node(for: value)) }
}

// MARK: - Writing the tree

extension CompactEncoder {
    /// The bytes of `root` after the format version and the key table.
    static func serialize(_ root: Node, keys: [String]) -> [UInt8] {
        var size = 1 + varintSize(UInt64(keys.count))
        for name in keys { size += varintSize(UInt64(name.utf8.count)) + name.utf8.count }
        size += measure(root)
        var out: [UInt8] = []
        out.reserveCapacity(size)
        out.append(CompactCoding.formatVersion)
        putVarint(UInt64(keys.count), &out)
        for name in keys {
            putVarint(UInt64(name.utf8.count), &out)
            out.append(contentsOf: name.utf8)
        }
        write(root, &out)
        return out
    }

    /// The size of `node` written, tag included; records the body sizes of containers.
    private static func measure(_ node: Node) -> Int {
        switch node {
        case .absent, .null, .bool: return 1
        case .signed(let value): return value >= 0 && value < 128 ? 1 : 1 + varintSize(zigzag(value))
        case .unsigned(let value): return value < 128 ? 1 : 1 + varintSize(value)
        case .float: return 5
        case .double: return 9
        case .string(let text): return 1 + varintSize(UInt64(text.utf8.count)) + text.utf8.count
        case .bytes(let data): return 1 + varintSize(UInt64(data.count)) + data.count
        case .keyed(let box):
            var body = varintSize(UInt64(box.keys.count))
            for (key, value) in zip(box.keys, box.values) { body += varintSize(UInt64(key)) + measure(value) }
            box.bodySize = body
            return 1 + varintSize(UInt64(body)) + body
        case .unkeyed(let box):
            var body = varintSize(UInt64(box.values.count))
            for value in box.values { body += measure(value) }
            box.bodySize = body
            return 1 + varintSize(UInt64(body)) + body
        case .deferred(let encoder):
            // A super encoder nothing was encoded into is an empty keyed container, kept so that
            // writing finds the same box measured.
            if encoder.produced == nil { encoder.produced = .keyed(KeyedBox()) }
            return measure(encoder.produced!)
        }
    }

    private static func write(_ node: Node, _ out: inout [UInt8]) {
        switch node {
        case .absent: out.append(CompactTag.absent)
        case .null: out.append(CompactTag.null)
        case .bool(let value): out.append(value ? CompactTag.trueValue : CompactTag.falseValue)
        case .signed(let value):
            if value >= 0 && value < 128 {
                out.append(CompactTag.smallInteger | UInt8(value))
            } else {
                out.append(CompactTag.signed)
                putVarint(zigzag(value), &out)
            }
        case .unsigned(let value):
            if value < 128 {
                out.append(CompactTag.smallInteger | UInt8(value))
            } else {
                out.append(CompactTag.unsigned)
                putVarint(value, &out)
            }
        case .float(let value):
            out.append(CompactTag.float)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        case .double(let value):
            out.append(CompactTag.double)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        case .string(let text):
            out.append(CompactTag.string)
            putVarint(UInt64(text.utf8.count), &out)
            out.append(contentsOf: text.utf8)
        case .bytes(let data):
            out.append(CompactTag.bytes)
            putVarint(UInt64(data.count), &out)
            out.append(contentsOf: data)
        case .keyed(let box):
            out.append(CompactTag.keyed)
            putVarint(UInt64(box.bodySize), &out)
            putVarint(UInt64(box.keys.count), &out)
            for (key, value) in zip(box.keys, box.values) {
                putVarint(UInt64(key), &out)
                write(value, &out)
            }
        case .unkeyed(let box):
            out.append(CompactTag.unkeyed)
            putVarint(UInt64(box.bodySize), &out)
            putVarint(UInt64(box.values.count), &out)
            for value in box.values { write(value, &out) }
        case .deferred(let encoder):
            write(encoder.produced!, &out)
        }
    }

    private static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    private static func varintSize(_ value: UInt64) -> Int { (64 - (value | 1).leadingZeroBitCount + 6) / 7 }

    private static func putVarint(_ value: UInt64, _ out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }
}
