import Contract
import Foundation
import Mock
import NetworkingCore
import Testing

/// A stateful mock (`--stateful`): resources stored by POST, read, changed and removed by the
/// item path, listed by the collection path, seeded from the examples, bounded, reset, and
/// saved to a state file; and the answers a mock must refuse with, the documented ones first.
@Suite struct MockStateTests {
    typealias Server = MockServerTests

    /// Notes: a list answer wrapped in an object, an integer id, a documented 404 on the item's
    /// GET, PUT and DELETE (not on PATCH), a documented 405 on the collection.
    static let notes = #"""
        {"openapi": "3.1.0", "info": {"title": "Notes", "version": "1"},
         "servers": [{"url": "http://notes.example/api"}],
         "components": {"schemas": {
           "Note": {"type": "object", "required": ["id", "title", "done"], "properties": {
             "id": {"type": "integer"}, "title": {"type": "string"}, "done": {"type": "boolean"},
             "tags": {"type": "array", "items": {"type": "string"}}}},
           "NoteInput": {"type": "object", "required": ["title"], "properties": {
             "title": {"type": "string"}, "done": {"type": "boolean"},
             "tags": {"type": "array", "items": {"type": "string"}}}}},
           "responses": {"NotFound": {"description": "No such note", "content": {"application/json": {
             "example": {"error": "no such note"}}}}}},
         "paths": {
          "/notes": {
            "get": {"operationId": "listNotes",
              "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 0}}],
              "responses": {"200": {"description": "Notes", "content": {"application/json": {
                "schema": {"type": "object", "properties": {
                  "items": {"type": "array", "items": {"$ref": "#/components/schemas/Note"}},
                  "total": {"type": "integer"}}},
                "example": {"items": [{"id": 1, "title": "milk", "done": false},
                                      {"id": 2, "title": "bread", "done": true}], "total": 2}}}},
                "405": {"description": "Not here", "content": {"application/json": {
                  "example": {"error": "method not allowed"}}}}}},
            "post": {"operationId": "addNote",
              "requestBody": {"required": true, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/NoteInput"}}}},
              "responses": {"201": {"description": "Added", "headers": {"Location": {
                  "schema": {"type": "string"}, "example": "/api/notes/1"}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Note"},
                  "example": {"id": 1, "title": "milk", "done": false}}}}}}},
          "/notes/{noteId}": {
            "parameters": [{"name": "noteId", "in": "path", "required": true, "schema": {"type": "integer"}}],
            "get": {"operationId": "getNote", "responses": {
              "200": {"description": "A note", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Note"}}}},
              "404": {"$ref": "#/components/responses/NotFound"}}},
            "put": {"operationId": "replaceNote",
              "requestBody": {"required": true, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/NoteInput"}}}},
              "responses": {"200": {"description": "Replaced", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Note"}}}},
                "404": {"$ref": "#/components/responses/NotFound"}}},
            "patch": {"operationId": "changeNote",
              "requestBody": {"required": true, "content": {"application/json": {
                "schema": {"type": "object"}}}},
              "responses": {"200": {"description": "Changed", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Note"}}}}}},
            "delete": {"operationId": "deleteNote", "responses": {
              "204": {"description": "Deleted"}, "404": {"$ref": "#/components/responses/NotFound"}}}},
          "/tags": {"get": {"operationId": "listTags", "responses": {"200": {"description": "Tags",
            "content": {"application/json": {"example": ["a"]}}}}}}}}
        """#

    static func notesPlan() throws -> MockPlan {
        MockPlan(endpoints: [], contract: try OpenAPIContract(document: JSONValue(parsing: notes)))
    }

    static let json: HTTPHeaders = ["Content-Type": "application/json"]

    /// Serves `plan` with `store` on a free port for the duration of `body`.
    static func withStatefulMock(
        _ plan: MockPlan, store: MockStateStore, log: LogLines? = nil, _ body: (MockServer) async throws -> Void
    ) async throws {
        var accessLog: (@Sendable (String) -> Void)?
        if let log { accessLog = { @Sendable line in log.append(line) } }
        let server = try await MockServer.start(plan: plan, port: 0, state: store, accessLog: accessLog)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    // MARK: - Resources

    @Test func theResourcesOfADocumentAreItsCollectionAndItemPaths() throws {
        let plan = try Self.notesPlan()
        let resources = MockResources(plan: plan)
        let kind = try #require(resources.kind(collection: "/notes"))
        #expect(kind.item == "/notes/{noteId}")
        #expect(kind.idMember == "id")
        #expect(kind.idKind == .integer)
        #expect(resources.kind(item: "/notes/{noteId}") == kind)
        // /tags has no item path: not a resource.
        #expect(resources.kind(collection: "/tags") == nil)
        let seeds = resources.seeds(of: plan)
        #expect(seeds.map { $0.value["title"]?.stringValue } == ["milk", "bread"])
    }

    @Test func aPostStoresTheBodyWithANewIdAndAGetOfTheItemReturnsIt() async throws {
        let plan = try Self.notesPlan()
        let store = MockStateStore(seededFrom: plan)
        #expect(store.count == 2)
        let log = LogLines()
        try await Self.withStatefulMock(plan, store: store, log: log) { server in
            let created = try await Server.send(
                "POST", "/api/notes", to: server, headers: Self.json, body: Data(#"{"title": "eggs"}"#.utf8))
            #expect(created.status == 201)
            // The documented answer's members the body lacks (done) come from its example; the id is new.
            #expect(created.json == ["title": "eggs", "done": false, "id": 3])
            #expect(created.headers["Location"] == "/api/notes/3")
            let read = try await Server.send("GET", "/api/notes/3", to: server)
            #expect(read.status == 200)
            #expect(read.json?["title"]?.stringValue == "eggs")
            // An id the body gives is kept.
            let given = try await Server.send(
                "POST", "/api/notes", to: server, headers: Self.json, body: Data(#"{"title": "tea", "id": 40}"#.utf8))
            #expect(given.json?["id"]?.intValue == 40)
            #expect(try await Server.send("GET", "/api/notes/40", to: server).json?["title"]?.stringValue == "tea")
            // A seeded one, from the list's example.
            #expect(try await Server.send("GET", "/api/notes/2", to: server).json?["title"]?.stringValue == "bread")
        }
        #expect(store.count == 4)
        #expect(log.lines.contains("mock       POST /api/notes → 201 (state 3 stored)"))
    }

    @Test func putReplacesPatchMergesAndDeleteRemovesThenAGetIsTheDocumented404() async throws {
        let plan = try Self.notesPlan()
        let store = MockStateStore(seededFrom: plan)
        try await Self.withStatefulMock(plan, store: store) { server in
            let replaced = try await Server.send(
                "PUT", "/api/notes/1", to: server, headers: Self.json,
                body: Data(#"{"title": "oat milk", "tags": ["shop"]}"#.utf8))
            #expect(replaced.status == 200)
            // done is declared by the request's schema and not sent: replaced by one generated
            // from the answer's schema, which requires it; the id stays.
            #expect(replaced.json?["title"] == "oat milk")
            #expect(replaced.json?["tags"] == ["shop"])
            #expect(replaced.json?["id"] == 1)
            #expect(replaced.json?["done"]?.boolValue != nil)
            let patched = try await Server.send(
                "PATCH", "/api/notes/1", to: server, headers: Self.json,
                body: Data(#"{"done": true, "tags": null}"#.utf8))
            #expect(patched.status == 200)
            #expect(patched.json == ["id": 1, "title": "oat milk", "done": true])
            #expect(try await Server.send("GET", "/api/notes/1", to: server).json?["done"]?.boolValue == true)
            let deleted = try await Server.send("DELETE", "/api/notes/1", to: server)
            #expect(deleted.status == 204)
            let gone = try await Server.send("GET", "/api/notes/1", to: server)
            #expect(gone.status == 404)
            #expect(gone.json == ["error": "no such note"])
            #expect(try await Server.send("DELETE", "/api/notes/1", to: server).status == 404)
            #expect(
                try await Server.send(
                    "PUT", "/api/notes/1", to: server, headers: Self.json, body: Data(#"{"title": "x"}"#.utf8)
                ).status == 404)
            // changeNote declares no 404: a problem that says so.
            let patchGone = try await Server.send(
                "PATCH", "/api/notes/1", to: server, headers: Self.json, body: Data("{}".utf8))
            #expect(patchGone.status == 404)
            #expect(patchGone.headers["Content-Type"] == "application/problem+json")
            #expect(patchGone.json?["detail"]?.stringValue?.contains("changeNote declares no 404 response") == true)
        }
        #expect(store.list("/notes").map { $0["id"] } == [2])
    }

    @Test func aListReturnsWhatIsStoredWithinItsLimitParameter() async throws {
        let plan = try Self.notesPlan()
        let store = MockStateStore(seededFrom: plan)
        try await Self.withStatefulMock(plan, store: store) { server in
            _ = try await Server.send(
                "POST", "/api/notes", to: server, headers: Self.json, body: Data(#"{"title": "eggs"}"#.utf8))
            let list = try await Server.send("GET", "/api/notes", to: server)
            #expect(list.status == 200)
            #expect(list.json?["items"]?.arrayValue?.map { $0["title"]?.stringValue } == ["milk", "bread", "eggs"])
            let limited = try await Server.send("GET", "/api/notes?limit=1", to: server)
            #expect(limited.json?["items"]?.arrayValue?.map { $0["title"]?.stringValue } == ["milk"])
            let second = try await Server.send("GET", "/api/notes?limit=1&page=2", to: server)
            #expect(second.json?["items"]?.arrayValue?.map { $0["title"]?.stringValue } == ["bread"])
            // A page whose offset is past Int's range (schemathesis sent one) is past the end.
            let far = try await Server.send("GET", "/api/notes?limit=5&page=1000000000000000000", to: server)
            #expect(far.status == 200)
            #expect(far.json?["items"]?.arrayValue?.isEmpty == true)
            #expect(try await Server.send("GET", "/api/notes?limit=1", to: server).status == 200)
            // Prefer: example= still answers the document's example, whatever is stored.
            let example = try await Server.send(
                "GET", "/api/notes", to: server, headers: ["Prefer": "code=200"])
            #expect(example.json?["items"]?.arrayValue?.count == 2)
        }
    }

    @Test func aFullStoreRefusesANewResourceAndSaysWhichLimitToRaise() async throws {
        let plan = try Self.notesPlan()
        let store = MockStateStore(seededFrom: plan, limit: 2)
        let log = LogLines()
        try await Self.withStatefulMock(plan, store: store, log: log) { server in
            let refused = try await Server.send(
                "POST", "/api/notes", to: server, headers: Self.json, body: Data(#"{"title": "eggs"}"#.utf8))
            #expect(refused.status == 507)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            let detail = try #require(refused.json?["detail"]?.stringValue)
            #expect(detail.contains("keeps at most 2 resources") && detail.contains("--state-limit"))
            // Changing one that is kept still works.
            #expect(
                try await Server.send(
                    "PATCH", "/api/notes/2", to: server, headers: Self.json, body: Data(#"{"done": false}"#.utf8)
                ).status == 200)
        }
        #expect(store.count == 2)
        #expect(log.lines.first?.contains("→ 507 (state full: explorer mock keeps at most 2 resources") == true)
    }

    @Test func resetForgetsEveryChangeButTheSeeds() throws {
        let plan = try Self.notesPlan()
        let store = MockStateStore(seededFrom: plan)
        let kind = try #require(MockResources(plan: plan).kind(collection: "/notes"))
        try store.create(["title": "eggs"], kind: kind)
        #expect(store.remove("/notes", id: "1"))
        #expect(store.list("/notes").map { $0["title"]?.stringValue } == ["bread", "eggs"])
        store.reset()
        #expect(store.list("/notes").map { $0["title"]?.stringValue } == ["milk", "bread"])
        // New ids go on after the seeds' again.
        #expect(try store.create(["title": "jam"], kind: kind).id == "3")
    }

    @Test func aUUIDIdIsGeneratedWhenTheSchemaSaysSo() throws {
        let kind = MockResourceKind(collection: "/things", item: "/things/{id}", idMember: "id", idKind: .uuid)
        let store = MockStateStore()
        let stored = try store.create(["name": "a"], kind: kind)
        #expect(UUID(uuidString: stored.id) != nil)
        #expect(stored.value["id"]?.stringValue == stored.id)
    }

    @Test func aStateFileIsWrittenForItsOwnerAloneAndReadBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json")
        let plan = try Self.notesPlan()
        let store = MockStateStore(seededFrom: plan)
        let kind = try #require(MockResources(plan: plan).kind(collection: "/notes"))
        try store.create(["title": "eggs"], kind: kind)
        try store.save(to: file)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let again = MockStateStore()
        try again.load(from: file)
        #expect(again.list("/notes").map { $0["title"]?.stringValue } == ["milk", "bread", "eggs"])
        #expect(again.item("/notes", id: "3")?["id"]?.intValue == 3)
        // A file that is not a state file is refused with what to do.
        try Data(#"{"users": []}"#.utf8).write(to: file)
        #expect {
            try again.load(from: file)
        } throws: { error in
            "\(error)".contains("\(file.path) is not a mock state file") && "\(error)".contains("--state")
        }
        // More resources than the limit: refused with the option to raise.
        try store.save(to: file)
        #expect {
            try MockStateStore(limit: 1).load(from: file)
        } throws: { error in
            "\(error)".contains("--state-limit")
        }
    }

    @Test func aMergePatchSetsMembersAndANullRemovesOne() {
        let value: JSONValue = ["a": 1, "b": ["c": 2, "d": 3]]
        #expect(
            value.merged(with: ["b": ["c": nil, "e": 4], "f": "x"]) == ["a": 1, "b": ["d": 3, "e": 4], "f": "x"])
    }

    @Test func withoutStateTheMockForgetsWhatWasPosted() async throws {
        let plan = try Self.notesPlan()
        try await Server.withMock(plan) { server in
            _ = try await Server.send(
                "POST", "/api/notes", to: server, headers: Self.json, body: Data(#"{"title": "eggs"}"#.utf8))
            let list = try await Server.send("GET", "/api/notes", to: server)
            #expect(list.json?["items"]?.arrayValue?.count == 2)
            #expect(try await Server.send("GET", "/api/notes/77", to: server).status == 200)
        }
    }

    @Test func aDeletedPathThatNoCollectionStoresIsThe404UntilAPutThere() async throws {
        let document = #"""
            {"openapi": "3.1.0", "info": {"title": "Rates", "version": "1"}, "paths": {"/rates/{field}": {
              "get": {"responses": {"200": {"description": "A rate", "content": {"application/json": {
                "example": {"ttl": 60}}}}, "404": {"description": "No rate"}}},
              "put": {"requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
                "responses": {"200": {"description": "Set"}}},
              "delete": {"responses": {"204": {"description": "Deleted"}}}}}}
            """#
        let plan = MockPlan(endpoints: [], contract: try OpenAPIContract(document: JSONValue(parsing: document)))
        let store = MockStateStore(seededFrom: plan)
        try await Self.withStatefulMock(plan, store: store) { server in
            #expect(try await Server.send("GET", "/rates/a", to: server).status == 200)
            #expect(try await Server.send("DELETE", "/rates/a", to: server).status == 204)
            #expect(try await Server.send("GET", "/rates/a", to: server).status == 404)
            #expect(try await Server.send("GET", "/rates/b", to: server).status == 200)
            // The delete declares no 404: a problem says so.
            let again = try await Server.send("DELETE", "/rates/a", to: server)
            #expect(again.status == 404)
            #expect(again.json?["detail"]?.stringValue?.contains("declares no 404 response") == true)
            #expect(
                try await Server.send("PUT", "/rates/a", to: server, headers: Self.json, body: Data("{}".utf8)).status
                    == 200)
            #expect(try await Server.send("GET", "/rates/a", to: server).status == 200)
        }
    }

    @Test func theLargestIntegerIdIsKeptWithoutOverflow() throws {
        let kind = MockResourceKind(collection: "/pets", item: "/pets/{id}", idMember: "id", idKind: .integer)
        let store = MockStateStore()
        #expect(try store.create(["id": .number("9223372036854775807")], kind: kind).id == "9223372036854775807")
        #expect(try store.create(["name": "b"], kind: kind).id == "1")
    }

    // MARK: - Only documented answers

    @Test func aMethodThePathDoesNotTakeIsItsDocumented405WithAllow() async throws {
        let plan = try Self.notesPlan()
        try await Server.withMock(plan) { server in
            let answer = try await Server.send("DELETE", "/api/notes", to: server)
            #expect(answer.status == 405)
            #expect(answer.json == ["error": "method not allowed"])
            #expect(answer.headers["Allow"] == "GET, POST, HEAD")
            // /notes/{noteId} documents no 405: the problem says so.
            let undocumented = try await Server.send("POST", "/api/notes/1", to: server)
            #expect(undocumented.status == 405)
            #expect(undocumented.headers["Content-Type"] == "application/problem+json")
            #expect(
                undocumented.json?["detail"]?.stringValue?.contains("The document declares no 405 response") == true)
            let unknown = try await Server.send("GET", "/api/nowhere", to: server)
            #expect(unknown.status == 404)
            #expect(unknown.json?["detail"]?.stringValue?.contains("The document declares no such path") == true)
        }
    }
}
