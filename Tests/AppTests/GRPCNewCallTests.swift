import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import Demo
@testable import Terminal
@testable import Workspace

/// `Ctrl-N` on a gRPC environment: the palette offers the methods of the environment's server
/// (the demo's, real, on 127.0.0.1, with reflection), and the one picked becomes a draft whose
/// message is a skeleton of the input type, which sends as it is.
@Suite struct GRPCNewCallTests {
    static func collection(baseURL: String) throws -> APICollection {
        try CollectionLoader.parse(
            """
            name: Directory
            environments:
              - name: grpc
                base_url: \(baseURL)
            endpoints:
              - name: Get user
                grpc: explorer.demo.v1.Directory/GetUser
                message: { id: "1" }
            """, file: "directory.yaml")
    }

    /// The state and program of a session over `collection`, the methods asked of its server.
    static func pressCtrlN(
        _ collection: APICollection, program: ExplorerProgram
    ) async throws -> (AppState, GRPCMethodsLoad) {
        var state = AppState(collection: collection, collectionPath: "/tmp/directory.yaml", environment: "grpc")
        state.size = Size(width: 120, height: 30)
        let effects = tuiPress(&state, .ctrl("n"))
        guard case .palette(let palette) = state.overlay, let offer = palette.offer else {
            Issue.record("Ctrl-N opened no offer: \(String(describing: state.overlay))")
            throw CancellationError()
        }
        #expect(offer.waiting?.contains("asking") == true)
        #expect(state.drafts.isEmpty, "nothing is made before a method is picked")
        guard let effect = effects.first, case .listGRPCMethods = effect else {
            Issue.record("Ctrl-N asked for no methods: \(effects)")
            throw CancellationError()
        }
        let reported = Collected<AppAction>()
        program.perform(effect, send: { reported.append($0) })
        let listed: @Sendable (AppAction) -> Bool = {
            if case .grpcMethodsListed = $0 { true } else { false }
        }
        #expect(await reported.wait(for: listed))
        guard case .grpcMethodsListed(let environment, let load)? = reported.all.first(where: listed) else {
            throw CancellationError()
        }
        #expect(environment == "grpc")
        tuiReduce(&state, .grpcMethodsListed(environment: environment, load))
        return (state, load)
    }

