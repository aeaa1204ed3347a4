/// What a keyed container of ``CompactDecoder`` does, apart from its key type: kept out of the
/// generic `KeyedReader`, whose methods run unspecialised (through the standard library's
/// box), so that this code is compiled for one layout and inlined.
struct KeyedCore {
    typealias Failure = CompactCoding.DecodingError

    /// An entry: its key's index in the table, where its value starts and ends.
    struct Entry {
        let key: Int
        let start: Int
        let end: Int
    }

    let decoder: CompactDecoder
    let start: Int
    let end: Int
    let slot: Int
    let token: Int
    /// How many steps of the decoder's path are this container's.
    let depth: Int

    /// How many entries the container has, absent ones included.
    let count: Int

    /// Calls `body` with the name of each entry that holds a value, in order; a malformed
    /// entry ends the walk (decoding its value then throws).
    func forEachName(_ body: (String) -> Void) {
        var position = start
        while position < end, let entry = try? next(&position) {
            if decoder.input.base[entry.start] != CompactTag.absent { body(decoder.keys[entry.key]) }
        }
    }

    /// Calls `body` with the name and the entry of each entry that holds a value, in order.
    func forEachEntry(_ body: (String, Entry) throws -> Void) throws {
        var position = start
        while position < end {
            let entry = try next(&position)
            if decoder.input.base[entry.start] != CompactTag.absent { try body(decoder.keys[entry.key], entry) }
        }
    }

    @inline(__always)
    private func next(_ position: inout Int) throws(Failure) -> Entry {
        let index = try decoder.input.varint(&position, end)
        guard index < UInt64(decoder.keys.count) else {
            throw Failure(.malformed, at: position - 1, "key \(index) of a table of \(decoder.keys.count)")
        }
        let valueEnd = try decoder.input.skip(position, end)
        defer { position = valueEnd }
        return Entry(key: Int(index), start: position, end: valueEnd)
    }

    /// The entry of `name`: at the cursor (the next entry) when keys are decoded in the order
    /// they were encoded; otherwise after it, then before it.
    func locate(_ name: String) throws(Failure) -> Entry? {
        guard let cursor = decoder.cursor(slot, token) else { return try scan(name, from: start, to: end) }
        if cursor < end {
            var position = cursor
            let entry = try next(&position)
            if decoder.keys[entry.key] == name { return entry }
            if let found = try scan(name, from: position, to: end) { return found }
        }
        return try scan(name, from: start, to: cursor)
    }

    private func scan(_ name: String, from: Int, to: Int) throws(Failure) -> Entry? {
        var position = from
        while position < to {
            let entry = try next(&position)
            if decoder.keys[entry.key] == name { return entry }
        }
        return nil
    }

    /// The entry of `name` if it holds a value (nil included); nil when the key is missing or
    /// was given nil by `encodeIfPresent`. Moves the cursor past an absent entry only.
    @inline(__always)
    func present(_ name: String) throws(Failure) -> Entry? {
        guard let entry = try locate(name) else { return nil }
        if decoder.input.base[entry.start] == CompactTag.absent {
            done(entry)
            return nil
        }
        return entry
    }

    @inline(__always)
    func required(_ name: String) throws(Failure) -> Entry {
        guard let entry = try present(name) else { throw missing(name) }
        return entry
    }

    func missing(_ name: String) -> Failure {
        Failure(.keyNotFound, at: start, "no value for the key \"\(name)\"")
            .at(decoder.path(depth) + [CompactNameKey(name)])
    }

    /// Moves the cursor past `entry`.
    @inline(__always)
    func done(_ entry: Entry) { decoder.move(slot, token, to: entry.end) }

    func isNil(_ entry: Entry) -> Bool { decoder.input.base[entry.start] == CompactTag.null }

    func scalar<T: CompactScalar>(_: T.Type, _ name: String) throws(Failure) -> T {
        try read(T.self, try required(name))
    }

    func scalarIfPresent<T: CompactScalar>(_ type: T.Type, _ name: String) throws(Failure) -> T? {
        guard let entry = try present(name) else { return nil }
        if isNil(entry) {
            done(entry)
            return nil
        }
        return try read(T.self, entry)
    }

    /// The scalar of an entry, the cursor moved past it.
    private func read<T: CompactScalar>(_: T.Type, _ entry: Entry) throws(Failure) -> T {
        var position = entry.start
        do {
            let value = try T.read(decoder.input, &position, entry.end)
            done(entry)
            return value
        } catch {
            throw error.at(decoder.path(depth, entry.key))
        }
    }

    func value<T: Decodable>(_ type: T.Type, _ entry: Entry) throws -> T {
        let value = try decoder.value(type, at: entry.start, end: entry.end, depth: depth, step: entry.key)
        done(entry)
        return value
    }
}

/// A keyed container of ``CompactDecoder``: its cursor is a frame of the decoder's.
struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let core: KeyedCore

    var codingPath: [any CodingKey] { core.decoder.path(core.depth) }

    var allKeys: [Key] {
        guard core.count > 0 else { return [] }
        var keys: [Key] = []
        keys.reserveCapacity(core.count)
        core.forEachName { name in
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { ((try? core.present(key.stringValue)) ?? nil) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        let entry = try core.required(key.stringValue)
        guard core.isNil(entry) else { return false }
        core.done(entry)
        return true
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try core.scalar(type, key.stringValue) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try core.scalar(type, key.stringValue) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try core.scalar(type, key.stringValue) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try core.scalar(type, key.stringValue) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try core.scalar(type, key.stringValue) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try core.scalar(type, key.stringValue) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try core.scalar(type, key.stringValue) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try core.scalar(type, key.stringValue) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try core.scalar(type, key.stringValue) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try core.scalar(type, key.stringValue) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try core.scalar(type, key.stringValue) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try core.scalar(type, key.stringValue) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try core.scalar(type, key.stringValue) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try core.scalar(type, key.stringValue) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try core.value(type, try core.required(key.stringValue))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try core.scalarIfPresent(type, key.stringValue)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try core.scalarIfPresent(type, key.stringValue)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let entry = try core.present(key.stringValue) else { return nil }
        if core.isNil(entry) {
            core.done(entry)
            return nil
        }
        return try core.value(type, entry)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let entry = try core.required(key.stringValue)
        let decoder = core.decoder
        do {
            let nested = try decoder.keyed(at: entry.start, end: entry.end, depth: core.depth, step: entry.key)
            core.done(entry)
            return KeyedDecodingContainer(KeyedReader<NestedKey>(core: nested))
        } catch {
            throw error.at(decoder.path(core.depth, entry.key))
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let entry = try core.required(key.stringValue)
        let decoder = core.decoder
        do {
            let nested = try decoder.unkeyed(at: entry.start, end: entry.end, depth: core.depth, step: entry.key)
            core.done(entry)
            return nested
        } catch {
            throw error.at(decoder.path(core.depth, entry.key))
        }
    }

    func superDecoder() throws -> any Decoder { try sub(CompactSuperKey().stringValue) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try sub(key.stringValue) }

    private func sub(_ name: String) throws -> any Decoder {
        let entry = try core.required(name)
        core.done(entry)
        return core.decoder.superDecoder(at: entry.start, end: entry.end, depth: core.depth, step: entry.key)
    }
}
