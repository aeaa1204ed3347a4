import Foundation
import NetworkingCore
import Synchronization

/// The resources a stateful mock keeps (`explorer mock --stateful`), by collection path
/// (`/users`), each in the order it was stored: in memory for the session, seeded from the
/// document's examples, bounded by a count of resources (`limit`) and a size (`byteLimit`).
///
/// `--state FILE` loads them from a file when it starts and saves them to it (mode 0600) when it
/// stops; nothing is written otherwise.
package final class MockStateStore: Sendable {
    /// The default most resources kept (`--state-limit`).
    package static let defaultLimit = 10_000
    /// The most bytes of resources kept (as serialized JSON), whatever the count.
    package static let byteLimit = 64 * 1_024 * 1_024
    /// The largest state file read.
    package static let fileLimit = 128 * 1_024 * 1_024

    /// The most resources kept, all collections together.
    package let limit: Int

    private struct Shelf: Sendable {
        var order: [String] = []
        var values: [String: JSONValue] = [:]
        /// The next integer id (one more than the highest stored).
        var nextNumber = 1
    }

    private struct Storage: Sendable {
        var shelves: [String: Shelf] = [:]
        /// Paths deleted that no collection path stores (`/rates/{field}` alone): gone until a
        /// PUT or POST there.
        var deleted: Set<String> = []
        var count = 0
        var bytes = 0
    }

    private let storage = Mutex(Storage())
    private let seeds: Mutex<[(collection: String, id: String, value: JSONValue)]>

    /// Why a resource was not stored.
    package enum Refusal: Error, Sendable, Equatable {
        /// `limit` resources are kept already.
        case full(limit: Int)
        /// The resources kept would pass `byteLimit`.
        case tooLarge(limit: Int)
    }

    /// An empty store.
    ///
    /// - Parameter limit: the most resources kept (at least 1).
    package init(limit: Int = MockStateStore.defaultLimit) {
        self.limit = max(1, limit)
        seeds = Mutex([])
    }

    /// A store seeded from a plan's examples (`MockResources.seeds(of:)`).
    ///
    /// - Parameters:
    ///   - plan: what the mock serves.
    ///   - limit: the most resources kept.
    package convenience init(seededFrom plan: MockPlan, limit: Int = MockStateStore.defaultLimit) {
        self.init(limit: limit)
        seed(MockResources(plan: plan).seeds(of: plan))
    }

    /// How many resources are kept.
    package var count: Int { storage.withLock { $0.count } }

    // MARK: - Reading and changing

    /// The resources of a collection, in the order they were stored.
    package func list(_ collection: String) -> [JSONValue] {
        storage.withLock { storage in
            guard let shelf = storage.shelves[collection] else { return [] }
            return shelf.order.compactMap { shelf.values[$0] }
        }
    }

    /// The resource `id` of a collection.
    package func item(_ collection: String, id: String) -> JSONValue? {
        storage.withLock { $0.shelves[collection]?.values[id] }
    }

    /// Stores a new resource (or replaces the one with its id) and returns its id: the id
    /// member's value when it has one, else a new id of `kind`, set in the resource.
    ///
    /// - Throws: `Refusal` when the store is full.
    @discardableResult
    package func create(_ value: JSONValue, kind: MockResourceKind) throws(Refusal) -> (id: String, value: JSONValue) {
        try storage.withLock { storage throws(Refusal) in
            var shelf = storage.shelves[kind.collection] ?? Shelf()
            var value = value
            let id: String
            if let member = kind.idMember, let given = value[member], let text = Self.idText(given) {
                id = text
            } else {
                let number = shelf.nextNumber
                switch kind.idKind {
                case .integer: id = String(number)
                case .string: id = String(number)
                case .uuid: id = UUID().uuidString.lowercased()
                }
                if let member = kind.idMember {
                    value = value.setting(member, to: kind.idKind == .integer ? JSONValue(number) : .string(id))
                }
            }
            try Self.put(value, id: id, in: &shelf, storage: &storage, limit: limit)
            storage.shelves[kind.collection] = shelf
            return (id, value)
        }
    }

    /// Replaces the resource `id` of a collection when it is kept.
    ///
    /// - Returns: whether it was kept.
    /// - Throws: `Refusal` when the new value would pass `byteLimit`.
    package func replace(_ collection: String, id: String, with value: JSONValue) throws(Refusal) -> Bool {
        try storage.withLock { storage throws(Refusal) in
            guard var shelf = storage.shelves[collection], shelf.values[id] != nil else { return false }
            try Self.put(value, id: id, in: &shelf, storage: &storage, limit: limit)
            storage.shelves[collection] = shelf
            return true
        }
    }

    /// Removes the resource `id` of a collection.
    ///
    /// - Returns: whether it was kept.
    package func remove(_ collection: String, id: String) -> Bool {
        storage.withLock { storage in
            guard var shelf = storage.shelves[collection], let old = shelf.values.removeValue(forKey: id) else {
                return false
            }
            shelf.order.removeAll { $0 == id }
            storage.count -= 1
            storage.bytes -= old.serialized().utf8.count
            storage.shelves[collection] = shelf
            return true
        }
    }

    /// Marks a path that no collection stores as deleted: it is answered 404 until `revive(_:)`.
    ///
    /// - Returns: whether it was there (not deleted already).
    /// - Throws: `Refusal` when the store is full.
    package func markDeleted(_ path: String) throws(Refusal) -> Bool {
        try storage.withLock { storage throws(Refusal) in
            guard !storage.deleted.contains(path) else { return false }
            guard storage.count < limit else { throw .full(limit: limit) }
            storage.deleted.insert(path)
            storage.count += 1
            return true
        }
    }

    /// Whether a path was deleted by `markDeleted(_:)`.
    package func isDeleted(_ path: String) -> Bool { storage.withLock { $0.deleted.contains(path) } }

    /// A path deleted is there again (a PUT or POST to it).
    package func revive(_ path: String) {
        storage.withLock { storage in
            if storage.deleted.remove(path) != nil { storage.count -= 1 }
        }
    }

    private static func put(
        _ value: JSONValue, id: String, in shelf: inout Shelf, storage: inout Storage, limit: Int
    ) throws(Refusal) {
        let size = value.serialized().utf8.count
        let old = shelf.values[id]
        let oldSize = old?.serialized().utf8.count ?? 0
        if old == nil, storage.count >= limit { throw .full(limit: limit) }
        if storage.bytes - oldSize + size > byteLimit { throw .tooLarge(limit: byteLimit) }
        if old == nil {
            shelf.order.append(id)
            storage.count += 1
        }
        shelf.values[id] = value
        storage.bytes += size - oldSize
        if let number = Int(id), number >= shelf.nextNumber, number < Int.max { shelf.nextNumber = number + 1 }
    }

    /// An id's text as a path segment carries it (`7`, `"ab"` → `ab`), or `nil` for an object or array.
    static func idText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    // MARK: - Seeds and reset

    /// Stores the resources the document's examples show, and keeps them to reset to.
    package func seed(_ resources: [(kind: MockResourceKind, value: JSONValue)]) {
        var seeded: [(collection: String, id: String, value: JSONValue)] = []
        for resource in resources {
            guard let stored = try? create(resource.value, kind: resource.kind) else { break }
            seeded.append((resource.kind.collection, stored.id, stored.value))
        }
        seeds.withLock { $0 = seeded }
    }

    /// Forgets every change: the seeded resources again, nothing else.
    package func reset() {
        let seeded = seeds.withLock { $0 }
        storage.withLock { storage in
            storage = Storage()
            for seed in seeded {
                var shelf = storage.shelves[seed.collection] ?? Shelf()
                try? Self.put(seed.value, id: seed.id, in: &shelf, storage: &storage, limit: limit)
                storage.shelves[seed.collection] = shelf
            }
        }
    }

    // MARK: - The state file

    /// The resources as the state file holds them: `{"explorer_mock_state": 1, "collections":
    /// {"/users": [{"id": "1", "value": {…}}]}}`.
    package func snapshot() -> JSONValue {
        storage.withLock { storage in
            let collections = storage.shelves.keys.sorted().map { collection -> (key: String, value: JSONValue) in
                let shelf = storage.shelves[collection]!
                return (
                    collection,
                    .array(
                        shelf.order.compactMap { id in
                            shelf.values[id].map { JSONValue.object([("id", .string(id)), ("value", $0)]) }
                        })
                )
            }
            return .object([("explorer_mock_state", 1), ("collections", .object(collections))])
        }
    }

    /// Replaces the resources with a state file's (see `snapshot()`).
    ///
    /// - Throws: `MockError` naming the file and what to do when it is too large, does not read,
    ///   or holds more than the limits.
    package func load(from file: URL) throws(MockError) {
        let data: Data
        do {
            let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
            guard size <= Self.fileLimit else {
                throw MockError(
                    "\(file.path) is \(size) bytes, more than the \(Self.fileLimit) a mock state file may have: "
                        + "name another --state file, or delete this one.")
            }
            data = try Data(contentsOf: file)
        } catch let error as MockError {
            throw error
        } catch {
            throw MockError("explorer mock could not read its state file \(file.path): \(error.localizedDescription)")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw MockError(
                "\(file.path) is not a mock state file (line \(error.line): \(error.message)): name another --state "
                    + "file, or delete this one to start from the document's examples.")
        }
        guard value["explorer_mock_state"]?.intValue == 1, let collections = value["collections"]?.members else {
            throw MockError(
                "\(file.path) is not a mock state file (it has no \"explorer_mock_state\": 1): name another --state "
                    + "file, or delete this one to start from the document's examples.")
        }
        var loaded = Storage()
        for (collection, entries) in collections {
            var shelf = Shelf()
            for entry in entries.arrayValue ?? [] {
                guard let id = entry["id"].flatMap(Self.idText), let resource = entry["value"] else { continue }
                do {
                    try Self.put(resource, id: id, in: &shelf, storage: &loaded, limit: limit)
                } catch {
                    throw MockError(
                        "\(file.path) holds more than explorer mock keeps (\(limit) resources, \(Self.byteLimit) "
                            + "bytes): start it with a larger --state-limit, or delete the file.")
                }
            }
            loaded.shelves[collection] = shelf
        }
        storage.withLock { $0 = loaded }
    }

    /// Writes the resources to a state file, readable and writable by its owner only (0600),
    /// through a temporary file beside it.
    ///
    /// - Throws: `MockError` naming the file when it cannot be written.
    package func save(to file: URL) throws(MockError) {
        let data = Data(snapshot().serialized(pretty: true).utf8)
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw MockError(
                "explorer mock could not write its state to \(temporary.path): check that the folder exists and "
                    + "is writable.")
        }
        if rename(temporary.path, file.path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw MockError("explorer mock could not write its state to \(file.path): \(reason).")
        }
    }
}

extension JSONValue {
    /// The object with one member set (added last when absent).
    package func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard var members else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append((key, value))
        }
        return .object(members)
    }

    /// A JSON merge patch (RFC 7386) applied: each member of `patch` set, objects merged member
    /// by member, a `null` removing the member; a patch that is not an object replaces the value.
    package func merged(with patch: JSONValue) -> JSONValue {
        guard let changes = patch.members else { return patch }
        var result = members ?? []
        for change in changes {
            let index = result.firstIndex { $0.key == change.key }
            if case .null = change.value {
                if let index { result.remove(at: index) }
            } else if let index {
                result[index].value = result[index].value.merged(with: change.value)
            } else {
                result.append((change.key, JSONValue.null.merged(with: change.value)))
            }
        }
        return .object(result)
    }
}
