import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes raw bytes to 127.0.0.1:port and reads until the peer closes (at most 10 s), on
/// blocking POSIX sockets: for request lines no HTTP client writes (a proxy's absolute form).
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func exchange(port: Int, _ request: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingExchange(port: port, request) })
            }
        }
    }

    private static func blockingExchange(port: Int, _ request: String) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        // 30 s: a proxy under test relays through tasks that a suite running in parallel on two
        // cores has kept waiting past 10 s.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(description: "connect() to \(port) failed") }
        let bytes = Array(request.utf8)
        guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw Failure(description: "send() failed")
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { received += buffer[..<count] } else { break }
            if isComplete(received) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether a response with a `Content-Length` has all its body (the server may keep the
    /// connection open).
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<end.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return text[end.upperBound...].utf8.count >= length
    }
}
