import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

@Suite struct ThunderImporterTests {
    /// A request of a Thunder file, read here with JSONSerialization, not the importer.
    struct SourceRequest {
        var name: String
        var method: String
        var url: String
        var headers: [(String, String)]
        var body: [String: Any]?
        var authorization: String?
    }

    static func sourceRequests(_ list: [[String: Any]]) -> [SourceRequest] {
        list.map { request in
            let auth = request["auth"] as? [String: Any]
            return SourceRequest(
                name: request["name"] as? String ?? "", method: request["method"] as? String ?? "GET",
                url: request["url"] as? String ?? "",
                headers: (request["headers"] as? [[String: Any]] ?? []).filter { $0["isDisabled"] as? Bool != true }
                    .map { ("\($0["name"] ?? "")", "\($0["value"] ?? "")") },
                body: request["body"] as? [String: Any],
                authorization: auth?["type"] as? String == "bearer" ? "Bearer \(auth?["bearer"] ?? "")" : nil)
        }
    }

    /// `{{name}}` filled in from `values`.
    static func expanded(_ text: String, _ values: [String: String]) -> String {
        var out = text
        for (name, value) in values { out = out.replacingOccurrences(of: "{{\(name)}}", with: value) }
        return out
    }

    /// Sends every imported request to the echo, each variable the collection leaves to a capture
    /// given a value of its own, and compares what arrived with the source request.
    static func compare(
        _ collection: APICollection, sources: [SourceRequest], echo: ImportEcho, values: [String: String]
    ) async throws -> Int {
        let environment = try #require(collection.environments.first)
        var compared = 0
        for source in sources {
            // Names repeat (across folders, and within one where Thunder numbers nothing): the
            // one whose path and query the source URL ends with.
            let candidates = collection.endpoints.filter {
                ($0.name == source.name || $0.name.hasPrefix(source.name + " (")) && $0.method.rawValue == source.method
            }
            func written(_ endpoint: Endpoint) -> String {
                endpoint.path
                    + (endpoint.query.isEmpty
                        ? "" : "?" + endpoint.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
            }
            let endpoint = try #require(candidates.first { source.url.hasSuffix(written($0)) } ?? candidates.first)
            // The variables no environment holds (captured by an earlier request in Thunder).
            var overrides: [String: String] = [:]
            let texts =
                [source.url] + source.headers.map(\.1) + [source.body?["raw"] as? String ?? ""]
                + ((source.body?["form"] as? [[String: Any]]) ?? []).map { "\($0["value"] ?? "")" }
                + [source.authorization ?? ""]
            // Folders' and the collection's auth name variables too: every one the collection uses.
            let names = (texts + [try CollectionWriter.yaml(for: collection)]).flatMap { Template($0).variableNames }
            for name in names where values[name] == nil {
                overrides[name] = "v-\(name)"
            }
            let all = values.merging(overrides) { $1 }
            let arrived = try await echo.send(endpoint, in: collection, environment: environment, overrides: all)
            let url = try #require(URLComponents(string: expanded(source.url, all)))
            #expect(arrived.method == source.method, "\(source.name)")
            #expect(arrived.path == url.path, "\(source.name)")
            #expect(arrived.query == (url.queryItems ?? []).map { KeyValue($0.name, $0.value ?? "") }, "\(source.name)")
            for (name, value) in source.headers {
                #expect(arrived.headers[name.lowercased()] == expanded(value, all), "\(source.name): \(name)")
            }
            if let authorization = source.authorization {
                #expect(arrived.headers["authorization"] == expanded(authorization, all), "\(source.name)")
            }
            switch source.body?["type"] as? String {
            case "json":
                #expect(arrived.body == expanded(source.body?["raw"] as? String ?? "", all), "\(source.name)")
                if !source.headers.contains(where: { $0.0.lowercased() == "content-type" }) {
                    #expect(arrived.headers["content-type"] == "application/json")
                }
            case "formencoded":
                let form = (source.body?["form"] as? [[String: Any]] ?? []).filter { $0["isDisabled"] as? Bool != true }
                #expect(
                    DemoEchoPairs.decode(arrived.body)
                        == form.map { KeyValue("\($0["name"] ?? "")", expanded("\($0["value"] ?? "")", all)) },
                    "\(source.name)")
                #expect(arrived.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true)
            default:
                #expect(arrived.body.isEmpty, "\(source.name)")
            }
            compared += 1
        }
        return compared
    }

