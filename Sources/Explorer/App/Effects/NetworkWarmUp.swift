import Foundation
import NetworkingCore

#if canImport(Glibc)
import Glibc
#endif

/// Sends one request the way the explorer sends every request (a dispatcher's streaming
/// future on an AsyncHTTPClient transport, the body laid out as it arrives) to a listener of
/// its own on 127.0.0.1, and drops the answer.
///
/// Why: a process's first connection and first response pay for code first run, not for the
/// network: its pages are read in, and every generic type met for the first time is looked up
/// in the conformance records of the whole binary. Measured with `strace -tt` on the demo, the
/// first connection spent 5–9 ms of CPU between `connect` and the request's `write`, which
/// the second request does not pay. Started once the first frame is on the screen, in a task
/// at utility priority, this pays it while the user reads the screen.
///
/// It touches nothing of the session: its own transport (no proxy, so no request ever leaves
/// the machine), no history, no cookies, no event monitors; every failure is ignored.
package enum NetworkWarmUp {
    /// Runs the warm-up; returns when it is done or failed (failures are ignored).
    ///
    /// - Parameter patience: how long the listener waits for the connection and for each read,
    ///   and the request for its answer (a warm-up that takes longer has nothing to win).
    /// - Returns: whether the request had its answer and the answer was laid out.
    @discardableResult
    package static func run(patience: Duration = .seconds(2)) async -> Bool {
        (try? await exercise(patience: patience)) != nil
    }

    /// The warm-up's request and the layout of its answer.
    ///
    /// - Parameter patience: see `run(patience:)`.
    /// - Throws: what went wrong: no listener, the transport's error, an answer that is not the
    ///   listener's.
    package static func exercise(patience: Duration) async throws {
        let milliseconds = Int32(
            clamping: patience.components.seconds * 1000 + patience.components.attoseconds / 1_000_000_000_000_000)
        guard let responder = LoopbackResponder(patience: milliseconds) else { throw Failure.noListener }
        // A thread of its own: it blocks in poll(2), which a shared pool's thread should not.
        Thread { responder.answerOnce() }.start()
        let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let provider = LoopbackProvider(baseURL: URL(string: "http://127.0.0.1:\(responder.port)"))
        let queue = DispatchQueue(label: "explorer.warm-up", qos: .utility)
        let dispatcher = NetworkDispatcher(serverProvider: provider, transport: transport, callbackQueue: queue)
        let live = LiveBodySlot()
        let started = Date()
        // The head and every chunk are handed to `queue` and awaited there before the future
        // finishes: the body is whole when its value arrives.
        let future = dispatcher.streamingFuture(
            from: BasicRequest(path: "/"), options: TransferOptions(timeout: patience),
            head: { head in live.body = LiveBody(head: head, started: started) },
            chunk: { chunk in _ = live.body?.append(chunk, at: Date()) })
        let outcome: Result<Int, any Error>
        do {
            var response = try await future.value
            let frame = live.body?.frame(isComplete: true)
            response.body = frame?.data
            outcome = .success(ResponseSnapshot.make(response, document: frame?.document).status)
        } catch {
            outcome = .failure(error)
        }
        try? await transport.shutdown()
        withExtendedLifetime(provider) {}
        let status = try outcome.get()
        guard status == 200 else { throw Failure.unexpectedStatus(status) }
    }

    /// Why a warm-up did not run its course.
    package enum Failure: Error, Equatable {
        /// No socket could listen on 127.0.0.1.
        case noListener
        /// The answer was not the listener's.
        case unexpectedStatus(Int)
    }

    private final class LoopbackProvider: ServerProvider, Sendable {
        let baseURL: URL?
        init(baseURL: URL?) { self.baseURL = baseURL }
    }
}

/// A listening socket on a free port of 127.0.0.1 that answers its first connection with a
/// small JSON response, then closes.
private final class LoopbackResponder: Sendable {
    let port: Int
    private let listener: Int32
    /// How long it waits for the connection and for each read, in milliseconds.
    private let patience: Int32

    init?(patience: Int32) {
        self.patience = patience
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard listening else {
            close(descriptor)
            return nil
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Answers one connection: reads the request's head (at most 16 KiB), writes the answer,
    /// closes both sockets. Gives up after `patience` without a connection or a byte.
    func answerOnce() {
        defer { close(listener) }
        guard readable(listener) else { return }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return }
        defer { close(connection) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let headEnd: [UInt8] = Array("\r\n\r\n".utf8)
        while !received.ends(with: headEnd), received.count < 16 << 10 {
            guard readable(connection) else { return }
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            received += buffer[0..<count]
        }
        let body = #"{"warm":true}"#
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let answer = Array((head + body).utf8)
        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private func readable(_ descriptor: Int32) -> Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, patience) == 1
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
