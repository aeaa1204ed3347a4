import Foundation
import GRPCSupport
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import Synchronization
import Workspace

/// A call's log, shared between the task that runs the call and the callback each message
/// arrives through (and, for an open call, the messages typed in).
final class GRPCLiveLog: Sendable {
    let log: Mutex<GRPCLog>

    init(_ log: GRPCLog) { self.log = Mutex(log) }
}

/// An open bidirectional call: what sends on it and where what it sends is shown.
struct GRPCStream: Sendable {
    let call: GRPCCall
    let exchange: GRPCExchange
    let resolved: ResolvedRequest
    let log: GRPCLiveLog
}

/// The open bidirectional gRPC calls of the TUI, by exchange id.
final class GRPCStreams: Sendable {
    private let streams = Mutex<[Int: GRPCStream]>([:])

    func add(_ id: Int, _ stream: GRPCStream) { streams.withLock { $0[id] = stream } }

    func remove(_ id: Int) { _ = streams.withLock { $0.removeValue(forKey: id) } }

    func stream(_ id: Int) -> GRPCStream? { streams.withLock { $0[id] } }
}

extension ExchangeSending {
    /// Calls a gRPC endpoint as exchange `id`: its schema (read once per server and collection
    /// files in the session, `GRPCSchemaCache`) reads the messages, which are encoded before
    /// anything is sent; a stream's messages are shown as they arrive (`streamed`), the status
    /// completes the exchange (`received`). A cancel (`ExchangeTasks`) resets the call's stream.
    ///
    /// A method the schema does not have, a message that does not match its type, or no
    /// schema at all is one sentence (`resolveFailed`), and nothing is sent.
    func callGRPC(
        _ id: Int, _ resolved: ResolvedRequest, collection: APICollection,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        let masker = resolved.masker
        let collectionFile = collectionPath.map { URL(fileURLWithPath: $0) }
        let plan: GRPCCallPlan
        do {
            plan = try GRPCCallPlan(resolved, collectionFile: collectionFile)
        } catch {
            send(.resolveFailed(exchange: id, masker.mask(String(describing: error))))
            return
        }
        let folder =
            collectionFile?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let files = collection.grpcSchema
        let schemas = grpcSchemas
        let streams = grpcStreams
        let tasks = self.tasks
        let task = Task {
            let (dispatcher, server) = plan.dispatcher()
            let serverText = server.baseURL?.absoluteString ?? plan.server.absoluteString
            let exchange: GRPCExchange
            let requests: [[UInt8]]
            do {
                exchange = try await schemas.exchange(
                    method: plan.method, files: files, folder: folder, dispatcher: dispatcher, server: serverText)
                requests = try exchange.encode(plan.messages)
            } catch {
                await dispatcher.shutdown()
                guard !Task.isCancelled else { return }
                tasks.done(.exchange(id))
                send(.resolveFailed(exchange: id, "Not sent: " + masker.mask(Self.grpcSentence(error))))
                return
            }
            if exchange.method.kind == .bidirectionalStreaming {
                return await Self.converse(
                    id, exchange, requests: requests, plan: plan, resolved: resolved, dispatcher: dispatcher,
                    streams: streams, tasks: tasks, send: send)
            }
            let live = GRPCLiveLog(GRPCLog(method: plan.method, kind: exchange.method.kind, startedAt: Date()))
            if exchange.method.kind.serverStreams {
                send(.streamed(exchange: id, live.log.withLock { $0.snapshot() }))
            }
            let outcome: GRPCOutcome
            do {
                outcome = try await exchange.call(
                    requests, metadata: plan.metadata, through: dispatcher, options: plan.callOptions
                ) { message in
                    let snapshot = live.log.withLock { log -> ResponseSnapshot? in
                        log.append(message)
                        return log.showsEvents ? log.snapshot() : nil
                    }
                    if let snapshot { send(.streamed(exchange: id, snapshot)) }
                }
            } catch {
                await dispatcher.shutdown()
                guard !Task.isCancelled else { return }
                tasks.done(.exchange(id))
                let snapshot = live.log.withLock { $0.entries.isEmpty ? nil : $0.snapshot() }
                if let snapshot { send(.streamed(exchange: id, snapshot)) }
                send(.failed(exchange: id, TransportFailure(grpc: error, masker: masker)))
                return
            }
            withExtendedLifetime(server) {}
            await dispatcher.shutdown()
            // A cancel ends the events early; the exchange shows it was cancelled.
            guard !Task.isCancelled else { return }
            tasks.done(.exchange(id))
            let log = live.log.withLock { log in
                log.complete(outcome)
                return log
            }
            Self.completeGRPC(id, log: log, outcome: outcome, resolved: resolved, send: send)
        }
        tasks.started(.exchange(id), task)
    }

