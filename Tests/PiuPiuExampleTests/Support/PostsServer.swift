import Foundation
import Hummingbird

/// What the README examples talk to: a jsonplaceholder-like API on 127.0.0.1 (posts and users),
/// which answers POSTs by echoing what it was sent.
final class PostsServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    let baseURL: URL
    private let task: Task<Void, any Error>
    private let listener: ServerListener

    private init(baseURL: URL, task: Task<Void, any Error>, listener: ServerListener) {
        self.baseURL = baseURL
        self.task = task
        self.listener = listener
    }

    /// Starts a server on an ephemeral port.
    static func start() async throws -> PostsServer {
        let router = Router()
        router.get("posts") { _, _ in try json(Fixture.posts) }
        router.get("posts/:id") { _, context in
            let id = context.parameters.get("id", as: Int.self)
            guard let post = Fixture.posts.first(where: { $0.id == id }) else {
                return Response(
                    status: .notFound, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: "{}")))
            }
            return try json(post)
        }
        router.get("users/:id") { _, context in
            let id = context.parameters.get("id", as: Int.self)
            guard let user = Fixture.users.first(where: { $0.id == id }) else { return Response(status: .notFound) }
            return try json(user)
        }
        router.get("greeting") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "Piu piu ✨")))
        }
        router.get("empty") { _, _ in Response(status: .noContent) }
        // A POST is answered 201 with the body it brought and the content type it named.
        for path in ["posts", "users"] {
            router.post(RouterPath(stringLiteral: path)) { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                return Response(
                    status: .created,
                    headers: [.contentType: request.headers[.contentType] ?? "application/octet-stream"],
                    body: .init(byteBuffer: body))
            }
        }
        let listener = ServerListener()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: listener.running)
        let task = listener.run(app)
        guard let port = await listener.port(), port > 0 else {
            task.cancel()
            throw CancellationError()
        }
        return PostsServer(baseURL: URL(string: "http://127.0.0.1:\(port)")!, task: task, listener: listener)
    }

    /// Stops the server (gracefully, see `ServerListener`).
    func stop() {
        Task { [task, listener] in await listener.stop(task) }
    }

    private static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try encoder.encode(value))))
    }
}

/// The data the server answers with.
enum Fixture {
    static let posts = [
        Post(id: 1, userId: 1, title: "sunt aut facere", body: "quia et suscipit"),
        Post(id: 2, userId: 2, title: "qui est esse", body: "est rerum tempore"),
    ]
    static let users = [User(id: 1, name: "Leanne Graham"), User(id: 2, name: "Ervin Howell")]
}

/// A post, as jsonplaceholder has them.
struct Post: Codable, Equatable, Sendable {
    let id: Int
    let userId: Int
    let title: String
    let body: String
}

/// A user.
struct User: Codable, Equatable, Sendable {
    let id: Int
    let name: String
}

/// A post after some heavy work (the README's "markdown parsing").
struct EnrichedPost: Equatable, Sendable {
    let post: Post
    let words: Int
}

extension ByteBuffer {
    init(data: Data) { self.init(bytes: data) }
}
