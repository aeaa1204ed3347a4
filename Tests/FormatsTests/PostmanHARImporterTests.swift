import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// Round trip through the collection format, as `explorer import … --into` writes it: the
/// whole collection comes back.
private func reloaded(_ result: ImportResult, file: String) throws -> APICollection {
    try writtenAndReadBack(result.collection, file: file)
}

@Suite struct PostmanImporterTests {
    static let collections = [
        "postman/custom-http-method.postman_collection.json", "postman/multiple-form-values.postman_collection.json",
        "postman/sample-collection.json", "postman/multi-level-folders-v2.postman_collection.json",
        "postman/globals-env-data-files.postman_collection.json", "postman/inherited-entities.postman_collection.json",
    ]

    @Test(arguments: collections)
    func everyRealCollectionImportsAndRoundTrips(_ fixture: String) throws {
        let result = try PostmanImporter().importFile(at: Fixtures.url(fixture))
        #expect(!result.collection.endpoints.isEmpty)
        _ = try reloaded(result, file: fixture)
    }

    @Test func anAPIKeyWithoutItsNameSendsNoHeaderWithoutAName() throws {
        let json = #"""
            {"info": {"name": "K", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "A", "request": {"method": "GET", "url": "https://a.test/x",
                       "auth": {"type": "apikey", "apikey": [{"key": "key", "value": ""}, {"key": "value", "value": "s3cret"}]}}}]}
            """#
        let result = try PostmanImporter().importData(Data(json.utf8))
        #expect(try reloaded(result, file: "k.yaml").endpoints.first?.headers == [])
        #expect(
            result.warnings == [
                "\"A\" has API key auth without the key's name; a key without a name cannot be sent, so it was left out."
            ])
    }

    @Test func foldersNestAndEmptyFoldersStay() throws {
        let collection = try PostmanImporter().importFile(
            at: Fixtures.url("postman/multi-level-folders-v2.postman_collection.json")
        ).collection
        #expect(
            collection.endpoints.map(\.id) == [
                "F1/F1.R1", "F1/F1.R2", "F1/F1.R3", "F2/F2.F3/F2.F3.R1", "F2/F2.R1", "R1",
            ])
        #expect(collection.environments.map(\.baseURLTemplate) == ["https://postman-echo.com"])
        #expect(collection.description == "A simple V2 collection to test out multi level folder flows")
    }

    @Test func customMethodsBodiesOfEveryModeAndDisabledBodies() throws {
        let collection = try PostmanImporter().importFile(
            at: Fixtures.url("postman/custom-http-method.postman_collection.json")
        ).collection
        #expect(collection.endpoints.allSatisfy { $0.method.rawValue == "POSTMAN" })
        #expect(collection.environments.first?.baseURLTemplate == "http://localhost:4041")
        let form = try collection.endpoint(named: "form-data")
        #expect(
            form.body
                == .multipart([
                    MultipartField(name: "dataKey", value: "dataValue"),
                    MultipartField(
                        name: "dataFile", value: "test/integration/custom-http-method/upload-file.csv", isFile: true),
                ]))
        #expect(try collection.endpoint(named: "raw").body == .raw(#"{ "foo": "bar" }"#))
        #expect(try collection.endpoint(named: "body disabled").body == nil)
    }

    @Test func repeatedQueryKeysAndSameNamedRequestsSurvive() throws {
        let result = try PostmanImporter().importFile(
            at: Fixtures.url("postman/multiple-form-values.postman_collection.json"))
        let collection = try reloaded(result, file: "multiple-form-values")
        #expect(collection.endpoints.map(\.name) == ["multiformvalues", "multiformvalues (2)", "multiformvalues (3)"])
        #expect(collection.endpoints[0].query == [KeyValue("hi", "hello"), KeyValue("hi", "lolol")])
        // Scripts are kept, not run, and said so.
        #expect(collection.endpoints[0].description?.contains("tests[\"multiple values for form variable\"]") == true)
        #expect(result.warnings.contains { $0.contains("script") && $0.contains("not run") })
    }

    @Test func environmentsVariablesAndTemplatedBaseURL() throws {
        let result = try PostmanImporter().importFile(
            at: Fixtures.url("postman/globals-env-data-files.postman_collection.json"),
            environments: [Fixtures.url("postman/globals-env-data-files.postman_environment.json")])
        let environment = try #require(result.collection.environments.first)
        #expect(environment.name == "testEnv")
        #expect(environment.baseURLTemplate == "{{url}}")
        #expect(environment.variables[named: "url"] == "https://postman-echo.com")
        let endpoint = try #require(result.collection.endpoints.first)
        #expect(endpoint.path == "/get")
        #expect(endpoint.query.first == KeyValue("global", "{{global}}"))
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            endpoint, in: result.collection, environment: environment,
            overrides: ["global": "g", "prsE": "e", "prsG": "g2"])
        #expect(resolved.url.hasPrefix("https://postman-echo.com/get?global=g&env=env2&data=env2"))
    }

    @Test func inheritedAuthIsSentAndDigestIsNeverBasic() throws {
        let result = try PostmanImporter().importFile(
            at: Fixtures.url("postman/inherited-entities.postman_collection.json"))
        let collection = result.collection
        let basic = try collection.endpoint(named: "Collection level stuff/Auth")
        #expect(basic.auth?.scheme == .basic(username: "postman", password: "password"))
        let digest = try collection.endpoint(named: "Folder level stuff/Auth")
        // Digest becomes auth: digest (answered at send time), never an Authorization header.
        #expect(!digest.headers.contains { $0.name == "Authorization" })
        guard case .digest? = digest.auth?.scheme else {
            Issue.record("expected auth: digest, got \(String(describing: digest.auth))")
            return
        }
        #expect(!result.warnings.contains { $0.contains("digest auth") })
    }

    @Test func anEnvironmentFileOrAV1CollectionIsAClearError() {
        #expect(throws: ImportError.self) {
            try PostmanImporter().importFile(
                at: Fixtures.url("postman/globals-env-data-files.postman_environment.json"))
        }
        #expect(throws: ImportError.self) {
            try PostmanImporter().importData(Data(#"{"id": "x", "requests": [], "order": []}"#.utf8))
        }
        #expect(throws: ImportError.self) { try PostmanImporter().importData(Data("{ not json".utf8)) }
    }
}

@Suite struct InsomniaImporterTests {
    @Test func anInsomniaDesktopExportBecomesFoldersEnvironmentsAndEndpoints() throws {
        let result = try InsomniaImporter().importFile(at: Fixtures.url("insomnia/insomnia_v4.json"))
        let collection = try reloaded(result, file: "insomnia_v4.json")
        #expect(collection.name == "Swagger Petstore 1.0.0")
        #expect(collection.endpoints.count == 13)
        #expect(collection.endpoints.contains { $0.id == "Example Folder/Example 2" })
        // The base environment's data are variables; the sub-environment an environment.
        #expect(collection.variables[named: "base_url"] == "{{ scheme }}://{{ host }}{{ base_path }}")
        let environment = try #require(collection.environments.first)
        #expect(environment.name == "OpenAPI env")
        #expect(environment.baseURLTemplate == "{{ base_url }}")
        let login = try collection.endpoint(named: "Logs user into the system")
        #expect(login.query == [KeyValue("username", "string"), KeyValue("password", "string")])
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            login, in: collection, environment: environment)
        #expect(resolved.url == "http://petstore.swagger.io/v2/user/login?username=string&password=string")
        #expect(result.warnings.contains { $0.contains("unit_test") })
    }
}

@Suite struct HARImporterTests {
    @Test(arguments: ["har/chrome_http2.har", "har/firefox_post_form.har", "har/chrome_text.har"])
    func everyBrowserExportImportsAndRoundTrips(_ fixture: String) throws {
        let result = try HARImporter().importFile(at: Fixtures.url(fixture))
        #expect(!result.collection.endpoints.isEmpty)
        _ = try reloaded(result, file: fixture)
    }

    @Test func aFirefoxFormPostKeepsItsBodyAndHeadersButNotTheConnectionsOwn() throws {
        let collection = try HARImporter().importFile(at: Fixtures.url("har/firefox_post_form.har")).collection
        let endpoint = try #require(collection.endpoints.first)
        #expect(endpoint.name == "POST /post")
        #expect(collection.environments.first?.baseURLTemplate == "http://httpbin.org")
        #expect(
            endpoint.body
                == .raw(
                    "custname=Vasiliy&custtel=&custemail=vasiliy%40example.com&size=medium&topping=onion&topping=mushroom&delivery=&comments="
                ))
        let names = endpoint.headers.map { $0.name.lowercased() }
        #expect(names.contains("content-type") && names.contains("referer") && names.contains("user-agent"))
        #expect(
            !names.contains("host") && !names.contains("content-length") && !names.contains("connection")
                && !names.contains("accept-encoding"))
    }

    @Test func http2PseudoHeadersAreLeftOutAndOneEntryCanBeChosen() throws {
        let collection = try HARImporter().importFile(at: Fixtures.url("har/chrome_http2.har"), entry: 1).collection
        let endpoint = try #require(collection.endpoints.first)
        #expect(collection.endpoints.count == 1)
        #expect(!endpoint.headers.contains { $0.name.hasPrefix(":") })
        #expect(collection.environments.first?.baseURLTemplate == "https://vasiliy.faronov.name")
        #expect(throws: ImportError.self) {
            try HARImporter().importFile(at: Fixtures.url("har/chrome_http2.har"), entry: 99)
        }
    }
}

@Suite struct PostmanHARExporterTests {
    @Test func aPostmanExportImportsBackAsTheSameRequests() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        let json = PostmanExporter.json(for: collection)
        #expect(json.contains(PostmanExporter.schema))
        #expect(!json.contains("s3cret"))
        let reimported = try PostmanImporter().importData(Data(json.utf8)).collection
        #expect(reimported.endpoints.map(\.id) == collection.endpoints.map(\.id))
        #expect(reimported.endpoints.map(\.method) == collection.endpoints.map(\.method))
        #expect(reimported.endpoints.map(\.path) == collection.endpoints.map(\.path))
        // Postman has neither an environment's headers nor a JSON body: those come back as the
        // request's own headers (with the JSON body's Content-Type) and the body as its text.
        for (back, sent) in zip(reimported.endpoints, collection.endpoints) {
            #expect(back.query == sent.query, "\(sent.id)")
            #expect(sent.headers.allSatisfy(back.headers.contains), "\(sent.id)")
            #expect((back.body == nil) == (sent.body == nil), "\(sent.id)")
            #expect(back.auth == sent.auth, "\(sent.id)")
            #expect(back.description == sent.description, "\(sent.id)")
        }
        #expect(reimported.environments.first?.baseURLTemplate == "{{baseUrl}}")
    }

    @Test func aHARExportMasksSecretsAndImportsBack() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        let resolver = RequestResolver(
            processEnvironment: ["DEMO_TOKEN": "s3cret-token"], now: Date(timeIntervalSince1970: 0), uuid: "u-1")
        let resolved = try collection.endpoints.map { try resolver.resolve($0, in: collection) }
        let json = HARExporter.json(for: resolved, date: Date(timeIntervalSince1970: 0))
        #expect(!json.contains("s3cret-token"))
        #expect(HARExporter.json(for: resolved, revealSecrets: true).contains("s3cret-token"))
        let reimported = try HARImporter().importData(Data(json.utf8)).collection
        #expect(reimported.endpoints.count == collection.endpoints.count)
        #expect(reimported.endpoints.map(\.method) == collection.endpoints.map(\.method))
        #expect(reimported.environments.first?.baseURLTemplate == "http://127.0.0.1:8080")
    }
}