    @Test func theServersMethodsAreOfferedAndThePickedOneSendsItsSkeleton() async throws {
        let server = try await DemoServer.start(port: 0)
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        defer { Task { await program.shutdown() } }
        do {
            let grpcURL = try #require(server.environments.first).grpcURL
            let collection = try Self.collection(baseURL: grpcURL.absoluteString)
            var (state, load) = try await Self.pressCtrlN(collection, program: program)
            #expect(load.problem == nil)
            #expect(load.origin.contains("reflection"))
            let methods = load.methods.map(\.method)
            #expect(methods.contains("explorer.demo.v1.Directory/GetUser"))
            #expect(methods.contains("explorer.demo.v1.Directory/Chat"))
            guard case .palette(let palette) = state.overlay, let offer = palette.offer else {
                Issue.record("the palette closed")
                return
            }
            #expect(offer.waiting == nil)
            #expect(offer.title.contains("\(load.methods.count) methods"))
            // Every method, then the HTTP row.
            #expect(offer.entries.count == load.methods.count + 1)
            #expect(offer.entries.last?.target == .newHTTPEndpoint)
            #expect(offer.entries.first { $0.text.hasSuffix("/Chat") }?.detail == "bidi streaming")

            // The fuzzy query narrows to one method; Enter makes the draft.
            tuiType(&state, "TallyReactions")
            tuiPress(&state, KeyPress(.enter))
            #expect(state.overlay == nil)
            let draft = try #require(state.drafts["TallyReactions"])
            #expect(draft.grpc?.method == "explorer.demo.v1.Directory/TallyReactions")
            // A client stream's message is a list of one skeleton.
            #expect(draft.grpc?.writtenAsList == true)
            guard case .object(let fields)? = draft.grpc?.messages.first else {
                Issue.record("no skeleton: \(String(describing: draft.grpc))")
                return
            }
            #expect(fields.map(\.key).contains("postId"))
            #expect(state.message?.contains("client streaming call") == true)
            #expect(state.selectedEndpoint?.id == "TallyReactions")

            // The unary GetUser draft sends its skeleton as it is: the server answers.
            var (again, _) = try await Self.pressCtrlN(collection, program: program)
            tuiType(&again, "GetUser")
            tuiPress(&again, KeyPress(.enter))
            let getUser = try #require(again.drafts["GetUser"])
            #expect(getUser.grpc?.writtenAsList == false)
            let plan = RequestPlan(
                endpoint: getUser, collection: collection, environment: try #require(collection.environments.first),
                revision: 1)
            let reported = Collected<AppAction>()
            program.perform(.send(exchange: 1, plan), send: { reported.append($0) })
            let finished: @Sendable (AppAction) -> Bool = {
                switch $0 {
                case .received(exchange: 1, _), .failed(exchange: 1, _), .resolveFailed(exchange: 1, _): true
                default: false
                }
            }
            #expect(await reported.wait(for: finished))
            guard case .received(_, let response)? = reported.all.first(where: finished) else {
                Issue.record("the skeleton did not send: \(reported.all)")
                await server.stop()
                return
            }
            // The demo has no user 0: its answer is gRPC's NOT_FOUND, which it could only give
            // to a message it read.
            #expect(response.reason.hasPrefix("NOT_FOUND"), "\(response.reason)")
            #expect(response.reason.contains("no user 0"))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func onAGRPCEndpointWithItsOwnServerThatServerIsAskedAndTheDraftKeepsIt() async throws {
        let server = try await DemoServer.start(port: 0)
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        defer { Task { await program.shutdown() } }
        do {
            let grpcURL = try #require(server.environments.first).grpcURL
            // HTTP and gRPC in one environment, as the demo has them.
            let collection = try CollectionLoader.parse(
                """
                name: Directory
                environments:
                  - name: grpc
                    base_url: http://127.0.0.1:9
                    variables: { grpc_url: "\(grpcURL.absoluteString)" }
                endpoints:
                  - name: Get user
                    grpc: explorer.demo.v1.Directory/GetUser
                    server: "{{grpc_url}}"
                    message: { id: "1" }
                """, file: "directory.yaml")
            var (state, load) = try await Self.pressCtrlN(collection, program: program)
            #expect(load.problem == nil, "\(load.problem ?? "")")
            #expect(load.methods.allSatisfy { $0.server == "{{grpc_url}}" })
            tuiType(&state, "Heartbeat")
            tuiPress(&state, KeyPress(.enter))
            let draft = try #require(state.drafts["Heartbeat"])
            #expect(draft.grpc?.server == "{{grpc_url}}")
            #expect(draft.path == "{{grpc_url}}/explorer.demo.v1.Directory/Heartbeat")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func aServerThatCannotBeReachedIsSaidAndAnHTTPEndpointIsStillOffered() async throws {
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        defer { Task { await program.shutdown() } }
        // Nothing listens on the discard port.
        let collection = try Self.collection(baseURL: "grpc://127.0.0.1:9")
        var (state, load) = try await Self.pressCtrlN(collection, program: program)
        #expect(load.methods.isEmpty)
        #expect(load.problem != nil)
        #expect(state.messageIsError)
        #expect(state.message?.hasPrefix("No gRPC methods to offer:") == true)
        guard case .palette(let palette) = state.overlay else {
            Issue.record("the palette closed")
            return
        }
        #expect(palette.offer?.entries.map(\.target) == [.newHTTPEndpoint])
        tuiPress(&state, KeyPress(.enter))
        guard case .requestLine? = state.input?.purpose else {
            Issue.record("the HTTP row opened no request line: \(String(describing: state.input))")
            return
        }
    }

    @Test func anAnswerForAnotherEnvironmentOrAClosedPaletteChangesNothing() throws {
        var state = AppState(
            collection: try Self.collection(baseURL: "grpc://127.0.0.1:9"), collectionPath: "/tmp/directory.yaml",
            environment: "grpc")
        state.size = Size(width: 120, height: 30)
        tuiPress(&state, .ctrl("n"))
        let offer = GRPCMethodOffer(
            method: "a.B/C", kind: .unary, inputType: "a.Request", skeleton: .object([]))
        tuiReduce(&state, .grpcMethodsListed(environment: "other", GRPCMethodsLoad(methods: [offer], origin: "x")))
        guard case .palette(let palette) = state.overlay else {
            Issue.record("the palette closed")
            return
        }
        #expect(palette.offer?.waiting != nil)
        tuiPress(&state, KeyPress(.escape))
        tuiReduce(&state, .grpcMethodsListed(environment: "grpc", GRPCMethodsLoad(methods: [offer], origin: "x")))
        #expect(state.overlay == nil)
        #expect(state.drafts.isEmpty)
    }
}
