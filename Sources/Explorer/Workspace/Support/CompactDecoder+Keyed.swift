/// A keyed container of ``CompactDecoder``; its cursor is a frame of the decoder's.
struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
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

    var codingPath: [any CodingKey] { decoder.path(depth) }

    var allKeys: [Key] {
        var keys: [Key] = []
        var position = start
        // A malformed entry ends the list; decoding its value then throws.
        while position < end, let entry = try? next(&position), let name = decoder.keys[entry.key] as String? {
            if decoder.input.base[entry.start] != CompactTag.absent, let key = Key(stringValue: name) {
                keys.append(key)
            }
        }
        return keys
    }

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
    private func locate(_ name: String) throws(Failure) -> Entry? {
        guard let cursor = decoder.cursor(slot, token) else { return try scan(name, from: start, to: end) }
        if let found = try scan(name, from: cursor, to: end) { return found }
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

    /// The entry of `key` if it holds a value (nil included); nil when the key is missing or
    /// was given nil by `encodeIfPresent`. Moves the cursor past an absent entry only.
    private func present(_ key: Key) throws(Failure) -> Entry? {
        guard let entry = try locate(key.stringValue) else { return nil }
        if decoder.input.base[entry.start] == CompactTag.absent {
            decoder.move(slot, token, to: entry.end)
            return nil
        }
        return entry
    }

    private func required(_ key: Key) throws(Failure) -> Entry {
        guard let entry = try present(key) else {
            throw Failure(.keyNotFound, at: start, "no value for the key \"\(key.stringValue)\"")
                .at(codingPath + [key])
        }
        return entry
    }

    private func scalar<T>(_ key: Key, _ read: (inout Int, Int) throws -> T) throws -> T {
        let entry = try required(key)
        var position = entry.start
        do {
            let value = try read(&position, entry.end)
            decoder.move(slot, token, to: entry.end)
            return value
        } catch let error as Failure {
            throw error.at(decoder.path(depth, entry.key))
        }
    }

    private func scalarIfPresent<T>(_ key: Key, _ read: (inout Int, Int) throws -> T) throws -> T? {
        guard let entry = try present(key) else { return nil }
        if decoder.input.base[entry.start] == CompactTag.null {
            decoder.move(slot, token, to: entry.end)
            return nil
        }
        return try scalar(key, read)
    }

    func contains(_ key: Key) -> Bool { ((try? present(key)) ?? nil) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        let entry = try required(key)
        guard decoder.input.base[entry.start] == CompactTag.null else { return false }
        decoder.move(slot, token, to: entry.end)
        return true
    }

    func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key, decoder.input.bool) }
    func decode(_: String.Type, forKey key: Key) throws -> String { try scalar(key, decoder.input.string) }
    func decode(_: Double.Type, forKey key: Key) throws -> Double { try scalar(key, decoder.input.double) }
    func decode(_: Float.Type, forKey key: Key) throws -> Float { try scalar(key, decoder.input.float) }
    func decode(_: Int.Type, forKey key: Key) throws -> Int { try scalar(key, decoder.input.int) }
    func decode(_: Int8.Type, forKey key: Key) throws -> Int8 {
        try scalar(key) { try decoder.input.signed(Int8.self, &$0, $1) }
    }
    func decode(_: Int16.Type, forKey key: Key) throws -> Int16 {
        try scalar(key) { try decoder.input.signed(Int16.self, &$0, $1) }
    }
    func decode(_: Int32.Type, forKey key: Key) throws -> Int32 {
        try scalar(key) { try decoder.input.signed(Int32.self, &$0, $1) }
    }
    func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(key, decoder.input.int64) }
    func decode(_: UInt.Type, forKey key: Key) throws -> UInt {
        try scalar(key) { try decoder.input.unsigned(UInt.self, &$0, $1) }
    }
    func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try scalar(key) { try decoder.input.unsigned(UInt8.self, &$0, $1) }
    }
    func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try scalar(key) { try decoder.input.unsigned(UInt16.self, &$0, $1) }
    }
    func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try scalar(key) { try decoder.input.unsigned(UInt32.self, &$0, $1) }
    }
    func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(key, decoder.input.uint64) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let entry = try required(key)
        let value = try decoder.value(type, at: entry.start, end: entry.end, depth: depth, step: entry.key)
        decoder.move(slot, token, to: entry.end)
        return value
    }

    func decodeIfPresent(_: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(key, decoder.input.bool) }
    func decodeIfPresent(_: String.Type, forKey key: Key) throws -> String? {
        try scalarIfPresent(key, decoder.input.string)
    }
    func decodeIfPresent(_: Double.Type, forKey key: Key) throws -> Double? {
        try scalarIfPresent(key, decoder.input.double)
    }
    func decodeIfPresent(_: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(key, decoder.input.int) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let entry = try present(key) else { return nil }
        if decoder.input.base[entry.start] == CompactTag.null {
            decoder.move(slot, token, to: entry.end)
            return nil
        }
        let value = try decoder.value(type, at: entry.start, end: entry.end, depth: depth, step: entry.key)
        decoder.move(slot, token, to: entry.end)
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let entry = try required(key)
        do {
            let nested = try decoder.keyed(type, at: entry.start, end: entry.end, depth: depth, step: entry.key)
            decoder.move(slot, token, to: entry.end)
            return KeyedDecodingContainer(nested)
        } catch {
            throw error.at(decoder.path(depth, entry.key))
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let entry = try required(key)
        do {
            let nested = try decoder.unkeyed(at: entry.start, end: entry.end, depth: depth, step: entry.key)
            decoder.move(slot, token, to: entry.end)
            return nested
        } catch {
            throw error.at(decoder.path(depth, entry.key))
        }
    }

    func superDecoder() throws -> any Decoder { try sub(CompactSuperKey()) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try sub(key) }

    private func sub(_ key: some CodingKey) throws -> any Decoder {
        guard let entry = try locate(key.stringValue), decoder.input.base[entry.start] != CompactTag.absent else {
            throw Failure(.keyNotFound, at: start, "no value for the key \"\(key.stringValue)\"")
                .at(codingPath + [key])
        }
        decoder.move(slot, token, to: entry.end)
        return decoder.superDecoder(at: entry.start, end: entry.end, depth: depth, step: entry.key)
    }
}
