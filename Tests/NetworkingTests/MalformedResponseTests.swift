import Foundation
import NIOHTTP1
import Testing

@testable import NetworkingCore

#if canImport(Glibc)
import Glibc
#endif

/// A reply that breaks HTTP/1.1 is reported as what was wrong with it, not as a connection
/// closed early.
@Suite struct MalformedResponseTests {
    private let url = URL(string: "http://127.0.0.1:1/x")!

    @Test(arguments: [
        (HTTPParserError.invalidConstant, MalformedResponse.noStatusLine),
        (.invalidVersion, .unsupportedVersion),
        (.invalidStatus, .invalidStatus),
        (.invalidHeaderToken, .invalidHeaderCharacter),
        (.invalidCharactersUsed, .invalidHeaderCharacter),
        (.lfExpected, .carriageReturnWithoutLineFeed),
        (.headerOverflow, .headersTooLarge(bytes: 80 * 1024, fields: 65_534)),
        (.invalidContentLength, .invalidContentLength),
        (.unexpectedContentLength, .duplicateContentLength),
        (.invalidChunkSize, .invalidChunkSize),
        (.closedConnection, .dataAfterClose),
        (.unknown, .unnamed),
    ])
    func eachParserErrorIsMappedToWhatWasWrong(_ parserError: HTTPParserError, _ problem: MalformedResponse) {
        let mapped = TransportErrorMapping.map(parserError, url: url, redirectLimit: 10) as? TransportError
        #expect(mapped == .malformedResponse(url: url, problem: problem))
    }

    @Test func aReplyCutShortIsStillAConnectionClosedEarly() {
        let mapped =
            TransportErrorMapping.map(HTTPParserError.invalidEOFState, url: url, redirectLimit: 10) as? TransportError
        #expect(mapped == .connectionClosed(url: url))
    }

    @Test func theSentenceNamesTheURLWhatWasWrongAndWhoMustFixIt() {
        let error = TransportError.malformedResponse(url: url, problem: .invalidChunkSize)
        #expect(
            error.description
                == "The response from http://127.0.0.1:1/x is not valid HTTP/1.1: a chunk of its chunked body does not "
                + "start with a hexadecimal size; the server, or a proxy in between, needs fixing.")
    }

    @Test(arguments: [
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
            MalformedResponse.invalidChunkSize
        ),
        ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nokk", .duplicateContentLength),
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 7\r\n\r\n2\r\nok\r\n0\r\n\r\n",
            .invalidContentLength
        ),
        ("HTTP/1.1 200 OK\nContent-Length: 2\n\nok", .unnamed),
        ("HTTP/1.1 1 Odd\r\nContent-Length: 2\r\n\r\nok", .invalidStatus),
        ("hello from HTTP/0.9\n", .noStatusLine),
        ("HTTP/1.1 200 OK\r\nX-Bad: a\u{0}b\r\nContent-Length: 2\r\n\r\nok", .invalidHeaderCharacter),
        (
            "HTTP/1.1 200 OK\r\nX-Huge: \(String(repeating: "a", count: 1 << 20))\r\nContent-Length: 2\r\n\r\nok",
            .headersTooLarge(bytes: 80 * 1024, fields: 65_534)
        ),
    ])
    func aRealServersMalformedReplyFailsWithWhatWasWrong(_ reply: String, _ problem: MalformedResponse) async throws {
        let server = try RawReplyServer(reply: reply)
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        defer { Task { try? await transport.shutdown() } }
        let target = URL(string: "http://127.0.0.1:\(server.port)/reply")!

        let error = await #expect(throws: TransportError.self) {
            try await transport.send(PreparedRequest(url: target), options: TransferOptions()) { _ in }
        }
        #expect(error == .malformedResponse(url: target, problem: problem))
    }
}

/// A server on 127.0.0.1 that answers every connection with the same raw bytes, read request
/// or not, then closes it: for replies no HTTP library would write.
final class RawReplyServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    convenience init(reply: String) throws {
        try self.init(bytes: Array(reply.utf8))
    }

    init(bytes: [UInt8]) throws {
        let (listener, port) = try BlockingByteServer.listening(backlog: 8)
        self.listener = listener
        self.port = port
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                var request = [UInt8](repeating: 0, count: 4096)
                _ = recv(connection, &request, request.count, 0)
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBufferPointer {
                        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    guard written > 0 else { break }
                    offset += written
                }
                shutdown(connection, Int32(SHUT_WR))
                // Read until the client closes, so the reply is not cut by a reset.
                var timeout = timeval(tv_sec: 5, tv_usec: 0)
                setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                while recv(connection, &request, request.count, 0) > 0 {}
                close(connection)
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