    /// Terrakube's `thunder-tests` (the older layout: one file of requests, one of collections,
    /// one of environments), its URL variables pointed at the echo: all 111 requests arrive as
    /// their source says.
    @Test func terrakubesThunderTestsSendWhatTheirSourceSays() async throws {
        let folder = Fixtures.url("thunder/terrakube")
        let imported = try ThunderImporter().importPath(at: folder)
        let collection = try writtenAndReadBack(imported.collection)
        let data = try Data(contentsOf: folder.appendingPathComponent("thunder-tests/thunderclient.json"))
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(collection.endpoints.count == list.count)
        let echo = try await ImportEcho.start()
        var values = Dictionary(collection.variables.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
        for name in ["terrakubeApi", "terrakubeDex", "terrakubeRegistry", "server"] { values[name] = echo.base }
        for variable in collection.environments[0].variables { values[variable.name] = variable.value }
        var compared = 0
        do {
            compared = try await Self.compare(
                collection, sources: Self.sourceRequests(list), echo: echo, values: values)
        } catch {
            Issue.record(error)
        }
        try await echo.stop()
        #expect(compared == 111)
    }

    @Test func terrakubesFoldersEnvironmentsAndCaptures() throws {
        let imported = try ThunderImporter().importPath(at: Fixtures.url("thunder/terrakube/thunder-tests"))
        let collection = try writtenAndReadBack(imported.collection)
        #expect(collection.name == "getting-started")
        // The global environment is the collection's variables; the other an environment.
        #expect(collection.variables.map(\.name) == ["terrakubeDex", "terrakubeApi", "terrakubeRegistry", "client_id"])
        #expect(collection.environments.map(\.name) == ["Terrakube Temp Values"])
        #expect(collection.environments[0].baseURLTemplate == "{{terrakubeApi}}")
        let create = try #require(collection.endpoints.first { $0.name == "create organization" })
        #expect(create.folderPath == ["Step 1 - Organization"])
        #expect(create.captures == [Capture(name: "organizationId", source: .jsonpath("$.data.id"))])
        #expect(create.auth == Authentication(.bearer(token: "{{access_token}}")))
        let history = try #require(collection.endpoints.first { $0.name == "search history" })
        #expect(history.folderPath == ["Step 4 - Workspace", "history"])
        // "json." captures the whole body.
        let destroy = try #require(collection.endpoints.first { $0.name == "template_destroy" })
        #expect(destroy.captures == [Capture(name: "template_destroy_id", source: .body)])
        #expect(imported.warnings.isEmpty, "\(imported.warnings)")
    }

    /// Alpyca's `thunder-tests` (the newer layout, two collection files): one folder each,
    /// every request sent to the echo as its source says (query from the URL, form bodies).
    @Test func alpycasCollectionsInTheNewerLayoutSendWhatTheirSourceSays() async throws {
        let echo = try await ImportEcho.start()
        let folder = try echo.copy(
            Fixtures.url("thunder/alpyca"),
            replacing: [
                "http://192.168.0.42:5555", "http://192.168.0.50:5555", "http://localhost:5555",
                "http://127.0.0.1:5555",
            ])
        defer { folder.cleanUp() }
        var compared = 0
        var count = 0
        var expected = 0
        do {
            let imported = try ThunderImporter().importPath(at: folder.url)
            let collection = try writtenAndReadBack(imported.collection)
            #expect(collection.items.count == 2)
            for file in ["tc_col_alpaca-device-testing-rotator.json", "tc_col_management.json"] {
                let url = folder.url.appendingPathComponent("thunder-tests/collections/\(file)")
                let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
                let requests = root["requests"] as? [[String: Any]] ?? []
                count += requests.count
                // Names repeat within a collection (two "Connected"): compare the first of each name and method.
                var seen: Set<String> = []
                let unique = Self.sourceRequests(requests).filter { seen.insert($0.name + $0.method).inserted }
                expected += unique.count
                compared += try await Self.compare(collection, sources: unique, echo: echo, values: [:])
            }
            #expect(collection.endpoints.count == count)
        } catch {
            Issue.record(error)
        }
        try await echo.stop()
        #expect(count == 17)
        #expect(compared == expected)
    }

    /// An exported collection with every body kind, auth kind and test kind the importer maps.
    @Test func anExportsBodiesAuthAndTestsBecomeTheCollections() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = try folder.write(
            "export.json",
            #"""
            {"clientName": "Thunder Client", "collectionName": "Shop", "version": "1.2",
             "folders": [{"_id": "f1", "name": "Orders", "containerId": "", "sortNum": 20,
                          "settings": {"headers": [{"name": "X-Team", "value": "shop"}],
                                       "auth": {"type": "basic", "basic": {"username": "u", "password": "p"}}}}],
             "settings": {"auth": {"type": "bearer", "bearer": "{{token}}"}},
             "requests": [
              {"_id": "r1", "containerId": "f1", "name": "Create", "method": "POST", "sortNum": 10,
               "url": "https://shop.example.com/orders/{id}?page=1",
               "params": [{"name": "page", "value": "1"}, {"name": "off", "value": "0", "isDisabled": true},
                          {"name": "id", "value": "7", "isPath": true}],
               "headers": [{"name": "X-Off", "value": "1", "isDisabled": true}],
               "body": {"type": "formdata", "form": [{"name": "note", "value": "hi"}],
                        "files": [{"name": "file", "value": "./a.png"}]},
               "auth": {"type": "none"},
               "tests": [{"type": "res-code", "custom": "", "action": "equal", "value": "201"},
                         {"type": "json-query", "custom": "json.items[0].id", "action": "notequal", "value": "0"},
                         {"type": "json-query", "custom": "json.name", "action": "istype", "value": "string"},
                         {"type": "Content-Type", "custom": "", "action": "contains", "value": "json"},
                         {"type": "res-time", "custom": "", "action": "<", "value": "500"},
                         {"type": "header", "custom": "X-Id", "action": "notcontains", "value": "x"},
                         {"type": "res-body", "custom": "", "action": "isjson", "value": "true"},
                         {"type": "set-env-var", "custom": "header.X-Id", "action": "setto", "value": "{{order_id}}"}]},
              {"_id": "r2", "containerId": "", "name": "Query", "method": "POST", "sortNum": 30,
               "url": "{{base}}/graphql",
               "body": {"type": "graphql", "graphql": {"query": "{ me { id } }", "variables": "{\"a\": {{#guid}} }"}},
               "auth": {"type": "oauth2", "oauth2": {"grantType": "client_credentials",
                         "tokenUrl": "https://auth.example.com/token", "clientId": "c", "clientSecret": "s",
                         "clientAuth": "in-body"}}},
              {"_id": "r3", "containerId": "", "name": "Upload", "method": "PUT", "sortNum": 5,
               "url": "https://shop.example.com/blob", "body": {"type": "binary", "binary": "data.bin"},
               "auth": {"type": "ntlm"}},
              {"_id": "r4", "containerId": "", "name": "Signed", "method": "GET", "sortNum": 6,
               "url": "https://s3.amazonaws.com/b", "auth": {"type": "aws", "aws": {"accessKeyId": "AKID",
                         "secretAccessKey": "{{aws_secret}}", "region": "us-east-1", "service": "s3"}}},
              {"_id": "r7", "containerId": "", "name": "Half signed", "method": "GET", "sortNum": 9,
               "url": "https://s3.amazonaws.com/c", "auth": {"type": "aws", "aws": {"accessKeyId": "AKID"}}},
              {"_id": "r5", "containerId": "", "name": "Broken", "method": "GET", "sortNum": 7},
              {"_id": "r6", "containerId": "", "name": "Xml", "method": "POST", "sortNum": 8,
               "url": "https://shop.example.com/x", "body": {"type": "xml", "raw": "<a/>"}, "docs": "The XML one."}
             ]}
            """#)
        let imported = try ThunderImporter().importPath(at: file)
        let collection = try writtenAndReadBack(imported.collection)
        #expect(collection.name == "Shop")
        #expect(collection.auth == Authentication(.bearer(token: "{{token}}")))
        #expect(collection.items.count == 6)
        let create = try #require(collection.endpoints.first { $0.name == "Create" })
        #expect(create.folderPath == ["Orders"])
        #expect(create.path == "/orders/7")
        #expect(create.query == [KeyValue("page", "1")])
        #expect(create.disabled.query == [KeyValue("off", "0")])
        #expect(create.headers == [KeyValue("X-Team", "shop")])
        #expect(create.disabled.headers == [KeyValue("X-Off", "1")])
        #expect(
            create.body
                == .multipart([
                    MultipartField(name: "note", value: "hi"),
                    MultipartField(name: "file", value: "./a.png", isFile: true),
                ]))
        // "none" under a folder with basic auth turns it off.
        #expect(create.auth == Authentication(.none))
        #expect(
            create.assertions.map(\.text) == [
                "status == 201", "jsonpath $.items[0].id != 0", "jsonpath $.name isString",
                "header Content-Type contains json",
                "duration < 500", "header X-Id not contains x",
            ])
        #expect(create.captures == [Capture(name: "order_id", source: .header("X-Id"))])
        let query = try #require(collection.endpoints.first { $0.name == "Query" })
        #expect(query.graphql?.document == .inline("{ me { id } }"))
        #expect(
            query.auth?.scheme
                == .oauth2(
                    OAuth2Settings([
                        "grant": "client_credentials", "token_url": "https://auth.example.com/token", "client_id": "c",
                        "client_secret": "s", "client_auth": "body",
                    ])))
        let upload = try #require(collection.endpoints.first { $0.name == "Upload" })
        #expect(upload.body == .file("data.bin"))
        #expect(upload.auth == nil)
        let xml = try #require(collection.endpoints.first { $0.name == "Xml" })
        #expect(xml.headers == [KeyValue("Content-Type", "application/xml")])
        #expect(xml.description == "The XML one.")
        #expect(collection.endpoints.map(\.name) == ["Upload", "Signed", "Xml", "Half signed", "Create", "Query"])
        #expect(imported.warnings.contains { $0.contains("\"Upload\" uses NTLM authentication") })
        let signed = try #require(collection.endpoints.first { $0.name == "Signed" })
        #expect(
            signed.auth?.scheme
                == .awsSigV4(
                    AWSSigV4Settings([
                        "access_key_id": "AKID", "secret_access_key": "{{aws_secret}}", "region": "us-east-1",
                        "service": "s3",
                    ])))
        #expect(
            imported.warnings.contains {
                $0.contains("\"Half signed\" signs with AWS Signature Version 4 without its secret access key")
            })
        #expect(imported.warnings.contains { $0.contains("\"Query\": its GraphQL variables are not JSON") })
        #expect(imported.warnings.contains { $0.contains("\"Orders/Create\": res-body isjson true") })
        #expect(imported.warnings.contains { $0.contains("1 request was skipped: \"Broken\" (it has no URL)") })
    }

    @Test func aFileThatIsNotJSONIsRefusedWithItsLineAndColumn() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = try folder.write("export.json", "{\n  \"requests\": [\n    {\"name\": }\n  ]\n}\n")
        do {
            _ = try ThunderImporter().importPath(at: file)
            Issue.record("a broken file imported")
        } catch {
            #expect(
                "\(error)".contains(
                    "export.json: it cannot be imported as a Thunder Client collection: it is not valid JSON: line 3, column"
                ))
        }
        let environment = try folder.write("env.json", #"{"name": "dev", "data": []}"#)
        #expect(throws: ImportError.self) { try ThunderImporter().importPath(at: environment) }
        #expect(throws: ImportError.self) { try ThunderImporter().importPath(at: folder.url) }
    }

    /// In the newer layout, one collection file that does not read is skipped and named; the others import.
    @Test func aBrokenCollectionFileIsSkippedAndNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("collections"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("environments"), withIntermediateDirectories: true)
        try folder.write(
            "collections/tc_col_a.json", #"{"colName": "A", "requests": [{"name": "a", "url": "http://x/a"}]}"#)
        try folder.write("collections/tc_col_b.json", "[")
        try folder.write(
            "environments/tc_env_dev.json",
            #"{"name": "dev", "data": [{"name": "k", "value": "v"}, {"name": "s", "value": "x", "isSecret": true}]}"#)
        let imported = try ThunderImporter().importPath(at: folder.url)
        #expect(imported.collection.endpoints.map(\.name) == ["a"])
        #expect(imported.collection.environments.first?.secrets == ["s"])
        #expect(
            imported.warnings.contains {
                $0.contains(
                    "tc_col_b.json: it cannot be imported as a Thunder Client collection: it is not valid JSON: line 1")
            })
    }
}
