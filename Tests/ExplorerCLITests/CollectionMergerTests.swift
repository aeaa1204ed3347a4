import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import ExplorerCLI
@testable import Formats
@testable import Workspace

@Suite struct CollectionMergerTests {
    @Test func mergingAddsNewEndpointsAndAsksBeforeReplacing() throws {
        let base = try CollectionLoader.parse(issueExampleYAML)
        let imported = try CurlImporter().importCommand(
            "curl -X POST http://127.0.0.1:8080/v1/users -d x", name: "List posts")
        var asked: [String] = []
        let (kept, keptReport) = CollectionMerger.merge(imported.collection, into: base) {
            asked.append($0)
            return false
        }
        #expect(asked == ["List posts"])
        #expect(keptReport.kept == ["List posts"])
        #expect(try kept.endpoint(named: "List posts").method == .get)
        let (replaced, report) = CollectionMerger.merge(imported.collection, into: base) { _ in true }
        #expect(report.replaced == ["List posts"])
        #expect(try replaced.endpoint(named: "List posts").method == .post)
        #expect(replaced.endpoints.count == base.endpoints.count)
    }

    @Test func commentsAreFoundWhereverYAMLHasThem() {
        let commented = [
            "# top\nname: A\n", "name: A # after a value\n", "name: A\n  \t# indented\n", "a: 1\r\n# after CRLF\r\n",
            "#",
        ]
        let plain = ["", "name: A\n", "url: http://x/#fragment\n", "name: \"A#1\"\n", "a: b\n\tc#d\n"]
        for text in commented { #expect(CollectionMerger.hasComments(text), "\(text.debugDescription)") }
        for text in plain { #expect(!CollectionMerger.hasComments(text), "\(text.debugDescription)") }
    }

    @Test func intoCreatesTheFileThenMergesAtomically() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let file = directory.url.appendingPathComponent("api.yaml")
        let first = try CurlImporter().importCommand("curl http://127.0.0.1:9/a")
        try ImportCommand.merge(first.collection, into: file, force: false, ask: nil)
        #expect(try CollectionLoader.load(from: file).endpoints.map(\.id) == ["GET /a"])

        let second = try HTTPFileImporter().importText(
            "GET http://127.0.0.1:9/b\n\n###\nGET http://127.0.0.1:9/a\nX: 1\n")
        // No terminal and no --force: nothing is written.
        #expect(throws: ImportCommand.MergeFailure.self) {
            try ImportCommand.merge(second.collection, into: file, force: false, ask: nil)
        }
        #expect(try CollectionLoader.load(from: file).endpoints.count == 1)
        let report = try ImportCommand.merge(second.collection, into: file, force: true, ask: nil)
        #expect(report.added == ["GET /b"])
        #expect(report.replaced == ["GET /a"])
        let merged = try CollectionLoader.load(from: file)
        #expect(merged.endpoints.map(\.id) == ["GET /a", "GET /b"])
        #expect(try merged.endpoint(named: "GET /a").headers == [KeyValue("X", "1")])
        // No temporary files are left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["api.yaml"])
    }

    @Test func anImportedEnvironmentKeepsItsConnectionSettings() throws {
        let base = try CurlImporter().importCommand("curl http://127.0.0.1:9/a").collection
        let imported = try CollectionLoader.parse(
            """
            name: Imported
            environments:
              - name: staging
                base_url: https://api.example.com
                follow_redirects: false
                proxy_tunnel: true
                allow_insecure_redirects: true
                resolve:
                  "api.example.com:443": 127.0.0.1
            endpoints:
              - name: B
                path: /b
            """)
        let (merged, _) = CollectionMerger.merge(imported, into: base) { _ in false }
        let staging = try #require(merged.environment(named: "staging"))
        #expect(staging.followRedirects == false)
        #expect(staging.proxyTunnel)
        #expect(staging.allowsInsecureRedirects)
        #expect(staging.resolve == [KeyValue("api.example.com:443", "127.0.0.1")])
    }

    @Test func anotherServerUnderATakenNameIsAddedUnderItsHost() throws {
        let base = try CurlImporter().importCommand("curl http://127.0.0.1:9/a").collection
        let other = try CurlImporter().importCommand("curl https://api.example.com/b").collection
        let (merged, report) = CollectionMerger.merge(other, into: base) { _ in false }
        #expect(merged.environments.map(\.name) == ["default", "api.example.com"])
        #expect(report.notes.count == 1)
        let (again, _) = CollectionMerger.merge(base, into: merged) { _ in false }
        #expect(again.environments.count == 2)
    }

