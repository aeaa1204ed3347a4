import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import GRPCProtobuf
import NetworkingCore
import NetworkingGRPC
import SwiftProtobuf
import TestSupport
import Testing

@testable import Demo

/// The demo's gRPC service (`explorer.demo.v1.Directory`), called through a grpc-swift-2 client
/// with the generated messages, against the real demo server on 127.0.0.1.
@Suite struct DemoGRPCTests {
    typealias Client = GRPCClient<HTTP2ClientTransport.Posix>

    /// Starts the demo, runs `body` with a client of `environment`'s gRPC server and the access
    /// log's lines, and stops the demo.
    private func withDemo<Result: Sendable>(
        environment: String = "local",
        _ body: (Client, DemoServer, Collected<String>) async throws -> Result
    ) async throws -> Result {
        let log = Collected<String>()
        let server = try await DemoServer.start(port: 0, accessLog: log.append)
        do {
            let port = try #require(server.environments.first { $0.name == environment }).grpcPort
            let result = try await withGRPCClient(
                transport: .http2NIOPosix(
                    target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
            ) { client in
                try await body(client, server, log)
            }
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    private static let options: CallOptions = {
        var options = CallOptions.defaults
        options.timeout = .seconds(30)
        return options
    }()

    private func method(_ name: String) -> MethodDescriptor { DemoDirectoryService.method(name) }

    private func getUser(_ id: Int32, client: Client) async throws -> Explorer_Demo_V1_User {
        try await client.unary(
            request: ClientRequest(message: .with { $0.id = id }),
            descriptor: method("GetUser"),
            serializer: ProtobufSerializer<Explorer_Demo_V1_GetUserRequest>(),
            deserializer: ProtobufDeserializer<Explorer_Demo_V1_User>(),
            options: Self.options
        ) { try $0.message }
    }

    // MARK: - Unary

    @Test func getUserAnswersTheEnvironmentsUserWithWellKnownTypesAMapAndAnEnum() async throws {
        try await withDemo { client, _, _ in
            let user = try await getUser(1, client: client)
            #expect(user.name == "Ada Lovelace")
            #expect(user.role == .admin)
            #expect(user.createdAt.seconds == 1_735_689_600)
            #expect(user.hasPostCount && user.postCount.value == 1)
            #expect(user.labels == ["environment": "local", "profile": "/v1/users/1"])
            let json = try JSONValue(parsing: Data(user.jsonString().utf8))
            #expect(json["createdAt"] == "2025-01-01T00:00:00Z")
            #expect(json["role"] == "ROLE_ADMIN")
            #expect(json["postCount"] == 1)
        }
    }

    @Test func stagingAnswersWithItsOwnPeople() async throws {
        try await withDemo(environment: "staging") { client, _, _ in
            let user = try await getUser(1, client: client)
            #expect(user.name == "Grace Hopper")
            #expect(user.email == "grace@staging.example.com")
            #expect(user.labels["environment"] == "staging")
        }
    }

    @Test func anUnknownUserIsNotFoundAndTheAccessLogSaysSo() async throws {
        try await withDemo { client, _, log in
            let error = await #expect(throws: RPCError.self) { try await getUser(9_999, client: client) }
            #expect(error?.code == .notFound)
            #expect(error?.message == "There is no user 9999 in the local environment.")
            #expect(await log.wait { $0.hasSuffix("gRPC /explorer.demo.v1.Directory/GetUser → NOT_FOUND") })
        }
    }

    // MARK: - Streams

    @Test func postsArriveOneByOneAtTheIntervalTheRequestAsks() async throws {
        try await withDemo(environment: "staging") { client, _, _ in
            var request = Explorer_Demo_V1_StreamPostsRequest()
            request.limit = 3
            request.interval = Google_Protobuf_Duration(rounding: .milliseconds(150))
            let start = ContinuousClock.now
            let arrivals = try await client.serverStreaming(
                request: ClientRequest(message: request),
                descriptor: method("StreamPosts"),
                serializer: ProtobufSerializer<Explorer_Demo_V1_StreamPostsRequest>(),
                deserializer: ProtobufDeserializer<Explorer_Demo_V1_Post>(),
                options: Self.options
            ) { response in
                var arrivals: [(ContinuousClock.Instant, Explorer_Demo_V1_Post)] = []
                for try await post in response.messages { arrivals.append((.now, post)) }
                return arrivals
            }
            #expect(arrivals.map(\.1.id) == [1, 2, 3])
            #expect(arrivals.allSatisfy { $0.1.title.hasPrefix("[staging] ") })
            // The server waits the interval before each post, so the last cannot come sooner than
            // three intervals after the call began (a bound a loaded machine only lengthens; the
            // gaps between arrivals a busy client reads late can shrink to nothing).
            let last = try #require(arrivals.last).0
            #expect(last - start >= .milliseconds(450))
        }
    }

    @Test func reactionsStreamedByTheClientAreTallied() async throws {
        try await withDemo { client, _, _ in
            let kinds: [(Int32, Explorer_Demo_V1_ReactionKind)] = [
                (3, .like), (1, .like), (3, .funny), (2, .insightful), (3, .like),
            ]
            let tally = try await client.clientStreaming(
                request: StreamingClientRequest(of: Explorer_Demo_V1_Reaction.self) { writer in
                    for (post, kind) in kinds {
                        try await writer.write(
                            .with {
                                $0.postID = post
                                $0.kind = kind
                            })
                    }
                },
                descriptor: method("TallyReactions"),
                serializer: ProtobufSerializer<Explorer_Demo_V1_Reaction>(),
                deserializer: ProtobufDeserializer<Explorer_Demo_V1_ReactionTally>(),
                options: Self.options
            ) { try $0.message }
            #expect(tally.total == 5)
            #expect(tally.byKind == ["REACTION_KIND_LIKE": 3, "REACTION_KIND_FUNNY": 1, "REACTION_KIND_INSIGHTFUL": 1])
            #expect(tally.postIds == [1, 2, 3])
            #expect(tally.hasElapsed)
        }
    }

    @Test func chatAnswersEachMessageBeforeTheNextIsSent() async throws {
        try await withDemo(environment: "staging") { client, _, _ in
            // Ping-pong: the client writes its next message only once the answer to the last came.
            let (answered, answeredSink) = AsyncStream.makeStream(of: Void.self)
            let texts = ["hello", "how are you?", "bye"]
            let answers = try await client.bidirectionalStreaming(
                request: StreamingClientRequest(of: Explorer_Demo_V1_ChatMessage.self) { writer in
                    var waits = answered.makeAsyncIterator()
                    for text in texts {
                        try await writer.write(
                            .with {
                                $0.text = text
                                $0.author = "ada"
                            })
                        guard await waits.next() != nil else { return }
                    }
                },
                descriptor: method("Chat"),
                serializer: ProtobufSerializer<Explorer_Demo_V1_ChatMessage>(),
                deserializer: ProtobufDeserializer<Explorer_Demo_V1_ChatMessage>(),
                options: Self.options
            ) { response in
                defer { answeredSink.finish() }
                var answers: [Explorer_Demo_V1_ChatMessage] = []
                for try await answer in response.messages {
                    answers.append(answer)
                    answeredSink.yield()
                }
                return answers
            }
            #expect(answers.map(\.sequence) == [1, 2, 3])
            #expect(answers.map(\.text) == ["ada: hello", "ada: how are you?", "ada: bye"])
            #expect(answers.allSatisfy { $0.author == "demo (staging)" && $0.hasSentAt })
        }
    }

    // MARK: - Failures and endless streams

    @Test func createUserFailsWithInvalidArgumentAndTheRichErrorModelsDetails() async throws {
        try await withDemo { client, _, _ in
            let error = await #expect(throws: RPCError.self) {
                try await client.unary(
                    request: ClientRequest(
                        message: .with {
                            $0.username = "grace"
                            $0.email = "grace"
                        }),
                    descriptor: method("CreateUser"),
                    serializer: ProtobufSerializer<Explorer_Demo_V1_CreateUserRequest>(),
                    deserializer: ProtobufDeserializer<Explorer_Demo_V1_User>(),
                    options: Self.options
                ) { try $0.message }
            }
            let failure = try #require(error)
            #expect(failure.code == .invalidArgument)
            #expect(failure.message == "The user cannot be created in the local environment.")
            // Decoded by grpc-swift-protobuf's own google.rpc messages, not the demo's.
            let status = try #require(try failure.unpackGoogleRPCStatus())
            #expect(status.code == .invalidArgument)
            #expect(status.message == failure.message)
            #expect(status.details.count == 2)
            let badRequest = try #require(status.details.first?.badRequest)
            #expect(badRequest.violations.map(\.field) == ["username", "email"])
            #expect(
                badRequest.violations.first?.violationDescription.contains("\"grace\" cannot be registered") == true)
            let info = try #require(status.details.last?.errorInfo)
            #expect(info.reason == "DIRECTORY_READ_ONLY")
            #expect(info.domain == "demo.explorer.local")
            #expect(info.metadata["environment"] == "local")
        }
    }

    @Test func heartbeatTicksUntilTheClientCancelsAndTheServerSeesTheCancellation() async throws {
        try await withDemo { client, _, log in
            let ticks = try await client.serverStreaming(
                request: ClientRequest(message: .with { $0.label = "test" }),
                descriptor: method("Heartbeat"),
                serializer: ProtobufSerializer<Explorer_Demo_V1_HeartbeatRequest>(),
                deserializer: ProtobufDeserializer<Explorer_Demo_V1_Tick>(),
                options: Self.options
            ) { response in
                var ticks: [Explorer_Demo_V1_Tick] = []
                for try await tick in response.messages {
                    ticks.append(tick)
                    // Returning before the stream ends cancels the call.
                    if ticks.count == 3 { break }
                }
                return ticks
            }
            #expect(ticks.map(\.sequence) == [1, 2, 3])
            #expect(ticks.allSatisfy { $0.label == "test" && $0.environment == "local" })
            #expect(Duration(ticks[2].uptime) >= DemoDirectoryService.heartbeatPeriod * 3)
            #expect(await log.wait { $0.hasSuffix("gRPC /explorer.demo.v1.Directory/Heartbeat → CANCELLED") })
        }
    }

    @Test func stoppingTheDemoEndsAnOpenHeartbeat() async throws {
        let server = try await DemoServer.start(port: 0)
        let port = server.environments[0].grpcPort
        let started = ContinuousClock.now
        let outcome: Result<Int, RPCError> = try await withGRPCClient(
            transport: .http2NIOPosix(target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext)
        ) { client in
            try await client.serverStreaming(
                request: ClientRequest(message: Explorer_Demo_V1_HeartbeatRequest()),
                descriptor: method("Heartbeat"),
                serializer: ProtobufSerializer<Explorer_Demo_V1_HeartbeatRequest>(),
                deserializer: ProtobufDeserializer<Explorer_Demo_V1_Tick>(),
                options: Self.options
            ) { response in
                var count = 0
                do {
                    for try await _ in response.messages {
                        count += 1
                        if count == 1 { Task { await server.stop() } }
                    }
                    return .success(count)
                } catch let error as RPCError {
                    return .failure(error)
                }
            }
        }
        await server.waitUntilStopped()
        guard case .failure(let error) = outcome else {
            Issue.record("the heartbeat ended without an error after \(outcome) ticks")
            return
        }
        #expect(error.code == .unavailable)
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    // MARK: - Reflection

    /// Runs `body` with NetworkingGRPC's reflection client of the demo's local gRPC server.
    private func withReflection(_ body: (GRPCReflectionClient) async throws -> Void) async throws {
        let server = try await DemoServer.start(port: 0)
        let provider = DemoGRPCServerAddress(server.environments[0].grpcURL)
        let dispatcher = GRPCDispatcher(serverProvider: provider)
        do {
            try await body(GRPCReflectionClient(dispatcher: dispatcher))
        } catch {
            await dispatcher.shutdown()
            await server.stop()
            throw error
        }
        withExtendedLifetime(provider) {}
        await dispatcher.shutdown()
        await server.stop()
    }

    @Test func reflectionListsTheDemoServiceAndGivesItsFileWithItsImports() async throws {
        try await withReflection { reflection in
            #expect(try await reflection.listServices().contains(DemoDirectoryService.serviceName))
            #expect(reflection.version == .v1)
            let files = try await reflection.files(containing: DemoDirectoryService.serviceName)
            let demo = try #require(files.first { $0.name == "demo.proto" })
            #expect(demo.package == "explorer.demo.v1")
            #expect(demo.service.first?.method.map(\.name) == DemoDirectoryService.methodNames)
            let names = Set(files.map(\.name))
            #expect(names.isSuperset(of: ["google/protobuf/timestamp.proto", "google/protobuf/duration.proto"]))
        }
    }

    @Test func reflectionKnowsTheGoogleRPCDetailsTheFailingMethodSends() async throws {
        try await withReflection { reflection in
            let files = try await reflection.files(containing: "google.rpc.BadRequest")
            #expect(files.contains { $0.name == "google/rpc/error_details.proto" })
        }
    }

    // MARK: - The server

    @Test func eachEnvironmentServesGRPCOnItsOwnPortAndTheCollectionNamesIt() async throws {
        let server = try await DemoServer.start(port: 0)
        defer { Task { await server.stop() } }
        let ports = server.environments.map(\.grpcPort)
        #expect(Set(ports + server.environments.map(\.port)).count == 6)
        #expect(!ports.contains(0))
        let yaml = DemoCollection.yaml(for: server.environments)
        for environment in server.environments {
            #expect(yaml.contains("grpc_url: grpc://127.0.0.1:\(environment.grpcPort) }"))
        }
    }

    @Test func aTakenGRPCPortIsReportedAsTheSystemWordsIt() async throws {
        let running = try await DemoServer.start(port: 0)
        defer { Task { await running.stop() } }
        // A second demo whose local gRPC server wants the first one's port.
        let taken = running.environments[0].grpcPort
        let error = await #expect(throws: DemoServerError.self) {
            let second = try await DemoServer.start(port: taken - 3)
            await second.stop()
        }
        let sentence = String(describing: try #require(error))
        #expect(sentence.contains("Address already in use"))
        #expect(!sentence.contains("transportError"))
    }

    @Test func aFixedPortPutsTheGRPCServersThreeAboveTheHTTPOnes() {
        let environments = DemoEnvironment.names.enumerated().map { DemoEnvironment(name: $1, port: 41_000 + $0) }
        #expect(environments.map(\.grpcURL.absoluteString) == (41_003...41_005).map { "grpc://127.0.0.1:\($0)" })
    }
}

/// The address of one of the demo's gRPC servers, as a server provider.
private final class DemoGRPCServerAddress: ServerProvider, Sendable {
    let baseURL: URL?
    init(_ url: URL) { baseURL = url }
}
