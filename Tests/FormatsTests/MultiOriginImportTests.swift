import Foundation
import NetworkingCore
import Testing

@testable import Demo
@testable import Formats
@testable import Workspace

/// Imported requests to several servers: the origin most of them use is the environment's
/// `base_url`, and the others keep their whole URL, so each is sent where it went.
@Suite struct MultiOriginImportTests {
    /// Where a request arrived: the demo environment whose listener received it (`local` on
    /// the first server, `staging` on the second), its method and path, as `/echo` answers.
    private static func arrival(of response: Response<Data?>) throws -> String {
        let body = try #require(response.body)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        return
            "\(object["environment"] as? String ?? "?") \(object["method"] as? String ?? "") \(object["path"] as? String ?? "")"
    }

    @Test func everyImporterOfWholeURLsSendsEachRequestToItsOwnServer() async throws {
        let first = try await DemoServer.start(port: 0)
        let second = try await DemoServer.start(port: 0)
        let a = "127.0.0.1:\(try #require(first.environments.first).port)"
        let b = "127.0.0.1:\(second.environments[1].port)"
        let transport = AsyncHTTPClientTransport()

        let curl = try CurlImporter().importCommand(
            """
            curl http://\(a)/v1/echo/one
            curl http://\(a)/v1/echo/two
            curl http://\(b)/v1/echo/three -d x=1
            """)
        // Postman: one whole URL, one on a variable of the main origin, one on a variable of another.
        let postman = try PostmanImporter().importData(
            Data(
                """
                {"info": {"name": "two servers", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "variable": [{"key": "api", "value": "http://\(a)"}, {"key": "files", "value": "http://\(b)"}],
                 "item": [
                   {"name": "one", "request": {"method": "GET", "url": "{{api}}/v1/echo/one"}},
                   {"name": "folder", "item": [{"name": "two", "request": {"method": "GET", "url": {"raw": "{{api}}/v1/echo/two"}}}]},
                   {"name": "three", "request": {"method": "POST", "url": "{{files}}/v1/echo/three", "body": {"mode": "raw", "raw": "x=1"}}}
                 ]}
                """.utf8))
        let insomnia = try InsomniaImporter().importData(
            Data(
                """
                {"_type": "export", "__export_format": 4, "resources": [
                  {"_id": "wrk_1", "_type": "workspace", "name": "two servers"},
                  {"_id": "req_1", "parentId": "wrk_1", "_type": "request", "name": "one", "method": "GET", "url": "http://\(a)/v1/echo/one", "metaSortKey": 1},
                  {"_id": "req_2", "parentId": "wrk_1", "_type": "request", "name": "two", "method": "GET", "url": "http://\(a)/v1/echo/two", "metaSortKey": 2},
                  {"_id": "req_3", "parentId": "wrk_1", "_type": "request", "name": "three", "method": "POST", "url": "http://\(b)/v1/echo/three",
                   "body": {"mimeType": "text/plain", "text": "x=1"}, "metaSortKey": 3}]}
                """.utf8))
        let har = try HARImporter().importData(
            Data(
                """
                {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
                  {"request": {"method": "GET", "url": "http://\(a)/v1/echo/one", "headers": []}},
                  {"request": {"method": "GET", "url": "http://\(a)/v1/echo/two", "headers": []}},
                  {"request": {"method": "POST", "url": "http://\(b)/v1/echo/three", "headers": [], "postData": {"mimeType": "text/plain", "text": "x=1"}}}]}}
                """.utf8))

        for (tool, result) in [("curl", curl), ("Postman", postman), ("Insomnia", insomnia), ("HAR", har)] {
            #expect(!result.warnings.contains { $0.contains("base_url") }, "\(tool): \(result.warnings)")
            // Through the file, as a user runs it: written, read back, then sent.
            let collection = try writtenAndReadBack(result.collection)
            let environment = try #require(collection.environments.first)
            let dispatcher = NetworkDispatcher(serverProvider: environment, transport: transport)
            var arrivals: [String] = []
            for endpoint in collection.endpoints {
                let resolved = try RequestResolver().resolve(endpoint, in: collection, environment: environment)
                arrivals.append(try Self.arrival(of: try await dispatcher.future(from: resolved.request).value))
            }
            #expect(environment.baseURLTemplate == (tool == "Postman" ? "{{api}}" : "http://\(a)"), "\(tool)")
            #expect(
                arrivals == ["local GET /v1/echo/one", "local GET /v1/echo/two", "staging POST /v1/echo/three"],
                "\(tool)")
        }
        try await transport.shutdown()
        await first.stop()
        await second.stop()
    }

    @Test func aWholeURLPathIsSentThereWithoutTheEnvironmentsHeaders() throws {
        let collection = try CollectionLoader.parse(
            """
            name: two servers
            environments:
              - name: local
                base_url: http://127.0.0.1:8080/v1
                headers:
                  Authorization: Bearer main-server-token
            endpoints:
              - name: own
                path: /users
              - name: other
                path: https://cdn.example.com/files/{{name}}?raw=1
                headers:
                  Accept: image/png
            variables:
              name: logo.png
            """)
        let resolver = RequestResolver()
        let own = try resolver.resolve(try collection.endpoint(named: "own"), in: collection)
        #expect(own.url == "http://127.0.0.1:8080/v1/users")
        #expect(own.request.headers["Authorization"] == "Bearer main-server-token")
        let other = try resolver.resolve(try collection.endpoint(named: "other"), in: collection)
        #expect(other.url == "https://cdn.example.com/files/logo.png?raw=1")
        #expect(other.request.headers["Authorization"] == nil)
        #expect(other.request.headers["Accept"] == "image/png")
        // The variable's span is found in the whole URL.
        #expect(other.urlVariableSpans.map(\.name) == ["name"])
    }

    @Test func exportsWriteAWholeURLAsItIsWithoutTheEnvironmentsHeaders() throws {
        let collection = try CollectionLoader.parse(
            """
            name: three servers
            variables:
              files: http://127.0.0.1:9000
            environments:
              - name: local
                base_url: http://127.0.0.1:8080/v1
                headers:
                  X-Team: core
            endpoints:
              - name: own
                path: /users
              - name: cdn
                path: https://cdn.example.com/files/logo.png
              - name: files
                path: "{{files}}/upload"
            """)
        let http = HTTPFileExporter.text(for: collection, environment: nil)
        #expect(http.contains("GET {{baseUrl}}/users\nX-Team: core\n"))
        #expect(http.contains("GET https://cdn.example.com/files/logo.png\n\n"))
        #expect(http.hasSuffix("GET {{files}}/upload\n"))
        // Postman reads it back to the same paths and headers.
        let postman = try PostmanImporter().importData(Data(PostmanExporter.json(for: collection).utf8)).collection
        #expect(
            postman.endpoints.map(\.path) == ["/users", "https://cdn.example.com/files/logo.png", "{{files}}/upload"])
        #expect(postman.endpoints.map { $0.headers.map(\.name) } == [["X-Team"], [], []])
    }

    @Test func aWholeURLWithoutAHostNamesThePlaceToFix() throws {
        let collection = try CollectionLoader.parse(
            """
            name: broken
            environments:
              - name: local
                base_url: http://127.0.0.1:8080
            endpoints:
              - name: nowhere
                path: http:///files
            """, file: "broken.yaml")
        #expect {
            try RequestResolver().resolve(try collection.endpoint(named: "nowhere"), in: collection)
        } throws: { error in
            "\(error)".contains("broken.yaml:7")
        }
    }
}