    @Test func rewritingKeepsEverythingTheLoaderReads() throws {
        let yaml = """
            name: Kept
            description: the whole API
            variables: { n: "1", flag: "true", empty: "" }
            environments:
              - name: prod
                description: careful
                base_url: https://api.example.com/{{n}}
                protected: true
                headers: { X-Env: e }
                secrets: [token]
                variables: { token: "{{env.TOKEN}}" }
            endpoints:
              - folder: F
                description: a folder
                endpoints:
                  - name: e
                    description: an endpoint
                    method: PUT
                    path: /e
                    query: { a: "1" }
                    json: { n: 1.50, s: "1.50", list: [true, null, "x"] }
                  - name: m
                    method: POST
                    path: /m
                    multipart: { file: "@data.bin", text: hi }
                  - name: f
                    method: POST
                    path: /f
                    form: { a: b }
            """
        let original = try CollectionLoader.parse(yaml)
        let rewritten = try CollectionLoader.parse(try CollectionWriter.yaml(for: original))
        #expect(rewritten.name == original.name && rewritten.description == "the whole API")
        #expect(rewritten.variables == original.variables)
        #expect(rewritten.endpoints == original.endpoints)
        #expect(rewritten.endpoints.first?.description == "an endpoint")
        guard case .folder(let folder) = rewritten.items[0] else {
            Issue.record("no folder")
            return
        }
        #expect(folder.description == "a folder")
        let environment = try #require(rewritten.environments.first)
        #expect(environment.summary == "careful" && environment.isProtected && environment.secrets == ["token"])
        #expect(
            environment.headers == [KeyValue("X-Env", "e")]
                && environment.variables == [KeyValue("token", "{{env.TOKEN}}")])
        #expect(environment.baseURLTemplate == "https://api.example.com/{{n}}")
    }

    @Test func aCurlUnderAnExistingBaseURLBecomesRelativeToIt() throws {
        let base = try CollectionLoader.parse(issueExampleYAML)
        let imported = try CurlImporter().importCommand("curl 'http://127.0.0.1:8080/v1/posts/7?x=1'").collection
        let (merged, report) = CollectionMerger.merge(imported, into: base) { _ in false }
        #expect(merged.environments.count == 2)
        let endpoint = try merged.endpoint(named: "GET /v1/posts/7")
        #expect(endpoint.path == "/posts/7")
        #expect(report.notes.first?.contains("\"local\"") == true)
        let resolved = try RequestResolver(processEnvironment: ["DEMO_TOKEN": "t"]).resolve(endpoint, in: merged)
        #expect(resolved.url == "http://127.0.0.1:8080/v1/posts/7?x=1")
    }

    @Test func addingTopLevelEndpointsKeepsTheFilesComments() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let original = issueExampleYAML.replacingOccurrences(
            of: "  - folder: Users", with: "  # the users\n  - folder: Users")
        let file = try directory.write("api.yaml", original + "\n# trailing note\n")
        let imported = try CurlImporter().importCommand("curl -d x=1 http://127.0.0.1:8080/v1/notes")
        let report = try ImportCommand.merge(imported.collection, into: file, force: false, ask: nil)
        #expect(report.added == ["POST /v1/notes"])
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.hasPrefix(original))
        #expect(text.contains("# the users") && text.contains("# trailing note"))
        let merged = try CollectionLoader.load(from: file)
        #expect(merged.endpoints.map(\.id) == ["List posts", "Users/Get user", "Users/Create user", "POST /v1/notes"])
        #expect(try merged.endpoint(named: "POST /v1/notes").path == "/notes")
    }

    @Test func importsCanGoIntoAFolder() throws {
        let base = try CollectionLoader.parse(issueExampleYAML)
        let imported = try HTTPFileImporter().importFile(at: Fixtures.url("http/github-issues.http")).collection.nested(
            inFolder: "Users")
        let (merged, report) = CollectionMerger.merge(imported, into: base) { _ in false }
        #expect(report.added.allSatisfy { $0.hasPrefix("Users/") })
        #expect(merged.endpoints.filter { $0.folderPath == ["Users"] }.count == 2 + 5)
        #expect(try CollectionLoader.parse(try CollectionWriter.yaml(for: merged)).endpoints == merged.endpoints)
    }

    @Test func anInvalidTargetIsNeverOverwritten() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let file = try directory.write("api.yaml", "name: [broken\n")
        let imported = try CurlImporter().importCommand("curl http://127.0.0.1:9/a")
        #expect(throws: ImportCommand.MergeFailure.self) {
            try ImportCommand.merge(imported.collection, into: file, force: true, ask: nil)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "name: [broken\n")
    }

    @Test func secretsFromTheEnvironmentAreNeverWrittenBack() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        try directory.write(".env", "DEMO_TOKEN=from-dotenv-secret\n")
        let file = try directory.write("api.yaml", issueExampleYAML)
        let imported = try CurlImporter().importCommand("curl http://127.0.0.1:8080/v1/new")
        try ImportCommand.merge(imported.collection, into: file, force: true, ask: nil)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("from-dotenv-secret"))
        #expect(text.contains("{{env.DEMO_TOKEN}}"))
        #expect(try CollectionLoader.load(from: file).endpoints.count == 4)
    }
}
