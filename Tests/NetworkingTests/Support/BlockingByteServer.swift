import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A one-connection HTTP/1.1 server on 127.0.0.1 written on blocking POSIX sockets: it answers
/// the first request with `size` bytes and counts what the kernel accepted (`send` blocks while
/// the socket buffer is full), so the count is what really left the server, unlike an event
/// loop's writer that may queue writes the client has not taken.
final class BlockingByteServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let sent = Locked64()

    /// Bytes of body the kernel has accepted so far.
    var bytesSent: Int { Int(sent.get()) }

    init(size: Int) throws {
        let (listener, port) = try Self.listening(backlog: 1)
        self.listener = listener
        self.port = port
        let sent = self.sent
        Thread.detachNewThread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = recv(connection, &request, request.count, 0)
            let head = Array(
                "HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            _ = send(connection, head, head.count, Int32(MSG_NOSIGNAL))
            let chunk = [UInt8](repeating: UInt8(ascii: "b"), count: 256 * 1024)
            var left = size
            while left > 0 {
                let written = send(connection, chunk, min(left, chunk.count), Int32(MSG_NOSIGNAL))
                guard written > 0 else { return }
                left -= written
                sent.set(sent.get() + Int64(written))
            }
        }
    }

    deinit { close(listener) }
}

extension BlockingByteServer {
    /// A blocking TCP socket listening on a free port of 127.0.0.1, and that port: what the
    /// raw-socket test servers accept on.
    ///
    /// - Parameter backlog: how many connections may wait to be accepted.
    /// - Throws: `POSIXError` when no port can be bound.
    static func listening(backlog: Int32) throws -> (descriptor: Int32, port: Int) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, backlog) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}
