import Foundation
import Hummingbird
import Logging
import NetworkingCore
import Synchronization
import TestSupport

/// A real HTTP server on 127.0.0.1 (an ephemeral port) that answers after known delays, for
/// the load's percentiles to be checked against:
///
/// - `GET /fixed/MS`: every answer after MS milliseconds;
/// - `GET /bimodal/FAST/SLOW`: nine answers in ten after FAST ms, every tenth after SLOW ms
///   (counted over the requests the server got, so exactly a tenth are slow);
/// - `GET /stall/N/MS`: the Nth request (from 0) of every hundred waits MS ms, the others
///   answer at once.
final class DelayServer: Sendable {
    let port: Int
    private let task: Task<Void, any Error>
    private let listener: ServerListener

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(port: Int, task: Task<Void, any Error>, listener: ServerListener) {
        self.port = port
        self.task = task
        self.listener = listener
    }

    static func start() async throws -> DelayServer {
        let bimodalCount = Counter()
        let stallCount = Counter()
        let router = Router()
        router.get("fixed/:ms") { _, context -> String in
            let ms = context.parameters.get("ms", as: Int.self) ?? 0
            try await Task.sleep(for: .milliseconds(ms))
            return #"{"waited":\#(ms)}"#
        }
        router.get("bimodal/:fast/:slow") { _, context -> String in
            let index = bimodalCount.next()
            let ms =
                index % 10 == 9
                ? context.parameters.get("slow", as: Int.self) ?? 0 : context.parameters.get("fast", as: Int.self) ?? 0
            try await Task.sleep(for: .milliseconds(ms))
            return #"{"waited":\#(ms)}"#
        }
        router.get("stall/:n/:ms") { _, context -> String in
            let index = stallCount.next()
            let ms =
                index % 100 == (context.parameters.get("n", as: Int.self) ?? 0)
                ? context.parameters.get("ms", as: Int.self) ?? 0 : 0
            if ms > 0 { try await Task.sleep(for: .milliseconds(ms)) }
            return #"{"waited":\#(ms)}"#
        }
        router.get("status/:code") { _, context -> Response in
            Response(status: .init(code: context.parameters.get("code", as: Int.self) ?? 200))
        }
        let listener = ServerListener()
        // Stopping by cancellation logs the connections it cuts: nothing a test reads.
        var logger = Logger(label: "delay-server")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: listener.running,
            logger: logger)
        let task = listener.run(app)
        guard let port = await listener.port() else { throw TransportError.other("the delay server did not start") }
        return DelayServer(port: port, task: task, listener: listener)
    }

    func stop() async {
        await listener.stop(task)
        _ = try? await task.value
    }

    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
    }
}

/// The server provider a test's dispatcher sends to.
final class FixedServer: ServerProvider, @unchecked Sendable {
    let baseURL: URL?
    init(_ url: URL) { baseURL = url }
}
