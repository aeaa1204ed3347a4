import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Workspace

@Suite struct CollectionLoaderTests {
    @Test func readsTheIssueExample() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML, file: "demo.yaml")
        #expect(collection.name == "Demo API")
        #expect(collection.variables == [KeyValue("per_page", "20")])
        #expect(collection.environments.map(\.name) == ["local", "production"])
        #expect(collection.environments[1].isProtected)
        #expect(collection.environments[1].secrets == ["token"])
        #expect(collection.environments[0].headers == [KeyValue("Authorization", "Bearer {{token}}")])
        #expect(collection.endpoints.map(\.id) == ["List posts", "Users/Get user", "Users/Create user"])
        let getUser = try collection.endpoint(named: "Get user")
        #expect(getUser.method == .get)
        #expect(getUser.path == "/users/{{user_id}}")
        let create = try collection.endpoint(named: "Users/Create user")
        #expect(create.method == .post)
        #expect(
            create.body
                == .json(
                    .object([(key: "name", value: .string("Ada")), (key: "email", value: .string("ada@example.com"))])))
        #expect(collection.warnings.isEmpty)
    }

    @Test func malformedYAMLReportsFileLineAndColumn() {
        let yaml = "name: x\nendpoints:\n  - name: a\n    path: [unclosed\n"
        #expect {
            try CollectionLoader.parse(yaml, file: "bad.yaml")
        } throws: { error in
            guard let error = error as? CollectionError, case .malformedYAML(let location, _) = error else {
                return false
            }
            return location.file == "bad.yaml" && location.line >= 4
                && error.description.hasPrefix("bad.yaml:\(location.line):\(location.column): ")
        }
    }

    @Test func unknownKeyIsAWarningWithDidYouMean() throws {
        let yaml = """
            name: x
            environments:
              - name: local
                base_url: http://127.0.0.1:1
            endpoints:
              - name: a
                path: /a
                heders: { A: b }
            """
        let collection = try CollectionLoader.parse(yaml, file: "c.yaml")
        #expect(collection.warnings.count == 1)
        let warning = try #require(collection.warnings.first)
        #expect(warning.location.line == 8)
        #expect(warning.location.column == 5)
        #expect(
            warning.description
                == "c.yaml:8:5: warning: unknown key \"heders\" in endpoint \"a\" is ignored; did you mean \"headers\"?"
        )
    }

    @Test func anchorsAndMergeKeysShareHeaders() throws {
        let yaml = """
            name: A
            x-common: &common { Accept: application/json, X-A: "1" }
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: a
                path: /a
                headers:
                  <<: *common
                  X-A: "2"
              - name: b
                path: /b
                headers: *common
            """
        let collection = try CollectionLoader.parse(yaml)
        #expect(collection.warnings.isEmpty)
        #expect(
            try collection.endpoint(named: "a").headers == [
                KeyValue("Accept", "application/json"), KeyValue("X-A", "2"),
            ])
        #expect(
            try collection.endpoint(named: "b").headers == [
                KeyValue("Accept", "application/json"), KeyValue("X-A", "1"),
            ])
    }

    @Test func duplicateEndpointNamesInAFolderAreAnError() {
        let yaml = """
            name: x
            endpoints:
              - name: a
                path: /a
              - name: a
                path: /b
            """
        #expect {
            try CollectionLoader.parse(yaml, file: "c.yaml")
        } throws: { error in
            (error as? CollectionError)
                == .duplicateEndpoint(FileLocation(file: "c.yaml", line: 5, column: 5), id: "a", firstLine: 3)
        }
    }

    @Test func theSameNameInTwoFoldersIsAllowedButAmbiguous() throws {
        let yaml = """
            name: x
            endpoints:
              - folder: A
                endpoints: [{ name: get, path: /a }]
              - folder: B
                endpoints: [{ name: get, path: /b }]
            """
        let collection = try CollectionLoader.parse(yaml)
        #expect(try collection.endpoint(named: "B/get").path == "/b")
        #expect(throws: LookupError.ambiguousEndpoint("get", candidates: ["A/get", "B/get"])) {
            try collection.endpoint(named: "get")
        }
    }

    @Test func missingBaseURLIsAnError() {
        let yaml = "name: x\nenvironments:\n  - name: local\n"
        #expect {
            try CollectionLoader.parse(yaml, file: "c.yaml")
        } throws: { error in
            (error as? CollectionError)?.description
                == "c.yaml:3:5: environment \"local\" has no \"base_url\", which is required."
        }
    }

    @Test func aMissingRequiredKeyNamesTheUnknownKeyThatIsLikelyItsTypo() {
        let yaml = "name: x\nendpoints:\n  - name: List users\n    paht: /users\n    qurey: { page: 1 }\n"
        #expect {
            try CollectionLoader.parse(yaml, file: "c.yaml")
        } throws: { error in
            (error as? CollectionError)?.description
                == "c.yaml:3:5: endpoint \"List users\" has no \"path\", which is required; did you mean \"path\" for \"paht\" (line 4)?"
        }
    }

    @Test func aBaseURLThatIsNotAURLIsAWarningAndARefusalToSend() throws {
        let yaml =
            "name: x\nenvironments:\n  - name: local\n    base_url: not a url\nendpoints: [{ name: p, path: /p }]\n"
        let collection = try CollectionLoader.parse(yaml, file: "c.yaml")
        #expect(collection.warnings.map(\.location.line) == [4])
        #expect(
            collection.warnings.first?.description.hasPrefix(
                "c.yaml:4:15: warning: the base_url of environment \"local\"") == true)
        #expect(
            throws: ResolveError.invalidBaseURL(
                environment: "local", url: "not a url", at: FileLocation(file: "c.yaml", line: 4, column: 15))
        ) {
            try RequestResolver().resolve(try collection.endpoint(named: "p"), in: collection)
        }
    }

    @Test func wrongShapesAreErrorsNotCrashes() {
        let inputs = [
            "- just\n- a list\n",
            "name: x\nendpoints: { a: b }\n",
            "name: x\nendpoints:\n  - name: a\n",
            "name: x\nendpoints:\n  - name: a\n    path: /a\n    json: {}\n    body: x\n",
            "name: x\nendpoints:\n  - name: a\n    method: \"GE T\"\n    path: /a\n",
            "name: x\nenvironments:\n  - name: a\n    base_url: http://h\n    protected: maybe\n",
            "name: x\nenvironments:\n  - name: a\n",
            "name: x\nenvironments: 3\n",
            "name: x\nvariables: [1, 2]\n",
            "\t- broken: [\n",
        ]
        for input in inputs {
            #expect(throws: CollectionError.self) { try CollectionLoader.parse(input) }
        }
    }

    @Test func endpointNotFoundSuggestsCloseNames() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        #expect(throws: LookupError.endpointNotFound("Get usr", suggestions: ["Get user"])) {
            try collection.endpoint(named: "Get usr")
        }
        #expect(try collection.endpoint(named: "users/get user").id == "Users/Get user")
    }

    @Test func environmentLookupListsWhatThereIs() throws {
        let collection = try CollectionLoader.parse(issueExampleYAML)
        #expect(
            throws: LookupError.environmentNotFound(
                "prod", available: ["local", "production"], suggestions: ["production"])
        ) {
            try collection.requireEnvironment(named: "prod")
        }
    }

    @Test func loadsFromAFileAndReadsTheDotEnvBesideIt() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        try directory.write(".env", "# comment\nDEMO_TOKEN=\"from-dotenv\"\n")
        let file = try directory.write("api.yaml", issueExampleYAML)
        let collection = try CollectionLoader.load(from: file)
        #expect(collection.sourceURL == file)
        #expect(collection.environments[0].dotEnv == ["DEMO_TOKEN": "from-dotenv"])
        #expect(throws: CollectionError.self) {
            try CollectionLoader.load(from: directory.url.appendingPathComponent("missing.yaml"))
        }
    }
}
