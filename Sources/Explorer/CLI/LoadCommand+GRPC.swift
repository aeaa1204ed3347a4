import ArgumentParser
import Foundation
import GRPCSupport
import History
import Measure
import NetworkingCore
import NetworkingGRPC
import Workspace

extension LoadCommand {
    /// A load on a unary gRPC method: the messages encoded once, every call on one dispatcher
    /// (its HTTP/2 connection multiplexes the calls in flight), each call's messages read to
    /// the end; statuses counted by name.
    ///
    /// - Throws: `ExitCode` 2 for a method that is not unary or a schema error, 1 when no call
    ///   ended with a status.
    func runGRPC(_ resolved: ResolvedRequest, collection: APICollection, collectionFile: URL) async throws {
        let plan: GRPCCallPlan
        do {
            plan = try GRPCCallPlan(resolved, collectionFile: collectionFile)
        } catch {
            throw ExchangeSender.usageError(String(describing: error))
        }
        let (dispatcher, server) = plan.dispatcher()
        let masker = resolved.masker
        let exchange: GRPCExchange
        let requests: [[UInt8]]
        do {
            exchange = try await GRPCCaller.schemas.exchange(
                method: plan.method, files: collection.grpcSchema, folder: collectionFile.deletingLastPathComponent(),
                dispatcher: dispatcher, server: plan.server.absoluteString)
            requests = try exchange.encode(plan.messages)
        } catch {
            await dispatcher.shutdown()
            printError(masker.mask(String(describing: error)))
            throw ExitCode(2)
        }
        guard exchange.method.kind == .unary else {
            await dispatcher.shutdown()
            throw ExchangeSender.usageError(
                "\"\(resolved.endpoint.id)\" is a \(exchange.method.kind.rawValue) method: explorer load calls unary "
                    + "methods only.")
        }
        // The endpoint's deadline and message size, as `send` calls it; `--timeout` wins.
        var callOptions = plan.callOptions
        if let timeout = idleTimeout.timeout { callOptions.timeout = .milliseconds(Int(timeout * 1000)) }
        let options = callOptions
        let metadata = plan.metadata
        let send: @Sendable () async -> LoadOutcome = {
            do {
                let outcome = try await exchange.call(
                    requests, metadata: metadata, through: dispatcher, options: options, keepingBytes: 0)
                return .response(status: outcome.status.code, bytes: outcome.messageBytes)
            } catch {
                return .failure(kind: Self.failureKind(error), sentence: sentence(describing: error))
            }
        }
        let bar = LoadProgressBar(live: isatty(STDERR_FILENO) == 1)
        let draw: @Sendable (LoadProgress) -> Void = { bar.draw($0) }
        let startedAt = Date()
        // No more workers than loops: each on a loop, calling through a connection of its own
        // loop, so that a call's answer resumes its worker on the thread that read it. More share
        // one connection from the global executor (`GRPCDispatcher.executors`).
        let executors = LoadRunner.workerExecutors(concurrency: self.plan.concurrency, loops: dispatcher.executors)
        var result = await LoadRunner.run(
            self.plan, progress: bar.live ? draw : nil, executors: executors, send: send)
        bar.clear()
        await dispatcher.shutdown()
        withExtendedLifetime(server) {}
        result.statusName = { GRPCStatus.name(of: $0) }
        try report(
            result, resolved: resolved, collection: collection, startedAt: startedAt,
            head: "gRPC \(exchange.method.serviceName)/\(exchange.method.name) \(resolved.maskedURL)")
    }

    /// The kind a failed call is counted under.
    static func failureKind(_ error: any Error) -> String {
        if let transport = error as? TransportError { return LoadOutcome.kind(of: transport) }
        return "grpc"
    }
}
