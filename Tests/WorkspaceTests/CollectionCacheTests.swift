import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// `CollectionCache`: a large collection's parse kept in the state folder, read back the same
/// (every part, where each was written included), used only for the same text, program and
/// limits, never when damaged, and bounded.
@Suite struct CollectionCacheTests {
    /// A collection with every kind of part the model holds.
    static let head = #"""
        name: Everything
        description: every part the model holds
        openapi: docs/openapi.yaml
        validate: true
        trace: true
        allow_insecure_redirects: true
        protoset: schema/service.protoset
        protos: { files: [protos/notes.proto], import_paths: [protos] }
        variables: { host: "127.0.0.1", user: ada }
        auth: { type: bearer, token: "{{token}}" }
        compare:
          ignore: [$.requestId, header Date]
        x-note: kept out of the model
        surprise: an unknown key, a warning
        environments:
          - name: local
            description: the laptop
            base_url: "http://{{host}}:8080/v1"
            protected: true
            variables: { token: abc }
            headers: { X-Env: local }
            secrets: [token]
            cookies: false
            follow_redirects: false
            allow_insecure_redirects: false
            trace: false
            resolve: { "api.test:443": 127.0.0.1 }
            proxy_tunnel: true
            proxy: { url: "http://proxy.corp:3128", user: me, password: "{{proxy_password}}", no_proxy: [localhost] }
            tls: { ca_cert: certs/ca.pem, client_cert: certs/c.pem, client_key: certs/c.key, min_version: "1.3" }
            auth:
              type: aws_sigv4
              access_key_id: AKIAIOSFODNN7EXAMPLE
              secret_access_key: "{{aws_secret}}"
              region: eu-west-1
              service: execute-api
          - name: staging
            base_url: https://staging.example.com
            auth: { type: oauth1, consumer_key: k, consumer_secret: "{{s}}", signature_method: HMAC-SHA256 }
        endpoints:

