import Foundation
import Networking
import Testing

@Suite struct MockDispatcherTests {
    struct Post: Codable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    @Test func stubsAnswerAndRequestsAreRecorded() async throws {
        let mock = MockDispatcher()
        try mock.stub(.get, path: "/posts/1", with: .json(Post(id: 1, title: "Hi")))
        mock.stub(.delete, path: "posts/1", with: MockDispatcher.Stub(status: .noContent))

        let post = try await mock.future(from: BasicRequest(path: "/posts/1")).ensureValidResponse().ensureDecoded(
            Post.self
        ).value.body
        let deleted = try await mock.future(from: BasicRequest(method: .delete, path: "/posts/1?force=1")).value
        let missing = try await mock.future(from: BasicRequest(path: "/nothing")).value

        #expect(post == Post(id: 1, title: "Hi"))
        #expect(deleted.statusCode == .noContent)
        #expect(missing.statusCode == .notFound)
        #expect(mock.recordedRequests.map(\.method) == [.get, .delete, .get])
        #expect(mock.recordedRequests[1].url.absoluteString == "https://mock.invalid/posts/1?force=1")
    }

    @Test func stubsCanFailOrBeSlowAndCancelled() async throws {
        let mock = MockDispatcher()
        mock.stub(path: "/fail", with: .failure(TransportError.connectionRefused(host: "mock", port: 1)))
        mock.stub(path: "/slow", with: .text("late", delay: .seconds(30)))

        await #expect(throws: TransportError.connectionRefused(host: "mock", port: 1)) {
            try await mock.future(from: BasicRequest(path: "/fail")).value
        }
        let counter = CallCounter()
        let slow = mock.future(from: BasicRequest(path: "/slow")).cancellation { counter.hit("cancelled") }.send()
        slow.cancel()
        #expect(await eventually { counter.count("cancelled") == 1 })
    }
}
