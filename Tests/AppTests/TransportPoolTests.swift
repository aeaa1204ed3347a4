import NetworkingCore
import Synchronization
import Testing

@testable import App
@testable import Workspace

/// The session's HTTP client is made when a request first needs it, not with the session.
@Suite struct TransportPoolTests {
    /// How many shared transports a pool made.
    private final class MadeCount: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }

    /// A pool that counts the shared transports it makes.
    private func countingPool(_ made: MadeCount) -> TransportPool {
        TransportPool(configuration: .init(proxy: .none), collectionPath: nil) { configuration in
            made.add()
            return AsyncHTTPClientTransport(configuration: configuration)
        }
    }

    @Test func theSharedTransportIsMadeOnceWhenAnEnvironmentFirstNeedsIt() async throws {
        let made = MadeCount()
        let pool = countingPool(made)
        let collection = try CollectionLoader.parse(EffectServicesTests.collectionText, file: "pool.yaml")
        #expect(!pool.hasMadeShared)
        #expect(made.value == 0)
        let proxied = try pool.transport(for: collection.environments[1])
        #expect(made.value == 0, "an environment's own transport starts from the settings, not the client")
        #expect(proxied.configuration.proxy != .none)
        let shared = try pool.transport(for: collection.environments[0])
        #expect(pool.hasMadeShared)
        #expect(try pool.transport(for: collection.environments[0]) === shared)
        #expect(pool.shared === shared)
        #expect(made.value == 1)
        await pool.shutdown()
    }

    @Test func aSessionThatSentNothingMakesNoClientAndShutsNoneDown() async {
        let made = MadeCount()
        let pool = countingPool(made)
        await pool.shutdown()
        #expect(made.value == 0)
        #expect(!pool.hasMadeShared)
    }

    @Test func aProgramWithoutATransportMakesItsClientOnlyForARequest() async throws {
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        #expect(!program.transports.hasMadeShared)
        let collection = try CollectionLoader.parse(EffectServicesTests.collectionText, file: "pool.yaml")
        #expect(program.transports.proxyNote(for: collection.environments[0], url: "http://127.0.0.1:9/") == nil)
        #expect(program.transports.hasMadeShared)
        await program.shutdown()
    }

    @Test func aTransportGivenToThePoolIsItsSharedOne() async {
        let given = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
        let pool = TransportPool(shared: given, collectionPath: nil)
        #expect(pool.hasMadeShared)
        #expect(pool.shared === given)
        await pool.shutdown()
    }
}
