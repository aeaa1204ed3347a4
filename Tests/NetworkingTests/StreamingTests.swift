import Foundation
import Networking
import Testing

@Suite struct StreamingTests {
    /// 100 MB, streamed chunk by chunk: never held in memory.
    static let size = 100 * 1024 * 1024

    @Test func aLargeBodyStreamsWithProgressWithoutBeingKeptInMemory() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let received = Locked64()
        let progressSeen = Locked64()
        let chunks = CallCounter()

        let response = try await dispatcher.future(
            from: BasicRequest(path: "/bytes/\(Self.size)"),
            options: TransferOptions(
                bodyDestination: .stream { chunk in
                    received.set(received.get() + Int64(chunk.count))
                    chunks.hit("chunk")
                })
        )
        .progress { progress in
            if progress.expectedBytes == Int64(Self.size) { progressSeen.set(progress.completedBytes) }
        }
        .value

        #expect(response.body == nil)
        #expect(response.timings.bytesReceived == Self.size)
        #expect(received.get() == Int64(Self.size))
        #expect(chunks.count("chunk") > 1)
        #expect(await eventually { progressSeen.get() == Int64(Self.size) })
    }

    @Test func aBodyCanGoStraightToAFile() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("networking-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.bin")

        let response = try await dispatcher.future(
            from: BasicRequest(path: "/bytes/1000000"), options: TransferOptions(bodyDestination: .file(file))
        ).value

        #expect(response.body == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.size] as? NSNumber)?.intValue == 1_000_000)
    }
}
