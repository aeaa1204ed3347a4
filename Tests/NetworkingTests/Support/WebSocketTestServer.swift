import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// A real WebSocket server on 127.0.0.1 (ephemeral port), built on HummingbirdWebSocket:
///
/// - `/echo` greets with the upgrade request's `X-Test` and `Authorization` headers, then echoes
///   text and binary messages; `close CODE REASON` closes with that code, `drop` ends the
///   connection without a close frame, `flood N` sends N numbered messages at once.
/// - `/auth` is the echo behind `Authorization: Bearer t0ken`; other upgrades are refused.
final class WebSocketTestServer: Sendable {
    let port: Int
    private let task: Task<Void, any Error>
    private let group: ServiceGroupBox

    var url: URL { URL(string: "ws://127.0.0.1:\(port)")! }
    /// The wss:// URL of a server started with TLS (its certificate names localhost).
    var secureURL: URL { URL(string: "wss://localhost:\(port)")! }

    private init(port: Int, task: Task<Void, any Error>, group: ServiceGroupBox) {
        self.port = port
        self.task = task
        self.group = group
    }

    /// Starts the server; with `tls`, it answers wss:// only.
    static func start(tls: TLSConfiguration? = nil) async throws -> WebSocketTestServer {
        var logger = Logger(label: "websocket-test-server")
        logger.logLevel = .critical
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let router = Router()
        router.get("/plain") { _, _ in "not a websocket" }
        let upgrade = HTTPServerBuilder.http1WebSocketUpgrade { request, channel, _ in
            let headers = request.headerFields
            let greeting =
                "x-test=\(headers[HTTPField.Name("X-Test")!] ?? "") authorization=\(headers[.authorization] ?? "")"
                + (headers[.cookie].map { " cookie=\($0)" } ?? "")
            switch request.path {
            case "/echo":
                return .upgrade([:]) { inbound, outbound, _ in
                    try await echo(inbound, outbound, greeting: greeting, channel: channel)
                }
            case "/auth" where headers[.authorization] == "Bearer t0ken":
                return .upgrade([:]) { inbound, outbound, _ in
                    try await echo(inbound, outbound, greeting: greeting, channel: channel)
                }
            default:
                return .dontUpgrade
            }
        }
        let application = Application(
            router: router,
            server: try tls.map { try .tls(upgrade, tlsConfiguration: $0) } ?? upgrade,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let box = ServiceGroupBox(application: application, logger: logger)
        let task = Task { try await box.group.run() }
        var ports = portStream.makeAsyncIterator()
        guard let port = await ports.next() else { throw CancellationError() }
        return WebSocketTestServer(port: port, task: task, group: box)
    }

    func stop() async {
        await group.group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    private static func echo(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, greeting: String, channel: any Channel
    ) async throws {
        try await outbound.write(.text(greeting))
        for try await message in inbound.messages(maxSize: 1 << 24) {
            switch message {
            case .binary(let buffer):
                try await outbound.write(.binary(buffer))
            case .text(let text):
                let words = text.split(separator: " ", maxSplits: 2).map(String.init)
                if words.first == "close", words.count >= 2, let code = Int(words[1]) {
                    try await outbound.close(.init(codeNumber: code), reason: words.count > 2 ? words[2] : nil)
                    return
                } else if words.first == "flood", words.count == 2, let count = Int(words[1]) {
                    for number in 1...count { try await outbound.write(.text("message \(number)")) }
                } else if text == "drop" {
                    try await channel.close()
                    return
                } else {
                    try await outbound.write(.text(text))
                }
            }
        }
    }
}

/// The service group running the application.
final class ServiceGroupBox: Sendable {
    let group: ServiceGroup

    init(application: some Service, logger: Logger) {
        group = ServiceGroup(services: [application], gracefulShutdownSignals: [], logger: logger)
    }
}