        """#

    /// One folder of endpoints, `index` in its names.
    static func folder(_ index: Int) -> String {
        #"""
          - folder: Folder \#(index)
            description: folder \#(index)
            tags: [group\#(index % 3)]
            auth: { type: api_key, name: X-Key, value: "{{key}}", in: query }
            endpoints:
              - name: Create \#(index)
                description: makes one
                method: POST
                path: "/items/{{id}}"
                query: { page: "1", q: "a b" }
                headers: { Content-Type: application/json }
                json: { name: "{{user}}", count: 3, ratio: 1.50, big: 12345678901234567890, on: true, none: null, list: [1, "two", { three: 3 }] }
                disabled: { headers: { X-Off: "1" }, query: { debug: "true" } }
                capture:
                  token: $.token
                  request_id: { header: X-Request-Id }
                  order: { regex: "order-(\\d+)", from: body }
                  session: { cookie: session, secret: true }
                assert:
                  - status == 201
                  - jsonpath $.count >= 1.5
                  - header Content-Type contains "json"
                  - body matches "^\\{"
                retry: { count: 3, interval: 250ms }
                requires: [{ endpoint: Login \#(index), max_age: 30s }]
                follow_redirects: true
                trace: true
                tags: [smoke]
                operation: createItem
              - name: Login \#(index)
                method: POST
                path: /login
                form: { user: "{{user}}", file: "{{file ../outside.txt}}" }
                auth: { type: digest, username: ada, password: "{{password}}" }
              - name: Upload \#(index)
                method: PUT
                path: /upload
                multipart:
                  meta: { value: '{"a": 1}', type: application/json }
                  data: { file: ./data.bin, filename: d.bin }
                  note: "@../notes.txt"
                auth: { type: basic, username: ada, password: "{{env.SECRET}}" }
              - name: Raw \#(index)
                method: PATCH
                path: /raw
                body: "plain text {{command echo hi}}"
              - name: From file \#(index)
                method: POST
                path: /file
                body: { file: ../body.json }
              - name: Query \#(index)
                path: /graphql
                graphql:
                  query: "query Q($id: ID!) { item(id: $id) { name } }"
                  variables: { id: "{{id}}", n: 2.0 }
                  operation: Q
              - name: Socket \#(index)
                path: /ws
                websocket: true
                messages:
                  - hello
                  - name: Subscribe
                    json: { op: subscribe, n: 1e3 }
              - name: Note \#(index)
                grpc: explorer.demo.v1.Notes/GetNote
                message: { id: "{{id}}", weight: 0.10 }
                metadata: { x-trace: "1" }
                timeout: 2.5
                max_message_size: 65536
                server: grpc://127.0.0.1:50051

        """#
    }

    /// A collection text of at least `CollectionCache.minimumBytes`.
    static var largeText: String {
        var text = head
        var index = 0
        while text.utf8.count < CollectionCache.minimumBytes + 1024 {
            text += folder(index)
            index += 1
        }
        return text
    }

    /// A folder for the collection and one for the cache, removed by the caller.
    static func folders() throws -> (collection: URL, cache: URL, root: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        let collection = root.appendingPathComponent("project", isDirectory: true)
        try FileManager.default.createDirectory(at: collection, withIntermediateDirectories: true)
        return (collection.appendingPathComponent("api.yaml"), root.appendingPathComponent("state/collections"), root)
    }

    /// What equality leaves out, which the cache must keep too: where each part was written.
    static func places(_ collection: APICollection) -> [String] {
        collection.endpoints.map { endpoint in
            "\(endpoint.id) \(String(describing: endpoint.location)) "
                + endpoint.locations.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                + " " + endpoint.assertions.map { String(describing: $0.location) }.joined(separator: ",")
                + " " + endpoint.captures.map { String(describing: $0.location) }.joined(separator: ",")
        }
            + collection.environments.map {
                "\($0.name) \(String(describing: $0.location)) \(String(describing: $0.baseURLLocation))"
            }
            + collection.warnings.map(\.description)
    }

    @Test func aLargeCollectionReadsBackWholeFromTheCache() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.largeText
        try text.write(to: file, atomically: true, encoding: .utf8)
        try "SECRET=one\n".write(
            to: file.deletingLastPathComponent().appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        let cache = CollectionCache(directory: directory)

        let parsed = try CollectionLoader.loadReaching(from: file, text: text, cache: nil)
        let first = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        let key = try #require(cache.key(for: file, text: text))
        #expect(FileManager.default.fileExists(atPath: key.file.path))
        let kept = try #require(cache.read(key, dotEnv: ["SECRET": "one"]))
        #expect(kept.collection == parsed.collection)

        let second = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        for loaded in [first, second] {
            #expect(loaded.collection == parsed.collection)
            #expect(loaded.reach == parsed.reach)
            #expect(Self.places(loaded.collection) == Self.places(parsed.collection))
            #expect(loaded.collection.sourceURL == file)
            #expect(loaded.collection.sourceHasComments == parsed.collection.sourceHasComments)
            #expect(loaded.collection.warnings.map(\.description) == parsed.collection.warnings.map(\.description))
        }
        // The parts equality compares loosely, compared closely.
        let endpoint = try second.collection.endpoint(named: "Folder 0/Create 0")
        guard case .json(let body)? = endpoint.body else {
            Issue.record("the body is not JSON")
            return
        }
        #expect(body.serialized().contains("12345678901234567890"))
        #expect(body.serialized().contains("1.50"))
        let note = try second.collection.endpoint(named: "Folder 0/Note 0")
        #expect(note.grpc?.messages == [try JSONValue(parsing: #"{"id": "{{id}}", "weight": 0.10}"#)])
        #expect(note.grpc?.timeout == 2.5)
        let local = try second.collection.requireEnvironment(named: "local")
        #expect(local.tls?.minimumVersion == .tls1_3)
        #expect(local.collectionAllowsInsecureRedirects && local.collectionTraces && local.traces == false)
        // What it reaches is found again, not kept: the `.env` and the files outside the folder.
        #expect(second.reach.references.contains(.command("echo")))
        #expect(second.reach.references.contains(.environmentVariable("SECRET")))
        #expect(!second.collection.warnings.isEmpty)
    }

    @Test func theDotEnvValuesAreReadEachLoadNotKept() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.largeText
        try text.write(to: file, atomically: true, encoding: .utf8)
        let dotEnv = file.deletingLastPathComponent().appendingPathComponent(".env")
        try "SECRET=first-value\n".write(to: dotEnv, atomically: true, encoding: .utf8)
        let cache = CollectionCache(directory: directory)
        _ = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        let key = try #require(cache.key(for: file, text: text))
        let entry = try Data(contentsOf: key.file)
        #expect(entry.range(of: Data("first-value".utf8)) == nil)

        try "SECRET=second-value\n".write(to: dotEnv, atomically: true, encoding: .utf8)
        let loaded = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        let local = try loaded.collection.requireEnvironment(named: "local")
        #expect(local.dotEnv == ["SECRET": "second-value"])
    }

    @Test func anEntryIsPrivate() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.largeText
        let cache = CollectionCache(directory: directory)
        _ = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        let key = try #require(cache.key(for: file, text: text))
        let fileMode = try FileManager.default.attributesOfItem(atPath: key.file.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test func anotherTextOrLimitIsNotReadFromTheEntry() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.largeText
        let cache = CollectionCache(directory: directory)
        _ = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        // One byte changed, same size: another digest.
        let edited = text.replacingOccurrences(of: "path: /raw", with: "path: /roe")
        #expect(edited.utf8.count == text.utf8.count)
        let editedKey = try #require(cache.key(for: file, text: edited))
        #expect(cache.read(editedKey, dotEnv: [:]) == nil)
        let loaded = try CollectionLoader.loadReaching(from: file, text: edited, cache: cache)
        #expect(try loaded.collection.endpoint(named: "Folder 0/Raw 0").path == "/roe")
        // Other limits: another key.
        let strict = CollectionCache(directory: directory, limits: DocumentLimits(maxDepth: 64))
        #expect(strict.read(try #require(strict.key(for: file, text: edited)), dotEnv: [:]) == nil)
        // Another path: another entry.
        let elsewhere = file.deletingLastPathComponent().appendingPathComponent("copy.yaml")
        #expect(cache.read(try #require(cache.key(for: elsewhere, text: edited)), dotEnv: [:]) == nil)
    }

    @Test func aDamagedEntryIsParsedAgain() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.largeText
        let cache = CollectionCache(directory: directory)
        let parsed = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        let key = try #require(cache.key(for: file, text: text))
        var bytes = try Data(contentsOf: key.file)
        for offset in [bytes.count - 1, bytes.count / 2, key.text.utf8.count + 3] {
            var damaged = bytes
            damaged[offset] ^= 0x20
            try damaged.write(to: key.file)
            #expect(cache.read(key, dotEnv: [:]) == nil, "byte \(offset)")
        }
        bytes.removeLast(bytes.count / 3)
        try bytes.write(to: key.file)
        #expect(cache.read(key, dotEnv: [:]) == nil)
        let loaded = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        #expect(loaded.collection == parsed.collection)
        #expect(cache.read(key, dotEnv: [:]) != nil)
    }

    @Test func aParseKeptLaterIsWrittenAfterTheLoadReturns() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.largeText
        let cache = CollectionCache(directory: directory)
        let key = try #require(cache.key(for: file, text: text))
        let loaded = try CollectionLoader.loadReaching(from: file, text: text, cache: cache, keepsLater: true)
        CollectionCache.writing.sync {}
        #expect(cache.read(key, dotEnv: [:])?.collection == loaded.collection)
    }

    @Test func aSmallCollectionIsNotKept() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = CollectionCache(directory: directory)
        let text = Self.head + Self.folder(0)
        #expect(cache.key(for: file, text: text) == nil)
        _ = try CollectionLoader.loadReaching(from: file, text: text, cache: cache)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func atMostTheMaximumEntriesAreKeptTheLeastRecentlyUsedDropped() throws {
        let (file, directory, root) = try Self.folders()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = Self.largeText
        let cache = CollectionCache(directory: directory)
        let parsed = try CollectionLoader.loadReaching(from: file, text: text, cache: nil)
        let project = file.deletingLastPathComponent()
        let files = (0...CollectionCache.maximumEntries).map { project.appendingPathComponent("api\($0).yaml") }
        for (index, url) in files.enumerated() {
            let key = try #require(cache.key(for: url, text: text))
            cache.write(ParsedCollection(collection: parsed.collection, templateTexts: []), for: key)
            // Apart in time, the first one used again after the second was written.
            let time = Date(timeIntervalSince1970: 1_000_000 + Double(index) * 10)
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: key.file.path)
            if index == 1 {
                #expect(cache.read(try #require(cache.key(for: files[0], text: text)), dotEnv: [:]) != nil)
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == CollectionCache.maximumEntries)
        #expect(cache.read(try #require(cache.key(for: files[0], text: text)), dotEnv: [:]) != nil)
        #expect(cache.read(try #require(cache.key(for: files[1], text: text)), dotEnv: [:]) == nil)
    }

    /// The endpoint tree and the collection are written part by part: a stored property added
    /// to an endpoint, a folder or the collection must be added to their coding too
    /// (`EndpointPart`, `CachedItemsWriter`, `APICollection.CodingKeys`).
    @Test func everyStoredPropertyIsWritten() {
        let endpointFields = Mirror(reflecting: Endpoint(name: "a", path: "/")).children.count
        // The name, the folder path, the method and the path, then a bit for each other part.
        #expect(
            endpointFields == 4 + EndpointPart.allCases.count,
            "an Endpoint property is not in CollectionCache+Items.swift")
        #expect(Mirror(reflecting: Folder(name: "f")).children.count == 5)
        // The endpoint tree and `sourceURL` are not in the keys.
        #expect(
            Mirror(reflecting: APICollection(name: "c")).children.count == APICollection.CodingKeys.allCases.count + 2,
            "an APICollection property is not in its CodingKeys")
        #expect(Mirror(reflecting: KeyValue("a", "b")).children.count == 2)
        #expect(Mirror(reflecting: FileLocation(file: "f", line: 1, column: 1)).children.count == 3)
    }

    /// The endpoint tree's reader checks every count, index and length: each truncation of a
    /// real tree and thousands of corruptions throw or read, never crash or read past the end.
    @Test func aDamagedTreeThrowsAndNeverReadsPast() async throws {
        let text = Self.head + Self.folder(1) + Self.folder(2)
        let items = try CollectionLoader.parse(text, file: "/c/e.yaml").items
        let bytes = try CachedItemsWriter.encode(items)
        let whole = try bytes.withUnsafeBytes { try CachedItemsReader.decode($0, maximumDepth: 64) }
        #expect(whole == items)
        // Every 7th length and the last 64 (each read decodes the string table again: every
        // length of the tree took seconds of the shared pool in the full run).
        for length in 0..<bytes.count where length % 7 == 0 || length > bytes.count - 64 {
            if length % 256 == 0 { await Task.yield() }
            let truncated = Array(bytes[0..<length])
            #expect(throws: (any Error).self) {
                try truncated.withUnsafeBytes { try CachedItemsReader.decode($0, maximumDepth: 64) }
            }
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<500 {
            if round % 100 == 0 { await Task.yield() }
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            _ = try? damaged.withUnsafeBytes { try CachedItemsReader.decode($0, maximumDepth: 64) }
        }
        // Nesting past the limit is refused, not followed down the stack.
        let deep = (0..<10).reduce([CollectionItem.endpoint(Endpoint(name: "e", path: "/"))]) { inner, index in
            [.folder(Folder(name: "f\(index)", items: inner))]
        }
        let deepBytes = try CachedItemsWriter.encode(deep)
        #expect(throws: CachedItemsReader.Damaged.self) {
            try deepBytes.withUnsafeBytes { try CachedItemsReader.decode($0, maximumDepth: 5) }
        }
    }

    @Test func theSwitchTurnsItOff() {
        #expect(CollectionCache(environment: ["EXPLORER_COLLECTION_CACHE": "off", "HOME": "/home/u"]) == nil)
        let cache = CollectionCache(environment: ["XDG_STATE_HOME": "/tmp/s"])
        #expect(cache?.directory.path == "/tmp/s/explorer/collections")
    }
}
