import Checks
import Demo
import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// `openapi:` naming a URL: the document fetched from a real server on 127.0.0.1 within the
/// size and time limits, once per process, read alone (references to other documents refused).
@Suite struct LinkedDocumentTests {
    static let user =
        #"{"id": 1, "name": "Ada Lovelace", "username": "ada", "email": "ada@example.com", "role": "admin", "createdAt": "2024-01-15T09:30:00Z"}"#

    private func collection(naming url: URL) -> APICollection {
        var collection = APICollection(name: "Linked")
        collection.openAPI = url.absoluteString
        return collection
    }

    /// A path no other test asks for: the process keeps what it fetched, by URL.
    private func unique(_ path: String) -> String { "\(path)?test=\(UUID().uuidString)" }

    private func message(_ body: () async throws -> Void) async -> String {
        do {
            try await body()
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test func aDocumentNamedByURLChecksResponsesAndIsFetchedOncePerProcess() async throws {
        let server = try await DocumentServer.start(["/openapi.json": .init(DemoOpenAPI.json)])
        defer { Task { await server.stop() } }
        let url = server.url(unique("/openapi.json"))
        let first = try #require(try await ResponseContract.linked(for: collection(naming: url)))
        let again = try #require(try await ResponseContract.linked(for: collection(naming: url)))
        #expect(server.requests.count == 1)
        #expect(first.document == url.absoluteString && again.document == url.absoluteString)

        var endpoint = Endpoint(name: "User", path: "/users/1")
        endpoint.operation = "getUser"
        func check(_ body: String) -> SchemaCheck {
            first.check(
                endpoint, request: BasicRequest(path: "/users/1"), url: "",
                response: CheckedResponse(
                    status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: Data(body.utf8),
                    durationMilliseconds: 1),
                isRequired: false)
        }
        #expect(check(Self.user).passed)
        #expect(!check(#"{"id": "one"}"#).passed)
    }

    @Test func refreshImportsTheDocumentFromItsURL() async throws {
        let server = try await DocumentServer.start(["/openapi.json": .init(DemoOpenAPI.json)])
        defer { Task { await server.stop() } }
        let url = server.url(unique("/openapi.json"))
        let imported = try await OpenAPIImporter().importLinked(
            OpenAPILocation(url.absoluteString, folder: URL(fileURLWithPath: "/")))
        #expect(imported.collection.endpoints.contains { $0.operation == "getUser" })
        #expect(server.requests.count == 1)
    }

    @Test func aDocumentOverTheSizeLimitIsRefusedNamingTheVariable() async throws {
        let server = try await DocumentServer.start(["/openapi.json": .init(DemoOpenAPI.json)])
        defer { Task { await server.stop() } }
        let url = server.url(unique("/openapi.json"))
        let said = await message {
            _ = try await ResponseContract.linked(for: collection(naming: url), limits: DocumentLimits(maxBytes: 1000))
        }
        #expect(
            said.hasPrefix(
                "\(url.absoluteString): the OpenAPI document cannot be imported: the document is over the limit of 1000 bytes."
            ))
        #expect(said.contains("set EXPLORER_MAX_DOCUMENT_SIZE"))
    }

    @Test func aDocumentThatDoesNotArriveInTimeIsRefusedNamingTheVariable() async throws {
        let server = try await DocumentServer.start([:], silent: ["/openapi.json"])
        defer { Task { await server.stop() } }
        let url = server.url(unique("/openapi.json"))
        let said = await message {
            _ = try await ResponseContract.linked(for: collection(naming: url), limits: DocumentLimits(fetchSeconds: 1))
        }
        #expect(
            said.contains("it did not arrive within 1 s. Set EXPLORER_DOCUMENT_TIMEOUT=4 to wait longer."), "\(said)")
    }

    @Test func aMissingDocumentIsRefusedWithTheStatusAndAskedForAgainLater() async throws {
        let server = try await DocumentServer.start([:])
        defer { Task { await server.stop() } }
        let url = server.url(unique("/openapi.json"))
        let said = await message { _ = try await ResponseContract.linked(for: collection(naming: url)) }
        #expect(
            said
                == "\(url.absoluteString): the OpenAPI document cannot be imported: the server answered 404. Check the URL in openapi:."
        )
        // A failure is not kept: the next command asks again.
        _ = await message { _ = try await ResponseContract.linked(for: collection(naming: url)) }
        #expect(server.requests.count == 2)
    }

    @Test func aDocumentNamedByURLThatRefersToAnotherIsRefused() async throws {
        let document = """
            {"openapi": "3.1.0", "info": {"title": "Split", "version": "1"},
             "paths": {"/users/{id}": {"get": {"operationId": "getUser", "responses": {"200": {"description": "a user",
               "content": {"application/json": {"schema": {"$ref": "schemas.json#/User"}}}}}}}}}
            """
        let server = try await DocumentServer.start([
            "/openapi.json": .init(document), "/schemas.json": .init(#"{"User": {"type": "object"}}"#),
        ])
        defer { Task { await server.stop() } }
        let url = server.url(unique("/openapi.json"))
        let said = await message { _ = try await ResponseContract.linked(for: collection(naming: url)) }
        #expect(said.contains(#"its $ref "schemas.json#/User" names another document"#), "\(said)")
        #expect(said.contains("Download the documents beside the collection"))
        // The other document was not fetched.
        #expect(server.requests.allSatisfy { $0.hasPrefix("/openapi.json") })
    }

    @Test func aLocationIsAURLOnlyForHTTPAndHTTPS() {
        let folder = URL(fileURLWithPath: "/api")
        #expect(
            OpenAPILocation("https://example.com/openapi.yaml", folder: folder)
                == .remote(URL(string: "https://example.com/openapi.yaml")!))
        #expect(
            OpenAPILocation("HTTP://example.com/o.json", folder: folder)
                == .remote(URL(string: "HTTP://example.com/o.json")!))
        #expect(OpenAPILocation("openapi.yaml", folder: folder) == .file(URL(fileURLWithPath: "/api/openapi.yaml")))
        #expect(OpenAPILocation("/etc/o.json", folder: folder) == .file(URL(fileURLWithPath: "/etc/o.json")))
    }
}
