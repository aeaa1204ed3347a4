import Foundation
import Networking

// The `self` of PiuPiu 1.3's README: a screen that is its own server provider, keeps futures
// and shows posts. Swift 6 demands that what `@Sendable` callbacks capture be `Sendable`: the
// screen touches its state on the main queue only (where the callbacks run), so it says so
// with `@unchecked Sendable`, as a UIKit screen would with `@MainActor`.

/// A stand-in for a text field a screen shows.
final class TextField: @unchecked Sendable {
    var text: String?
}

final class ViewController: @unchecked Sendable {
    let server: URL
    let recorder: Recorder
    var postResponseFuture: ResponseFuture<SuccessResponse<[Post]>>?
    var strongResponseFuture: ResponseFuture<Response<Data?>>?
    weak var weakResponseFuture: ResponseFuture<Response<Data?>>?
    var textField: TextField? = TextField()

    init(server: URL, recorder: Recorder) {
        self.server = server
        self.recorder = recorder
    }

    func show(_ posts: [Post]) {
        recorder.record("shown \(posts.map(\.id)) on main: \(MainQueue.isCurrent)")
    }

    func show(_ data: Data?) {
        recorder.record("shown \(data?.count ?? 0) bytes")
    }

    // MARK: - "4. Separating concerns and transforming the future"

    func getPosts() -> ResponseFuture<[Post]> {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        let request = BasicRequest(method: .get, path: "/posts")

        // We create a future and tell it to transform the response using the
        // `then` callback.
        return dispatcher.future(from: request).then({ response -> [Post] in
            // This callback transforms our response to another type
            // We can still handle errors the same way as we did before.

            if let error = response.error {
                // The error is available when a non-2xx response comes in
                // Such as a 4xx or 5xx
                // You may also parse a custom error object here.
                throw error
            }

            // Return the decoded object. If an error is thrown while decoding,
            // It will be caught in the `error` callback.
            return try response.decode([Post].self)
        })
    }

    // MARK: - What the "Future" examples call

    /// Heavy work in a future of its own ("Creating your own ResponseFuture").
    func enrich(post: Post) -> ResponseFuture<EnrichedPost> {
        return ResponseFuture<EnrichedPost>(action: { future in
            DispatchQueue.global(qos: .userInitiated).async {
                let enriched = EnrichedPost(post: post, words: post.body.split(separator: " ").count)
                DispatchQueue.main.async {
                    future.succeed(with: enriched)
                }
            }
        })
    }

    func fetchUser(forId id: Int) -> ResponseFuture<User> {
        let dispatcher = NetworkDispatcher(serverProvider: self)
        return dispatcher.future(from: BasicRequest(method: .get, path: "/users/\(id)")).then({ response -> User in
            if let error = response.error { throw error }
            return try response.decode(User.self)
        })
    }

    /// "Creating your own ResponseFuture": decoding on another thread.
    func decodeInBackground(_ response: Response<Data?>) -> ResponseFuture<[Post]> {
        return ResponseFuture<[Post]>(action: { future in
            // This is an example of how a future is executed and
            // fulfilled.
            DispatchQueue.global(qos: .userInitiated).async {
                // lets make an expensive operation on a background thread.
                // The below is just an example of how you can parse on a seperate thread.

                do {
                    // Do an expensive operation here ....
                    let posts = try response.decode([Post].self)

                    DispatchQueue.main.async {
                        // We should syncronyze the result back to the main thread.
                        future.succeed(with: posts)
                    }
                } catch {
                    // We can handle any errors as well.
                    DispatchQueue.main.async {
                        // We should syncronize the error to the main thread.
                        future.fail(with: error)
                    }
                }
            }
        })
    }
}

// MARK: - "2. Implement a ServerProvider"

extension ViewController: ServerProvider {
    var baseURL: URL? {
        // README: `return URL(string: "https://example.com")!`; here, the test server.
        return server
    }
}
