import Foundation
import Networking
import Testing

/// How many requests a connection carries: by default a connection is kept and reused;
/// `maximumRequestsPerConnection` closes it after that many (1: a connection per request, as
/// a load tool's `--disable-keepalive`), whether the caller runs on one of the transport's
/// loops (the delegate API) or elsewhere (the async API).
@Suite struct ConnectionReuseTests {
    /// Sends `count` requests one after another, from one of the transport's loops or from
    /// elsewhere; gives the connections the server accepted for them.
    private func connections(sending count: Int, limit: Int?, fromLoop: Bool) async throws -> Int {
        let server = try await TestServer.start()
        let transport = AsyncHTTPClientTransport(
            configuration: .init(proxy: .none, maximumRequestsPerConnection: limit))
        defer {
            Task {
                await server.stop()
                try? await transport.shutdown()
            }
        }
        let request = PreparedRequest(url: URL(string: server.baseURL.absoluteString + "/bytes/1000")!)
        let send: @Sendable () async throws -> Void = {
            for _ in 0..<count {
                let response = try await transport.send(request, options: TransferOptions()) { _ in }
                #expect(response.status.code == 200 && response.body?.count == 1000)
            }
        }
        if fromLoop {
            try await Task(executorPreference: transport.executors[0]) { try await send() }.value
        } else {
            try await send()
        }
        return server.acceptedConnections
    }

    @Test(arguments: [false, true])
    func aConnectionIsKeptForTheRequestsThatFollow(fromLoop: Bool) async throws {
        #expect(try await connections(sending: 6, limit: nil, fromLoop: fromLoop) == 1)
    }

    @Test(arguments: [false, true])
    func aLimitOfOneOpensAConnectionForEveryRequest(fromLoop: Bool) async throws {
        #expect(try await connections(sending: 6, limit: 1, fromLoop: fromLoop) == 6)
    }

    @Test func aLimitOfTwoOpensAConnectionForEveryOtherRequest() async throws {
        #expect(try await connections(sending: 6, limit: 2, fromLoop: false) == 3)
    }

    @Test func aLimitBelowOneCountsAsOne() async throws {
        #expect(try await connections(sending: 3, limit: 0, fromLoop: false) == 3)
    }
}
