import Foundation
import GRPCCore
import GRPCProtobuf
import ServiceLifecycle
import SwiftProtobuf

/// The demo's gRPC service, `explorer.demo.v1.Directory` (see `demo.proto`): the users and posts
/// of one environment, shared with its HTTP API, through every kind of call.
///
/// Registered by hand on a grpc-swift `RPCRouter` (no generated service code): each method is a
/// `MethodDescriptor` and a handler over the generated messages.
struct DemoDirectoryService: RegistrableRPCService {
    /// The service's full name, as `demo.proto` declares it.
    static let serviceName = "explorer.demo.v1.Directory"
    /// The method names, in the order of `demo.proto`.
    static let methodNames = ["GetUser", "StreamPosts", "TallyReactions", "Chat", "CreateUser", "Heartbeat"]
    /// How often `Heartbeat` ticks.
    static let heartbeatPeriod = Duration.milliseconds(200)
    /// `StreamPosts` without a `limit` and without an `interval`.
    static let defaultPostLimit = 3
    static let defaultPostInterval = Duration.milliseconds(100)
    static let maximumPostInterval = Duration.seconds(10)

    /// The environment whose data the service answers with (`local`, `staging`, `production`).
    let environment: String
    /// The environment's data, the same store as its HTTP API's.
    let store: DemoStore

    /// The author the server signs its chat answers with.
    var chatAuthor: String { "demo (\(environment))" }

    static func method(_ name: String) -> MethodDescriptor {
        MethodDescriptor(fullyQualifiedService: serviceName, method: name)
    }

