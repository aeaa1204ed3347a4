import CompressNIO
import Foundation
import NIOCore
import Testing

@testable import NetworkingCore

/// Answers that used to say nothing of what happened to them: a gzip body cut short, the last
/// event of a stream without its blank line, a redirect not followed because of where it
/// points, a status code no RFC names.
@Suite struct SilentAnswersTests {
    private let url = URL(string: "http://127.0.0.1:1/body")!

    private static let text = Data(
        (0..<2000).map { "line \($0) of a body that is cut in the middle of its gzip stream\n" }.joined().utf8)

    private static func gzip(_ data: Data) throws -> [UInt8] {
        var input = ByteBuffer(bytes: data)
        let compressed = try input.compress(with: .gzip())
        return Array(compressed.readableBytesView)
    }

    private func decoded(_ bytes: [UInt8], pieceSize: Int = 1000) throws -> Data {
        var decoder = try BodyDecoder(url: url, contentEncoding: "gzip", decompress: true, limits: .init())
        var output = Data()
        for start in stride(from: 0, to: bytes.count, by: pieceSize) {
            decoder.feed(ByteBuffer(bytes: bytes[start..<min(bytes.count, start + pieceSize)]))
            while let piece = try decoder.next() { output.append(piece) }
        }
        while let piece = try decoder.finish() { output.append(piece) }
        return output
    }

    @Test func aWholeGzipBodyEndsWithoutAnError() throws {
        #expect(try decoded(Self.gzip(Self.text)) == Self.text)
        #expect(try decoded(Self.gzip(Self.text), pieceSize: 7) == Self.text)
    }

    @Test func aGzipBodyCutShortFailsAfterWhatInflatedSaysItWasCut() throws {
        let whole = try Self.gzip(Self.text)
        let cut = Array(whole.prefix(whole.count / 2))

        #expect(
            throws: TransportError.decompressionFailed(
                url: url, reason: "the gzip data stops before the end of its stream, so the body was cut short")
        ) {
            try decoded(cut)
        }
    }

    @Test func aGzipBodyCutShortFailsThroughTheTransportAndItsStream() async throws {
        let whole = try Self.gzip(Self.text)
        let cut = Array(whole.prefix(whole.count / 2))
        let head = "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(cut.count)\r\n\r\n"
        let server = try RawReplyServer(bytes: Array(head.utf8) + cut)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        defer { Task { try? await transport.shutdown() } }
        let target = URL(string: "http://127.0.0.1:\(server.port)/cut")!
        let expected = TransportError.decompressionFailed(
            url: target, reason: "the gzip data stops before the end of its stream, so the body was cut short")

        await #expect(throws: expected) {
            try await transport.send(PreparedRequest(url: target), options: TransferOptions()) { _ in }
        }
        let streamed = try await transport.stream(PreparedRequest(url: target), options: TransferOptions())
        var received = Data()
        await #expect(throws: expected) {
            for try await chunk in streamed.body { received.append(chunk) }
        }
        #expect(received.starts(with: Data("line 0 of a body".utf8)))
    }

    @Test func theLastEventWithoutItsBlankLineIsGivenByFinish() {
        var parser = ServerSentEventParser()

        let dispatched = parser.consume(Array("data: first\n\nid: 7\ndata: last".utf8))

        #expect(dispatched.map(\.data) == ["first"])
        let unfinished = parser.finish()
        #expect(unfinished?.data == "last")
        #expect(unfinished?.id == "7")
        #expect(parser.finish() == nil)
    }

    @Test func aStreamThatEndsBetweenEventsHasNothingUnfinished() {
        var parser = ServerSentEventParser()

        _ = parser.consume(Array("data: only\n\n: a comment\n".utf8))

        #expect(parser.finish() == nil)
    }

    @Test(arguments: [
        ("file:///etc/passwd", "file"), ("gopher://127.0.0.1/", "gopher"), ("javascript:alert(1)", "javascript"),
    ])
    func aRedirectToAnotherSchemeIsNamedWithItsScheme(_ location: String, _ scheme: String) throws {
        let unfollowed = try #require(UnfollowedRedirect(status: .found, headers: ["Location": location], url: url))

        #expect(unfollowed.reason == .unsupportedScheme(scheme))
        #expect(
            unfollowed.description
                == "http://127.0.0.1:1/body redirected (302) to \(location), which was not followed: "
                + "only http and https redirects are followed, and this one is to \(scheme):; the redirect itself is the response."
        )
    }

    @Test func aRedirectTheTransportFollowsIsNoUnfollowedRedirect() {
        #expect(UnfollowedRedirect(status: .found, headers: ["Location": "/next"], url: url) == nil)
        #expect(
            UnfollowedRedirect(status: .temporaryRedirect, headers: ["Location": "https://example.com/"], url: url)
                == nil)
        #expect(UnfollowedRedirect(status: .ok, headers: ["Location": "file:///etc/passwd"], url: url) == nil)
        #expect(UnfollowedRedirect(status: .found, headers: [:], url: url) == nil)
    }

    @Test func aRedirectToAURLWithoutAHostIsUnreadable() {
        #expect(
            UnfollowedRedirect(status: .movedPermanently, headers: ["Location": "http://"], url: url)?.reason
                == .unreadableLocation)
    }

    @Test func onlyACodeAnRFCNamesHasANamedReasonPhrase() {
        #expect(HTTPStatus(code: 404).namedReasonPhrase == "Not Found")
        #expect(HTTPStatus(code: 299).namedReasonPhrase == nil)
        #expect(HTTPStatus(code: 999).namedReasonPhrase == nil)
        #expect(HTTPStatus(code: 999).reasonPhrase == "Unknown Status")
    }
}
