import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// `explorer import postman ENV.json --into COLLECTION`: an environment exported alone is added
/// to a collection, or replaces the variables of the environment of the same name.
@Suite struct PostmanEnvironmentImportTests {
    private let collection = """
        name: Echo
        variables:
          version: v1
        environments:
          - name: testEnv
            description: The shared staging server
            base_url: https://staging.test
            headers: { X-Team: red }
            variables: { old: gone }
          - name: local
            base_url: http://127.0.0.1:8080
        endpoints:
          - name: Posts
            path: /posts
        """

    @Test func aNewEnvironmentIsAddedWithTheFirstEnvironmentsBaseURL() throws {
        var base = try CollectionLoader.parse(collection, file: "echo.yaml")
        base.environments.removeFirst()
        let (text, change, warnings) = try PostmanImporter().addingEnvironment(
            try Data(contentsOf: Fixtures.url("postman/globals-env-data-files.postman_environment.json")),
            path: "env.json", to: base)
        let merged = try CollectionLoader.parse(text, file: "echo.yaml")
        #expect(change == .added("testEnv"))
        #expect(warnings.isEmpty)
        let added = try #require(merged.environment(named: "testEnv"))
        #expect(added.baseURLTemplate == "http://127.0.0.1:8080")
        #expect(added.variables.map(\.name) == ["hKey", "hburl", "tempKey", "url", "env", "data"])
        #expect(added.variables[named: "url"] == "https://postman-echo.com")
        #expect(merged.endpoints == base.endpoints)
        #expect(merged.environments.map(\.name) == ["local", "testEnv"])
    }

    @Test func anEnvironmentOfTheSameNameHasItsVariablesReplacedAndKeepsItsSettings() throws {
        let base = try CollectionLoader.parse(collection, file: "echo.yaml")
        let (text, change, _) = try PostmanImporter().addingEnvironment(
            try Data(contentsOf: Fixtures.url("postman/globals-env-data-files.postman_environment.json")),
            path: "env.json", to: base)
        let merged = try CollectionLoader.parse(text, file: "echo.yaml")
        #expect(change == .replaced("testEnv"))
        #expect(merged.environments.map(\.name) == ["testEnv", "local"])
        let replaced = try #require(merged.environment(named: "testEnv"))
        #expect(replaced.baseURLTemplate == "https://staging.test")
        #expect(replaced.headers == [KeyValue("X-Team", "red")])
        #expect(replaced.variables[named: "old"] == nil)
        #expect(replaced.variables[named: "hKey"] == "sampleKey")
        #expect(replaced.summary == "The shared staging server")
    }

    @Test func secretValuesStaySecretAndDisabledOnesAreLeftOut() throws {
        let environment = """
            {"id": "a7cc1846", "name": "Shop - Local",
             "values": [{"key": "baseUrl", "value": "http://localhost:3001", "type": "default", "enabled": true},
                        {"key": "adminPassword", "value": "12345678", "type": "secret", "enabled": true},
                        {"key": "requestId", "value": "{{$guid}}", "type": "default", "enabled": true},
                        {"key": "old", "value": "x", "type": "default", "enabled": false}],
             "_postman_variable_scope": "environment", "_postman_exported_using": "Postman/11.2.0"}
            """
        let base = try CollectionLoader.parse(collection, file: "echo.yaml")
        let (text, change, _) = try PostmanImporter().addingEnvironment(
            Data(environment.utf8), path: "shop.postman_environment.json", to: base)
        let merged = try CollectionLoader.parse(text, file: "echo.yaml")
        #expect(change == .added("Shop - Local"))
        let added = try #require(merged.environment(named: "Shop - Local"))
        #expect(added.secrets == ["adminPassword"])
        #expect(
            added.variables == [
                KeyValue("baseUrl", "http://localhost:3001"), KeyValue("adminPassword", "12345678"),
                KeyValue("requestId", "{{uuid}}"),
            ])
    }

    @Test func aCollectionIsNotAnEnvironment() throws {
        #expect(
            !PostmanImporter.isEnvironmentFile(try Data(contentsOf: Fixtures.url("postman/sample-collection.json"))))
        #expect(
            PostmanImporter.isEnvironmentFile(
                try Data(contentsOf: Fixtures.url("postman/inherited-entities.postman_environment.json"))))
        let error = #expect(throws: ImportError.self) {
            try PostmanImporter().importData(
                try Data(contentsOf: Fixtures.url("postman/inherited-entities.postman_environment.json")),
                path: "env.json")
        }
        #expect(error?.description.contains("--into") == true)
    }
}