    func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: Self.method("GetUser"),
            deserializer: ProtobufDeserializer<Explorer_Demo_V1_GetUserRequest>(),
            serializer: ProtobufSerializer<Explorer_Demo_V1_User>()
        ) { request, _ in
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse(single: ServerResponse(message: try await user(single.message)))
        }
        router.registerHandler(
            forMethod: Self.method("StreamPosts"),
            deserializer: ProtobufDeserializer<Explorer_Demo_V1_StreamPostsRequest>(),
            serializer: ProtobufSerializer<Explorer_Demo_V1_Post>()
        ) { request, _ in
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse { writer in
                try await streamPosts(single.message, to: writer)
                return [:]
            }
        }
        router.registerHandler(
            forMethod: Self.method("TallyReactions"),
            deserializer: ProtobufDeserializer<Explorer_Demo_V1_Reaction>(),
            serializer: ProtobufSerializer<Explorer_Demo_V1_ReactionTally>()
        ) { request, _ in
            StreamingServerResponse(single: ServerResponse(message: try await tally(request.messages)))
        }
        router.registerHandler(
            forMethod: Self.method("Chat"),
            deserializer: ProtobufDeserializer<Explorer_Demo_V1_ChatMessage>(),
            serializer: ProtobufSerializer<Explorer_Demo_V1_ChatMessage>()
        ) { request, _ in
            StreamingServerResponse { writer in
                try await chat(request.messages, to: writer)
                return [:]
            }
        }
        router.registerHandler(
            forMethod: Self.method("CreateUser"),
            deserializer: ProtobufDeserializer<Explorer_Demo_V1_CreateUserRequest>(),
            serializer: ProtobufSerializer<Explorer_Demo_V1_User>()
        ) { request, _ in
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse(error: try refusal(of: single.message))
        }
        router.registerHandler(
            forMethod: Self.method("Heartbeat"),
            deserializer: ProtobufDeserializer<Explorer_Demo_V1_HeartbeatRequest>(),
            serializer: ProtobufSerializer<Explorer_Demo_V1_Tick>()
        ) { request, context in
            let single = try await ServerRequest(stream: request)
            return StreamingServerResponse { writer in
                try await heartbeat(single.message, cancellation: context.cancellation, to: writer)
                return [:]
            }
        }
    }

    // MARK: - Methods

    func user(_ request: Explorer_Demo_V1_GetUserRequest) async throws -> Explorer_Demo_V1_User {
        guard let user = await store.user(id: Int(request.id)) else {
            throw RPCError(
                code: .notFound, message: "There is no user \(request.id) in the \(environment) environment.")
        }
        let posts = await store.posts.filter { $0.userId == user.id }.count
        return Explorer_Demo_V1_User(user, postCount: posts, environment: environment)
    }

    func streamPosts(_ request: Explorer_Demo_V1_StreamPostsRequest, to writer: RPCWriter<Explorer_Demo_V1_Post>)
        async throws
    {
        guard request.limit >= 0 else {
            throw RPCError(code: .invalidArgument, message: "limit must not be negative (it is \(request.limit)).")
        }
        var interval = request.hasInterval ? Duration(request.interval) : Self.defaultPostInterval
        guard interval >= .zero else {
            throw RPCError(code: .invalidArgument, message: "interval must not be negative.")
        }
        interval = min(interval, Self.maximumPostInterval)
        let limit = request.limit == 0 ? Self.defaultPostLimit : Int(request.limit)
        for post in await store.posts.prefix(limit) {
            try await Task.sleep(for: interval)
            try await writer.write(Explorer_Demo_V1_Post(post))
        }
    }

    func tally(_ reactions: RPCAsyncSequence<Explorer_Demo_V1_Reaction, any Error>) async throws
        -> Explorer_Demo_V1_ReactionTally
    {
        var tally = Explorer_Demo_V1_ReactionTally()
        var posts = Set<Int32>()
        var first: ContinuousClock.Instant?
        for try await reaction in reactions {
            first = first ?? .now
            tally.total += 1
            tally.byKind[reaction.kind.protoName, default: 0] += 1
            posts.insert(reaction.postID)
        }
        tally.postIds = posts.sorted()
        tally.elapsed = Google_Protobuf_Duration(rounding: first.map { .now - $0 } ?? .zero)
        return tally
    }

    func chat(
        _ messages: RPCAsyncSequence<Explorer_Demo_V1_ChatMessage, any Error>,
        to writer: RPCWriter<Explorer_Demo_V1_ChatMessage>
    ) async throws {
        var sequence: Int64 = 0
        for try await message in messages {
            sequence += 1
            var answer = Explorer_Demo_V1_ChatMessage()
            answer.text = message.author.isEmpty ? message.text : "\(message.author): \(message.text)"
            answer.author = chatAuthor
            answer.sequence = sequence
            answer.sentAt = Google_Protobuf_Timestamp(date: Date())
            try await writer.write(answer)
        }
    }

    /// Ticks until the client cancels the call or the demo stops.
    ///
    /// - Throws: `RPCError` CANCELLED when the client cancelled (what the access log shows; the
    ///   client is gone), UNAVAILABLE when the demo stops.
    func heartbeat(
        _ request: Explorer_Demo_V1_HeartbeatRequest,
        cancellation: ServerContext.RPCCancellationHandle,
        to writer: RPCWriter<Explorer_Demo_V1_Tick>
    ) async throws {
        let start = ContinuousClock.now
        // gRPC reports a cancelled call through the handle, not by cancelling this task; a stop
        // of the demo comes as the service group's graceful shutdown.
        let ended = try await withThrowingTaskGroup(of: RPCError.self) { group in
            let stopping = RPCError(code: .unavailable, message: "The demo is stopping.")
            group.addTask {
                try await cancellation.cancelled
                // A server that stops cancels its calls too: that is not the client's doing.
                if Task.isShuttingDownGracefully { return stopping }
                return RPCError(code: .cancelled, message: "The client cancelled the heartbeat.")
            }
            group.addTask {
                try await gracefulShutdown()
                return stopping
            }
            group.addTask {
                var sequence: Int64 = 0
                do {
                    while true {
                        try await Task.sleep(for: Self.heartbeatPeriod)
                        sequence += 1
                        var tick = Explorer_Demo_V1_Tick()
                        tick.sequence = sequence
                        tick.label = request.label
                        tick.time = Google_Protobuf_Timestamp(date: Date())
                        tick.uptime = Google_Protobuf_Duration(rounding: .now - start)
                        tick.environment = environment
                        try await writer.write(tick)
                    }
                } catch {
                    // A tick that can no longer be written (the stream closed before the handle
                    // said so) ends the call for the same reason the handle would give.
                    if Task.isShuttingDownGracefully { return stopping }
                    return RPCError(code: .cancelled, message: "The client cancelled the heartbeat.")
                }
            }
            defer { group.cancelAll() }
            // The ticks end only by throwing; the first child to finish says why the stream ends.
            return try await group.next() ?? RPCError(code: .cancelled, message: "The heartbeat ended.")
        }
        throw ended
    }
}
