import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Demo
@testable import Formats
@testable import Workspace

/// `explorer import curl` with `-b FILE` (a Netscape cookie file), `-b NAME=VALUE` and `-c FILE`:
/// the Cookie header curl would send, checked against curl itself.
@Suite struct CurlCookieImportTests {
    let directory = Fixtures.url("curl")
    let command = "curl -b data/cookies.txt -b extra=1 http://127.0.0.1:PORT/v1/echo/x"

    @Test func aCookieFileGivesTheCookiesCurlSendsToThatURLInCurlsOrder() throws {
        let parsed = try CurlImporter(baseDirectory: directory).parse(
            command.replacingOccurrences(of: "PORT", with: "8080"))
        #expect(parsed.headers == [KeyValue("Cookie", "deep=path-cookie; secure_only=s; session=from-file; extra=1")])
        #expect(parsed.warnings.isEmpty)

        let elsewhere = try CurlImporter(baseDirectory: directory).parse(
            "curl -b data/cookies.txt https://api.example.com/other")
        #expect(elsewhere.headers == [KeyValue("Cookie", "elsewhere=other-site")])
    }

    @Test func aMissingFileABadLineAndCookieJarAreWarnings() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let folder = directory.url
        try "127.0.0.1\tFALSE\t/\tFALSE\t0\tgood\t1\nnot a cookie line\n127.0.0.1\tFALSE\t/\tFALSE\tsoon\tbad\t2\n"
            .write(to: folder.appendingPathComponent("jar.txt"), atomically: true, encoding: .utf8)

        let parsed = try CurlImporter(baseDirectory: folder).parse(
            "curl -b jar.txt -b missing.txt -c out.txt http://127.0.0.1:1/")

        #expect(parsed.headers == [KeyValue("Cookie", "good=1")])
        let path = folder.appendingPathComponent("jar.txt").path
        #expect(
            parsed.warnings.contains(
                "\(path):2: 1 tab-separated fields where a cookie has 7 (domain, subdomains, path, secure, expires, name, value); that line was left out."
            ))
        #expect(
            parsed.warnings.contains(
                "\(path):3: the expiry \"soon\" is not a number of seconds since 1970; that line was left out."))
        #expect(
            parsed.warnings.contains(
                "-b missing.txt cannot be read, so no cookies come from it (curl sends none from it either)."))
        #expect(
            parsed.warnings.contains {
                $0.hasPrefix(
                    "-c out.txt is not needed: the cookies servers set are kept in the environment's cookie jar")
            })
    }

    @Test func theImportedEndpointSendsTheSameCookiesAsCurlItself() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            Issue.record("/usr/bin/curl is needed for this comparison")
            return
        }
        let server = try await DemoServer.start(port: 0)
        let port = try #require(server.environments.first).port
        let transport = AsyncHTTPClientTransport()
        do {
            let line = command.replacingOccurrences(of: "PORT", with: "\(port)")
            let byCurl = try EchoedRequest(try await runWithBash(line + " -s", in: directory))
            #expect(byCurl.headers["cookie"] == "deep=path-cookie; secure_only=s; session=from-file; extra=1")

            let imported = try CurlImporter(baseDirectory: directory).importCommand(line)
            let collection = try writtenAndReadBack(imported.collection)
            let environment = try #require(collection.environments.first)
            let resolved = try RequestResolver(processEnvironment: [:]).resolve(
                try #require(collection.endpoints.first), in: collection, environment: environment)
            let response = try await NetworkDispatcher(serverProvider: environment, transport: transport).future(
                from: resolved.request
            ).value
            #expect(try EchoedRequest(try #require(response.body)) == byCurl)
        } catch {
            Issue.record(error)
        }
        try await transport.shutdown()
        await server.stop()
    }
}
