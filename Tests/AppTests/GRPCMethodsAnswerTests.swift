import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// `Ctrl-N` on gRPC: the palette lists the methods of the server it is waiting for, not a late
/// answer of an earlier `Ctrl-N` that asked another server.
@Suite struct GRPCMethodsAnswerTests {
    @Test func aLateAnswerFromAnotherServerDoesNotFillThePalette() throws {
        let collection = try CollectionLoader.parse(
            """
            name: Directory
            environments:
              - name: grpc
                base_url: grpc://127.0.0.1:9
            endpoints:
              - name: Get user
                grpc: explorer.demo.v1.Directory/GetUser
              - name: Elsewhere
                grpc: other.v1.Things/Get
                server: grpc://127.0.0.1:8
            """, file: "directory.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/directory.yaml", environment: "grpc")
        state.size = Size(width: 120, height: 30)
        state.endpointList.selected = 1
        #expect(state.selectedEndpoint?.name == "Elsewhere")
        tuiPress(&state, .ctrl("n"))
        tuiPress(&state, KeyPress(.escape))
        state.endpointList.selected = 0
        tuiPress(&state, .ctrl("n"))
        guard case .palette(let asking) = state.overlay else {
            Issue.record("Ctrl-N opened no palette")
            return
        }
        #expect(asking.offer?.waiting?.contains("grpc://127.0.0.1:9") == true)

        // The first Ctrl-N's answer, from the endpoint's own server, comes in late.
        let elsewhere = GRPCMethodOffer(
            method: "other.v1.Things/Get", kind: .unary, inputType: "other.v1.GetRequest", skeleton: .object([]),
            server: "grpc://127.0.0.1:8")
        tuiReduce(
            &state,
            .grpcMethodsListed(
                environment: "grpc",
                GRPCMethodsLoad(methods: [elsewhere], origin: "server reflection", server: "grpc://127.0.0.1:8")))
        guard case .palette(let stillAsking) = state.overlay else {
            Issue.record("the palette closed")
            return
        }
        #expect(stillAsking.offer?.waiting != nil)
        #expect(stillAsking.offer?.entries.count == 1, "only the HTTP row")

        // The answer it waits for fills it.
        let own = GRPCMethodOffer(
            method: "explorer.demo.v1.Directory/GetUser", kind: .unary, inputType: "explorer.demo.v1.GetUserRequest",
            skeleton: .object([]))
        tuiReduce(
            &state,
            .grpcMethodsListed(environment: "grpc", GRPCMethodsLoad(methods: [own], origin: "server reflection")))
        guard case .palette(let listed) = state.overlay else {
            Issue.record("the palette closed")
            return
        }
        #expect(listed.offer?.waiting == nil)
        #expect(listed.offer?.entries.first?.text == "explorer.demo.v1.Directory/GetUser")
    }
}
