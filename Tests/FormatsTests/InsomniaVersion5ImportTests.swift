import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// Insomnia 11's exports (`collection.insomnia.rest/5.0`), format 4 in YAML, and exports of
/// several workspaces, read from files Insomnia wrote (Kong/insomnia's smoke-test fixtures).
@Suite struct InsomniaVersion5ImportTests {
    /// The import, written as `--into` writes it and read back.
    private func imported(_ fixture: String, workspace: String? = nil) throws -> (APICollection, [String]) {
        let result = try InsomniaImporter().importFile(at: Fixtures.url("insomnia/\(fixture)"), workspace: workspace)
        let collection = try writtenAndReadBack(result.collection, file: fixture)
        return (collection, result.warnings)
    }

    @Test(arguments: [
        "chained-responses.yaml", "auth-types.yaml", "Collection-A.yaml", "environment-cascade-collection.yaml",
        "insomnia4.yaml", "multiple-workspaces.yaml", "insomnia_v4.json", "template-tag-collection.yaml",
        "vault-collection-cut.yaml",
    ])
    func everyRealExportImportsAndRoundTrips(_ fixture: String) throws {
        let (collection, _) = try imported(fixture)
        #expect(!collection.endpoints.isEmpty)
    }

    @Test func aSocketIORequestIsReportedNotSentAsAWebSocket() throws {
        // Insomnia 11.4's Socket.IO request has no method, as a WebSocket request, and listeners.
        let (collection, warnings) = try imported("socket-io.yaml")
        #expect(collection.endpoints.isEmpty)
        #expect(
            warnings.contains {
                $0.hasPrefix("Socket.IO requests are not imported") && $0.hasSuffix(": Socket.IO Request.")
            }, "\(warnings)")
    }

    @Test func anAPIKeyWithoutItsNameAndAnEmptyEnvironmentRowStillMakeACollectionThatLoads() throws {
        // `imported` reads the written collection back: an `auth.name` of "" did not load.
        let (collection, warnings) = try imported("vault-collection-cut.yaml")
        #expect(collection.variables == [KeyValue("a_hello", "test")])
        let request = try collection.endpoint(named: "legacy-array-vault")
        #expect(request.auth == nil)
        #expect(
            warnings.contains(
                "\"legacy-array-vault\" has API key auth without the key's name; a key without a name cannot be sent, so it was imported as no auth."
            ))
    }

    @Test func anOAuth2BlockLeftHalfFilledInIsNoAuthSoTheImportLoads() throws {
        // "Request Tag": `authentication: {type: oauth2, grantType: authorization_code}` and nothing else.
        let (collection, warnings) = try imported("template-tag-collection.yaml")
        #expect(try collection.endpoint(named: "FolderWithRequest/Request Tag").auth == nil)
        #expect(
            warnings.contains {
                $0.hasPrefix("\"Request Tag\" uses OAuth 2 (authorization_code) without its token_url, client_id")
            }, "\(warnings)")
        // Its other tags: what has an equivalent becomes a function, a response tag a capture.
        #expect(
            try collection.endpoint(named: "Base Response").captures.map(\.name) == [
                "base_response_method", "base_response_type",
            ])
    }

    @Test func responseTagsBecomeCapturesAndRequirements() throws {
        let (collection, warnings) = try imported("chained-responses.yaml")
        #expect(collection.name == "test chains")
        #expect(collection.endpoints.map(\.name) == ["first", "second", "third"])
        let first = try collection.endpoint(named: "first")
        let second = try collection.endpoint(named: "second")
        let third = try collection.endpoint(named: "third")
        // 'b64::JC5kYXRh::46b' is the JSONPath $.data; 'always' sends the request again each time.
        #expect(first.captures == [Capture(name: "first_data", source: .jsonpath("$.data"))])
        #expect(second.body == .raw("{{first_data}} and second"))
        #expect(second.requirements == [Requirement(endpoint: "first", maxAge: 0)])
        #expect(second.captures == [Capture(name: "second_data", source: .jsonpath("$.data"))])
        #expect(third.body == .raw("{{second_data}} and third"))
        #expect(third.requirements == [Requirement(endpoint: "second", maxAge: 0)])
        #expect(!warnings.contains { $0.contains("template tags") }, "\(warnings)")
        // A URL without a scheme is sent over http, as Insomnia sends it.
        #expect(collection.environments.first?.baseURLTemplate == "http://localhost:4010")
    }

    @Test func foldersEnvironmentsAndSubEnvironments() throws {
        let (collection, _) = try imported("environment-cascade-collection.yaml")
        #expect(collection.variables == [KeyValue("cascadeVar", "fromBase"), KeyValue("subOnlyVar", "subOnly_base")])
        #expect(collection.environments.map(\.name) == ["SubEnvA", "SubEnvB"])
        #expect(
            collection.environments[1].variables == [
                KeyValue("cascadeVar", "fromSubB"), KeyValue("subOnlyVar", "subOnly_B"),
            ])
        // Outside the folder, the environments' values; inside, the folder's win, the innermost first.
        let top = try collection.endpoint(named: "cascade request no folder")
        #expect(top.body == .raw("{\n  \"cascadeVar\": \"{{cascadeVar}}\"\n}"))
        let inner = try collection.endpoint(named: "cascadeFolder/innerFolder/inner request")
        #expect(
            inner.body == .raw("{\n  \"cascadeVar\": \"fromFolder\",\n  \"folderOverride\": \"fromInnerFolder\"\n}"))
        let outer = try collection.endpoint(named: "cascadeFolder/cascade request")
        #expect(outer.body == .raw("{\n  \"cascadeVar\": \"fromFolder\",\n  \"subOnlyVar\": \"{{subOnlyVar}}\"\n}"))
        #expect(outer.headers == [KeyValue("Content-Type", "application/json")])
    }

    @Test func authBecomesAuthAndOtherKindsAreReported() throws {
        let (collection, warnings) = try imported("auth-types.yaml")
        let basic = try collection.endpoint(named: "sends request with basic authentication")
        // The disabled Authorization header is not sent; the auth block is.
        #expect(basic.headers.isEmpty)
        #expect(basic.auth == Authentication(.basic(username: "user", password: "pass")))
        let oauth1 = try collection.endpoint(named: "sends request with oauth1")
        #expect(oauth1.auth == nil)
        #expect(warnings.contains { $0.contains("oauth1 authentication") })
        #expect(warnings.contains { $0.contains("cookie jar") })
        #expect(collection.variables == [KeyValue("customValue", "fromEnvManager")])
    }

    @Test func formatFourInYAMLImports() throws {
        let (collection, _) = try imported("insomnia4.yaml")
        #expect(collection.name == "Insomnia")
        #expect(collection.endpoints.map(\.id) == ["Actions/Get Sleep"])
        #expect(collection.environments.map(\.name) == ["Insomnia Environment"])
        #expect(collection.environments[0].variables[named: "host"] == "127.0.0.1:4010")
    }

    @Test func severalWorkspacesBecomeOneFolderEachOrTheOneChosen() throws {
        let (collection, _) = try imported("multiple-workspaces.yaml")
        let folders = collection.items.compactMap { if case .folder(let folder) = $0 { folder.name } else { nil } }
        #expect(folders.count == 10)
        #expect(folders.contains("Swagger Petstore V3 JSON 1.0.0") && folders.contains("collection 1"))
        #expect(collection.endpoints.count == 14)
        #expect(collection.endpoints.contains { $0.id == "Swagger Petstore V3 YAML 1.0.0/List all pets" })

        let (one, _) = try imported("multiple-workspaces.yaml", workspace: "Swagger Petstore V3 YAML 1.0.0")
        #expect(one.name == "Swagger Petstore V3 YAML 1.0.0")
        #expect(one.endpoints.map(\.name).sorted() == ["Create a pet", "Info for a specific pet", "List all pets"])

        let error = #expect(throws: ImportError.self) {
            try InsomniaImporter().importFile(at: Fixtures.url("insomnia/multiple-workspaces.yaml"), workspace: "nope")
        }
        #expect(error?.description.contains("\"collection 1\"") == true)
    }

    @Test func templateTagsBecomeFunctionsWhereExplorerHasThem() throws {
        let yaml = """
            type: collection.insomnia.rest/5.0
            name: tags
            collection:
              - url: https://api.test/items/{% uuid 'v4' %}
                name: create
                meta: { id: req_1 }
                method: POST
                headers:
                  - name: X-Request-Id
                    value: "{% faker 'randomUUID' %}"
                  - name: X-Sent
                    value: "{% now 'millis' %} {% now 'iso-8601' %}"
                  - name: X-Name
                    value: "{% faker 'randomFirstName' %}"
                  - name: X-Code
                    value: "{% prompt 'Two-factor code', 'Code', '', '', false, true %}"
                  - name: X-Sig
                    value: "{% hash 'sha256', 'hex', 'payload' %} {% base64 'encode', 'normal', 'user:pw' %}"
                  - name: X-Other
                    value: "{% cookie 'https://api.test', 'sid' %}"
              - name: ws
                url: wss://api.test/live
                meta: { id: ws_1 }
                settings: { encodeUrl: true }
              - name: grpc
                url: localhost:50051
                protoMethodName: /RouteGuide/GetFeature
                meta: { id: greq_1 }
            """
        let result = try InsomniaImporter().importData(Data(yaml.utf8), path: "tags.yaml")
        let collection = try writtenAndReadBack(result.collection)
        let create = try collection.endpoint(named: "create")
        #expect(create.path == "/items/{{uuid}}")
        #expect(
            create.headers == [
                KeyValue("X-Request-Id", "{{uuid}}"), KeyValue("X-Sent", "{{timestamp ms}} {{now}}"),
                KeyValue("X-Name", "{% faker 'randomFirstName' %}"),
                KeyValue("X-Code", "{{prompt \"Two-factor code\"}}"),
                KeyValue("X-Sig", "{{sha256 \"payload\"}} {{base64 \"user:pw\"}}"),
                KeyValue("X-Other", "{% cookie 'https://api.test', 'sid' %}"),
            ])
        let socket = try collection.endpoint(named: "ws")
        #expect(socket.webSocket != nil)
        #expect(socket.path == "wss://api.test/live")
        #expect(collection.endpoint(withID: "grpc") == nil)
        #expect(result.warnings.contains { $0.contains("randomFirstName") })
        #expect(result.warnings.contains { $0.contains("cookie (1)") })
        #expect(result.warnings.contains { $0.contains("gRPC requests are not imported") && $0.contains("grpc") })
    }

    @Test func aResponseTagInAnEnvironmentMakesItsUsersRequireTheRequest() throws {
        let yaml = """
            type: collection.insomnia.rest/5.0
            name: login chain
            collection:
              - name: Auth
                meta: { id: fld_1 }
                children:
                  - url: https://api.test/login
                    name: Login
                    method: POST
                    meta: { id: req_login }
              - url: https://api.test/me
                name: Me
                method: GET
                meta: { id: req_me }
                authentication: { type: bearer, token: "{{ _.token }}" }
            environments:
              name: Base Environment
              data:
                token: "{% response 'body', 'req_login', 'b64::JC5hY2Nlc3NfdG9rZW4=::46b', 'when-expired', 300 %}"
            """
        let result = try InsomniaImporter().importData(Data(yaml.utf8), path: "chain.yaml")
        let collection = try writtenAndReadBack(result.collection)
        #expect(collection.variables == [KeyValue("token", "{{login_access_token}}")])
        #expect(
            try collection.endpoint(named: "Auth/Login").captures == [
                Capture(name: "login_access_token", source: .jsonpath("$.access_token"))
            ])
        let me = try collection.endpoint(named: "Me")
        #expect(me.auth == Authentication(.bearer(token: "{{token}}")))
        #expect(me.requirements == [Requirement(endpoint: "Auth/Login", maxAge: 300)])
    }

    @Test func filesThatAreNotCollectionsAreRefusedWithTheReason() throws {
        let mock = #expect(throws: ImportError.self) {
            try InsomniaImporter().importData(Data("type: mock.insomnia.rest/5.0\nname: m\n".utf8), path: "m.yaml")
        }
        #expect(mock?.description.contains("mock") == true)
        let other = #expect(throws: ImportError.self) {
            try InsomniaImporter().importData(Data("name: x\nitems: []\n".utf8), path: "x.yaml")
        }
        #expect(other?.description.contains("collection.insomnia.rest/5.0") == true)
    }
}
