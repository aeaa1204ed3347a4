import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Demo
@testable import Formats
@testable import Workspace

/// `explorer export curl` (and the TUI's `c`, which prints the same command) run by the real
/// curl against the demo API: the request that arrives is the one explorer sends, byte for byte.
@Suite struct CurlExportThroughCurlTests {
    /// Runs the exported command with bash and gives the demo API's echo of what curl sent.
    private func echo(of command: String, in directory: URL) async throws -> [String: Any] {
        let output = try await runWithBash(command + " --silent --show-error", in: directory)
        return try #require(
            try JSONSerialization.jsonObject(with: output) as? [String: Any],
            "\(String(decoding: output, as: UTF8.self))")
    }

    private func sentBody(_ echo: [String: Any]) -> Data? {
        if let text = echo["body"] as? String { return Data(text.utf8) }
        return (echo["bodyBase64"] as? String).flatMap { Data(base64Encoded: $0) }
    }

    @Test func emptyHeadersBinaryFilesAndControlCharactersArriveAsExplorerSendsThem() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            Issue.record("/usr/bin/curl is needed for this test")
            return
        }
        let server = try await DemoServer.start(port: 0)
        let port = try #require(server.environments.first).port
        let directory = try TemporaryFolder()
        let binary = Data([0x00, 0x01, 0x27, 0x5C, 0x25, 0x0A, 0x0D, 0xFF, 0xFE, 0x41, 0x00])
        try binary.write(to: directory.url.appendingPathComponent("blob.bin"))
        let file = try directory.write(
            "c.yaml",
            """
            name: x
            environments: [{ name: e, base_url: "http://127.0.0.1:\(port)/v1" }]
            endpoints:
              - name: file
                method: PUT
                path: /echo/file
                headers: { X-Empty: "", X-Quote: "it's $HOME", Content-Type: application/octet-stream }
                body: { file: blob.bin }
              - name: controls
                method: POST
                path: /echo/controls
                headers: { Content-Type: text/plain }
                body: "red \\e[31mtext\\r\\nnext\\ttab \\x01 end"
              - name: at
                method: POST
                path: /echo/at
                body: "@not-a-file"
              - name: multipart
                method: POST
                path: /echo/multipart
                multipart:
                  upload: { file: blob.bin, type: application/octet-stream }
                  note: "a \\"quoted\\" note"
            """)
        let collection = try CollectionLoader.load(from: file)
        let resolver = RequestResolver(processEnvironment: [:])
        defer { directory.cleanUp() }

        let fileRequest = try resolver.resolve(try collection.endpoint(named: "file"), in: collection)
        let fileCommand = CurlExporter.command(for: fileRequest, revealSecrets: true)
        #expect(fileCommand.contains("-H 'X-Empty;'"))
        #expect(fileCommand.contains("--data-binary @\(directory.url.path)/blob.bin"))
        let fileEcho = try await echo(of: fileCommand, in: directory.url)
        let headers = try #require(fileEcho["headers"] as? [String: String])
        #expect(headers["X-Empty"] == "")
        #expect(headers["X-Quote"] == "it's $HOME")
        #expect(fileEcho["method"] as? String == "PUT")
        #expect(sentBody(fileEcho) == binary)

        let controls = try resolver.resolve(try collection.endpoint(named: "controls"), in: collection)
        let controlsCommand = CurlExporter.command(for: controls, revealSecrets: true)
        // Nothing a terminal would act on is in the command itself.
        #expect(!controlsCommand.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(controlsCommand.hasPrefix("printf '"))
        #expect(sentBody(try await echo(of: controlsCommand, in: directory.url)) == controls.request.httpBody)

        let at = try resolver.resolve(try collection.endpoint(named: "at"), in: collection)
        let atCommand = CurlExporter.command(for: at, revealSecrets: true)
        #expect(atCommand.contains("--data-raw @not-a-file"))
        #expect(sentBody(try await echo(of: atCommand, in: directory.url)) == Data("@not-a-file".utf8))

        let multipart = try resolver.resolve(try collection.endpoint(named: "multipart"), in: collection)
        let multipartCommand = CurlExporter.command(for: multipart, revealSecrets: true)
        let multipartEcho = try await echo(of: multipartCommand, in: directory.url)
        #expect(multipartCommand.hasPrefix("printf '\\055-Boundary-"))
        #expect(sentBody(multipartEcho) == multipart.request.httpBody)
        #expect((multipartEcho["form"] as? [String: String])?["note"] == "a \"quoted\" note")
        let files = try #require(multipartEcho["files"] as? [[String: Any]])
        #expect(files.first?["contentBase64"] as? String == binary.base64EncodedString())
        await server.stop()
    }

    @Test func maskedCommandsHideSecretsInTheURLHeadersAndBody() throws {
        let yaml = """
            name: x
            environments:
              - name: e
                base_url: "http://127.0.0.1:9"
                variables: { token: "s3cret-value" }
                secrets: [token]
            endpoints:
              - name: p
                method: POST
                path: /items
                query: { key: "{{token}}" }
                headers: { Authorization: "Bearer {{token}}", X-Empty: "" }
                json: { token: "{{token}}" }
            """
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            try collection.endpoint(named: "p"), in: collection)
        let masked = CurlExporter.command(for: resolved)
        #expect(!masked.contains("s3cret-value"))
        #expect(masked.contains("-H 'X-Empty;'"))
        #expect(CurlExporter.command(for: resolved, revealSecrets: true).contains("s3cret-value"))
    }
}
