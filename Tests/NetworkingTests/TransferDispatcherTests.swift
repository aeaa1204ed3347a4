import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// PiuPiu 2's `DownloadDispatcher` and `UploadDispatcher`, as `URLRequestDispatcher` implements
/// them, against the real test server.
@Suite struct TransferDispatcherTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "networking-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aDownloadWritesTheBodyToTheDestinationAndGivesItsURL() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("big.bin")
        try Data("old content".utf8).write(to: destination)
        let dispatcher: any DownloadDispatcher = URLRequestDispatcher(transport: sharedTransport)

        let url = server.baseURL.appendingPathComponent("bytes/3000000")
        let response = try await dispatcher.download(from: URLRequest(url: url, method: .get), to: destination)

        #expect(try response.ensureValidResponse().body == destination)
        let written = try Data(contentsOf: destination)
        #expect(written.count == 3_000_000 && written.allSatisfy { $0 == UInt8(ascii: "a") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["big.bin"])
    }

    @Test func aFailedDownloadLeavesTheDestinationAsItWasAndNoPartialFile() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("kept.txt")
        try Data("kept".utf8).write(to: destination)
        let dispatcher = URLRequestDispatcher(transport: sharedTransport)

        // The server promises 1000 bytes, sends 100 and closes.
        let url = server.baseURL.appendingPathComponent("close-mid-body")
        await #expect(throws: TransportError.self) {
            _ = try await dispatcher.download(from: URLRequest(url: url, method: .get), to: destination)
        }
        #expect(try Data(contentsOf: destination) == Data("kept".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["kept.txt"])
    }

    @Test func aDownloadOfAnErrorStatusKeepsTheErrorPageAndSetsTheError() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("page.json")

        let url = server.baseURL.appendingPathComponent("status/404")
        let response = try await URLRequestDispatcher(transport: sharedTransport).download(
            from: URLRequest(url: url, method: .get), to: destination)

        #expect(response.statusCode == .notFound)
        #expect(response.error?.status == .notFound)
        #expect(FileManager.default.fileExists(atPath: destination.path))
        #expect(throws: HTTPError.self) { try response.ensureValidResponse() }
    }

    @Test func anUploadSendsTheDataAsTheBodyThroughTheAdapters() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let adapter = AnyRequestAdapter { request in
            var request = request
            request.headers["X-Adapted"] = "yes"
            return request
        }
        let dispatcher: any UploadDispatcher = URLRequestDispatcher(
            transport: sharedTransport, requestAdapters: [adapter])
        var request = URLRequest(url: server.baseURL.appendingPathComponent("echo/upload"), method: .put)
        request.httpBody = Data("replaced".utf8)
        let bytes = Data([0x00, 0x01, 0x02, 0xFF, 0x0D, 0x0A])

        let response = try await dispatcher.upload(for: request, from: bytes)

        let echo = try await response.ensureValidResponse().ensureDecoded(Echo.self).body
        #expect(echo.method == "PUT")
        #expect(Data(base64Encoded: echo.bodyBase64) == bytes)
        #expect(echo.header("X-Adapted") == "yes")
        #expect(echo.header("Content-Length") == "6")
    }
}
