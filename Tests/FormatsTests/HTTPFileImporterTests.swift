import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

@Suite struct HTTPFileImporterTests {
    @Test(arguments: ["http/petstore.http", "http/github-issues.http"])
    func everyFixtureImportsAndRoundTripsThroughYAML(_ fixture: String) throws {
        let result = try HTTPFileImporter().importFile(at: Fixtures.url(fixture))
        _ = try writtenAndReadBack(result.collection, file: fixture)
    }

    @Test func petstoreRequestsVariablesAndBodies() throws {
        let result = try HTTPFileImporter().importFile(at: Fixtures.url("http/petstore.http"))
        let collection = result.collection
        #expect(
            collection.endpoints.map(\.name) == [
                "listPets", "createPet", "showPetById", "GET /pets", "POST /pets/{{petId}}", "deletePet",
            ])
        #expect(collection.environments.first?.baseURLTemplate == "{{baseUrl}}")
        #expect(collection.variables[named: "baseUrl"] == "http://127.0.0.1:PORT/v1")
        let list = try collection.endpoint(named: "listPets")
        #expect(list.path == "/pets")
        #expect(list.query == [KeyValue("limit", "20"), KeyValue("tags", "dog")])
        #expect(list.headers == [KeyValue("Accept", "application/json"), KeyValue("api_key", "{{apiKey}}")])
        let create = try collection.endpoint(named: "createPet")
        #expect(create.method == .post)
        #expect(create.body == .raw("{\n    \"id\": 10,\n    \"name\": \"{{petName}}\",\n    \"tag\": \"dog\"\n}"))
        let update = try collection.endpoint(named: "POST /pets/{{petId}}")
        #expect(update.body == .raw("name=Doggie&status=sold"))
        // @petId = {{createPet.response.body.$.id}}: createPet captures it, its users require createPet.
        #expect(create.captures == [Capture(name: "petId", source: .jsonpath("$.id"))])
        #expect(update.requirements == [Requirement(endpoint: "createPet")])
        #expect(try collection.endpoint(named: "deletePet").requirements == [Requirement(endpoint: "createPet")])
        #expect(!result.warnings.contains { $0.contains("petId") })
        let search = try collection.endpoint(named: "GET /pets")
        #expect(search.query == [KeyValue("name", "{{petName}}")])
    }

    @Test func githubFileSkipsScriptsAndReportsScriptVariables() throws {
        let result = try HTTPFileImporter().importFile(at: Fixtures.url("http/github-issues.http"))
        let collection = result.collection
        #expect(
            collection.endpoints.map(\.name) == [
                "List open issues", "createIssue", "Comment on the new issue",
                "Lock the issue (PUT with a small JSON body)", "Unlock it again",
            ])
        let create = try collection.endpoint(named: "createIssue")
        guard case .raw(let body)? = create.body else {
            Issue.record("no body")
            return
        }
        #expect(body.hasPrefix("{") && body.hasSuffix("}"))
        #expect(!body.contains("client.test"))
        // client.global.set("issue_number", response.body.number) is a capture; client.test is reported.
        #expect(create.captures == [Capture(name: "issue_number", source: .jsonpath("$.number"))])
        #expect(
            try collection.endpoint(named: "Unlock it again").requirements == [Requirement(endpoint: "createIssue")])
        #expect(try collection.endpoint(named: "List open issues").requirements.isEmpty)
        #expect(result.warnings.contains { $0.contains("imported only for its client.global.set lines") })
        #expect(!result.warnings.contains { $0.contains("{{issue_number}}") })
        // Resolves once the port and the script's variable are given.
        var resolvable = collection
        resolvable.variables.set("host", "http://127.0.0.1:9")
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            try resolvable.endpoint(named: "Unlock it again"), in: resolvable, overrides: ["issue_number": "7"])
        #expect(resolved.url == "http://127.0.0.1:9/repos/octocat/hello-world/issues/7/lock")
        #expect(resolved.request.method == .delete)
    }

    @Test func systemVariablesMapToBuiltIns() throws {
        let text = "GET http://h/a?id={{$guid}}&t={{$timestamp}}\nX-Home: {{$processEnv HOME}}\n"
        let endpoint = try #require(try HTTPFileImporter().importText(text).collection.endpoints.first)
        #expect(endpoint.query == [KeyValue("id", "{{uuid}}"), KeyValue("t", "{{timestamp}}")])
        #expect(endpoint.headers == [KeyValue("X-Home", "{{env.HOME}}")])
    }

    @Test func inlineReferencesHeadersAndUnknownRequestsInChaining() throws {
        let text = """
            # @name login
            POST http://h/login
            Content-Type: application/json

            {"user": "ada"}

            > {% client.global.set("rid", response.headers.valueOf("X-Request-Id")); %}

            ###
            GET http://h/me
            Authorization: Bearer {{login.response.body.$.token}}
            X-Request: {{rid}}

            ###
            @other = {{nowhere.response.body.$.id}}
            GET http://h/items/{{other}}
            """
        let result = try HTTPFileImporter().importText(text)
        let login = try result.collection.endpoint(named: "login")
        #expect(
            login.captures == [
                Capture(name: "rid", source: .header("X-Request-Id")),
                Capture(name: "login_token", source: .jsonpath("$.token")),
            ])
        let me = try result.collection.endpoint(named: "GET /me")
        #expect(me.headers.first?.value == "Bearer {{login_token}}")
        #expect(me.requirements == [Requirement(endpoint: "login")])
        #expect(result.warnings.contains { $0.contains("{{nowhere.response.body.$.id}} names no request of the file") })
        // What was imported loads and writes back as it is.
        _ = try writtenAndReadBack(result.collection, file: "chain.yaml")
    }
}