    /// Runs a bidirectional call that stays open: the endpoint's messages go first, then each
    /// message typed on the message line (`performGRPC`); Esc half-closes it, and the server's
    /// status ends it. Each message either way shows as it goes.
    private static func converse(
        _ id: Int, _ exchange: GRPCExchange, requests: [[UInt8]], plan: GRPCCallPlan, resolved: ResolvedRequest,
        dispatcher: GRPCDispatcher, streams: GRPCStreams, tasks: ExchangeTasks,
        send: @escaping @Sendable (AppAction) -> Void
    ) async {
        let masker = resolved.masker
        var opened = GRPCLog(method: plan.method, kind: exchange.method.kind, startedAt: Date())
        opened.isInteractive = true
        let live = GRPCLiveLog(opened)
        let call = dispatcher.open(exchange.method.path, metadata: plan.metadata, options: plan.callOptions)
        streams.add(id, GRPCStream(call: call, exchange: exchange, resolved: resolved, log: live))
        defer { streams.remove(id) }
        send(.webSocketOpened(exchange: id))
        send(.streamed(exchange: id, live.log.withLock { $0.snapshot() }))
        do {
            for (request, json) in zip(requests, plan.messages) {
                try await call.send(request)
                live.log.withLock { $0.appendSent(json, size: request.count, at: Date()) }
            }
            send(.streamed(exchange: id, live.log.withLock { $0.snapshot() }))
            for try await event in call.events {
                let now = Date()
                switch event {
                case .headers(let headers):
                    live.log.withLock { $0.receivedHeaders(headers, at: now) }
                case .message(let bytes):
                    let json = try exchange.schema.schema.decode(bytes, as: exchange.method.outputType)
                    let snapshot = live.log.withLock { log in
                        log.appendReceived(json, size: bytes.count, at: now)
                        return log.snapshot()
                    }
                    send(.streamed(exchange: id, snapshot))
                case .end(let status, let trailers):
                    let details = status.details.flatMap { exchange.schema.schema.decodeStatusDetails($0) }
                    live.log.withLock { $0.end(status, trailers: trailers, details: details, at: now) }
                }
            }
        } catch {
            call.cancel()
            await dispatcher.shutdown()
            guard !Task.isCancelled else { return }
            tasks.done(.exchange(id))
            send(.streamed(exchange: id, live.log.withLock { $0.snapshot() }))
            send(.failed(exchange: id, TransportFailure(grpc: error, masker: masker)))
            return
        }
        await dispatcher.shutdown()
        guard !Task.isCancelled else { return }
        tasks.done(.exchange(id))
        let ended = live.log.withLock { $0 }
        send(.received(exchange: id, ended.snapshot()))
        let status = ended.status ?? .ok
        let count = ended.receivedCount
        send(
            .message(
                masker.mask("\(ended.method): \(status) · \(count == 1 ? "1 message" : "\(count) messages")"),
                isError: !status.isOK))
    }

    /// Whether exchange `id` is an open bidirectional gRPC call (the WebSocket message line
    /// sends on it).
    func isOpenGRPCCall(_ id: Int) -> Bool { grpcStreams.stream(id) != nil }

    /// Sends the messages typed on the message line (JSON objects, one after another,
    /// templates resolved in the call's environment) on the open call of exchange `id`, or
    /// half-closes it (Esc, `close`). gRPC has no ping: `P` says so.
    func performGRPC(_ id: Int, _ command: WebSocketCommand, send: @escaping @Sendable (AppAction) -> Void) {
        guard let stream = grpcStreams.stream(id) else {
            send(.message("The gRPC call has ended; Enter on the endpoint calls it again.", isError: true))
            return
        }
        let masker = stream.resolved.masker
        switch command {
        case .ping:
            send(.message("gRPC has no ping: t types a message, Esc ends the messages sent.", isError: false))
        case .close:
            stream.call.finish()
            send(.message("No more messages: the server ends the call when it is done.", isError: false))
        case .send(let template):
            Task {
                do {
                    let messages = try GRPCMessageInput.messages(in: try stream.resolved.expand(template))
                    let encoded = try stream.exchange.encode(messages)
                    for (request, json) in zip(encoded, messages) {
                        try await stream.call.send(request)
                        let snapshot = stream.log.log.withLock { log in
                            log.appendSent(json, size: request.count, at: Date())
                            return log.snapshot()
                        }
                        send(.streamed(exchange: id, snapshot))
                    }
                } catch {
                    send(.message("Not sent: " + masker.mask(Self.grpcSentence(error)), isError: true))
                }
            }
        }
    }

    /// Shows a call that ended with a status: the response, and a line saying how it ended.
    ///
    /// Where a complete call is handed on: checks and history of gRPC calls start from here,
    /// with the outcome and the resolved request.
    static func completeGRPC(
        _ id: Int, log: GRPCLog, outcome: GRPCOutcome, resolved: ResolvedRequest,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        send(.received(exchange: id, log.snapshot()))
        let count = outcome.messageCount
        let messages = count == 1 ? "1 message" : "\(count) messages"
        send(
            .message(
                resolved.masker.mask("\(log.method): \(outcome.status) · \(messages)"), isError: !outcome.status.isOK))
    }

    /// One sentence for what stops a call before it is sent.
    static func grpcSentence(_ error: any Error) -> String {
        switch error {
        case let error as GRPCSchemaError: error.description
        case let error as GRPCExchangeError: error.description
        case let error as ProtoCodecError: error.description
        default: sentence(describing: error)
        }
    }
}

extension TransportFailure {
    /// Reads what stopped a gRPC call before its status: the transport's failure, or an
    /// answer that does not read as its method's message.
    init(grpc error: any Error, masker: SecretMasker) {
        if error is TransportError {
            self.init(error)
            return
        }
        if error is ProtoCodecError {
            self.init(
                category: "gRPC message", message: masker.mask(String(describing: error)),
                hint: "the server's answer does not read as the method's message type: is the schema the server's?")
            return
        }
        self.init(category: "gRPC", message: masker.mask(sentence(describing: error)), hint: nil)
    }
}
