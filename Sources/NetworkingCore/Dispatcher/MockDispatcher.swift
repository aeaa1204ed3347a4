import Foundation

/// A dispatcher that answers from stubs without a network and records what it was sent, for
/// tests of code that uses a `Dispatcher`.
///
/// As in PiuPiu, one mock response answers every request:
///
/// ```swift
/// let dispatcher = MockDispatcher(baseUrl: url, mockStatusCode: .ok)
/// try dispatcher.setMockData(post)
/// dispatcher.future(from: BasicRequest(method: .get, path: "/posts/1")).response { ... }.send()
/// ```
///
/// Stubs answer the requests they match instead (a later stub wins over an earlier one):
///
/// ```swift
/// let mock = MockDispatcher()
/// mock.stub(.get, path: "/posts/1", with: try .json(Post(id: 1, title: "Hi")))
/// let post = try await mock.future(from: BasicRequest(path: "/posts/1")).ensureDecoded(Post.self).value
/// ```
public final class MockDispatcher: Dispatcher, Sendable {
    /// A canned answer: a response (status, headers, body) or an error, after a delay.
    public struct Stub: Sendable {
        /// The status.
        public var status: HTTPStatus
        /// The headers.
        public var headers: HTTPHeaders
        /// The body.
        public var body: Data?
        /// How long to wait before answering.
        public var delay: Duration
        /// An error to fail with instead of answering.
        public var error: (any Error)?

        /// Creates a stub.
        public init(
            status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Data? = nil, delay: Duration = .zero,
            error: (any Error)? = nil
        ) {
            self.status = status
            self.headers = headers
            self.body = body
            self.delay = delay
            self.error = error
        }

        /// A JSON body from an `Encodable` value.
        ///
        /// - Throws: an encoding error.
        public static func json<Value: Encodable>(
            _ value: Value, status: HTTPStatus = .ok, encoder: JSONEncoder = JSONEncoder(), delay: Duration = .zero
        ) throws -> Stub {
            Stub(
                status: status, headers: ["Content-Type": "application/json"], body: try encoder.encode(value),
                delay: delay)
        }

        /// A JSON body from Foundation objects.
        ///
        /// - Throws: a serialization error.
        public static func jsonObject(_ object: Any, status: HTTPStatus = .ok, delay: Duration = .zero) throws -> Stub {
            Stub(
                status: status, headers: ["Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), delay: delay)
        }

        /// A raw body.
        public static func data(
            _ data: Data, status: HTTPStatus = .ok, contentType: String = "application/octet-stream",
            delay: Duration = .zero
        ) -> Stub {
            Stub(status: status, headers: ["Content-Type": contentType], body: data, delay: delay)
        }

        /// A text body.
        public static func text(_ text: String, status: HTTPStatus = .ok, delay: Duration = .zero) -> Stub {
            Stub(
                status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8),
                delay: delay)
        }

        /// A failure.
        public static func failure(_ error: any Error, delay: Duration = .zero) -> Stub {
            Stub(delay: delay, error: error)
        }
    }

    private struct Entry {
        let matches: @Sendable (PreparedRequest, any Request) -> Bool
        let stub: Stub
    }

    private struct State {
        var entries: [Entry] = []
        var recorded: [PreparedRequest] = []
        var fallback: Stub
    }

    /// The queue callbacks run on.
    public let callbackQueue: DispatchQueue
    /// The base URL requests are resolved against.
    public let baseURL: URL
    private let state: Locked<State>

    /// Creates a mock dispatcher.
    ///
    /// - Parameters:
    ///   - baseURL: the base URL requests are resolved against.
    ///   - callbackQueue: the queue callbacks run on: the main queue by default, as in PiuPiu.
    ///   - fallback: the answer when no stub matches (404 by default).
    public init(
        baseURL: URL = URL(string: "https://mock.invalid")!, callbackQueue: DispatchQueue = .main,
        fallback: Stub = Stub(status: .notFound)
    ) {
        self.baseURL = baseURL
        self.callbackQueue = callbackQueue
        self.state = Locked(State(fallback: fallback))
    }

    /// Creates a mock dispatcher whose every answer is the mock response, as PiuPiu's
    /// `MockDispatcher(baseUrl:mockStatusCode:)`: that status, no body until
    /// `setMockData(_:)` gives one.
    ///
    /// - Parameters:
    ///   - baseUrl: the base URL requests are resolved against (nothing is sent to it).
    ///   - mockStatusCode: the status every request is answered with.
    ///   - callbackQueue: the queue callbacks run on (the main queue by default).
    public convenience init(baseUrl: URL, mockStatusCode: HTTPStatus = .ok, callbackQueue: DispatchQueue = .main) {
        self.init(baseURL: baseUrl, callbackQueue: callbackQueue, fallback: Stub(status: mockStatusCode))
    }

    // MARK: - The mock response (what answers when no stub matches)

    /// The answer when no stub matches.
    public var fallback: Stub {
        get { state.withLock { $0.fallback } }
        set { state.withLock { $0.fallback = newValue } }
    }

    /// The status of the mock response.
    public var mockStatusCode: HTTPStatus {
        get { fallback.status }
        set { state.withLock { $0.fallback.status = newValue } }
    }

    /// The body of the mock response.
    public var mockData: Data? {
        get { fallback.body }
        set { state.withLock { $0.fallback.body = newValue } }
    }

    /// The headers of the mock response.
    public var mockHeaders: HTTPHeaders {
        get { fallback.headers }
        set { state.withLock { $0.fallback.headers = newValue } }
    }

    /// An error every request fails with instead of the mock response, when set.
    public var mockError: (any Error)? {
        get { fallback.error }
        set { state.withLock { $0.fallback.error = newValue } }
    }

    /// Sets the mock response's body to raw bytes (its `Content-Type` is left as it is);
    /// `mockData = nil` removes it.
    ///
    /// - Parameter data: the body.
    public func setMockData(_ data: Data) {
        mockData = data
    }

    /// Sets the mock response's body to an `Encodable` value as JSON, and
    /// `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - codable: the value.
    ///   - encoder: the encoder (a fresh `JSONEncoder` by default).
    /// - Throws: `SerializationError.encodingFailed`.
    public func setMockData<Value: Encodable>(_ codable: Value, encoder: JSONEncoder = JSONEncoder()) throws {
        let data: Data
        do { data = try encoder.encode(codable) } catch {
            throw SerializationError.encodingFailed(reason: String(describing: error))
        }
        setJSON(data)
    }

    /// Sets the mock response's body to a JSON object (`nil` values are `null`), and
    /// `Content-Type: application/json`.
    ///
    /// - Parameter jsonObject: the object.
    /// - Throws: `SerializationError.encodingFailed` naming the member that is not JSON.
    public func setMockData(_ jsonObject: [String: Any?]) throws {
        setJSON(try JSONObjectEncoding.data(jsonObject))
    }

    /// Sets the mock response's body to a JSON array of objects (`nil` values are `null`), and
    /// `Content-Type: application/json`.
    ///
    /// - Parameter jsonArray: the array.
    /// - Throws: `SerializationError.encodingFailed` naming the member that is not JSON.
    public func setMockData(_ jsonArray: [[String: Any?]]) throws {
        setJSON(try JSONObjectEncoding.data(jsonArray))
    }

    private func setJSON(_ data: Data) {
        state.withLock { state in
            state.fallback.body = data
            state.fallback.headers["Content-Type"] = "application/json"
        }
    }

    /// Answers requests with this method (any when `nil`) and path (query ignored) with a stub;
    /// a later stub wins over an earlier one.
    ///
    /// - Parameters:
    ///   - method: the method to match, or `nil` for any.
    ///   - path: the request path to match, leading `/` optional.
    ///   - stub: the answer.
    public func stub(_ method: HTTPMethod? = nil, path: String, with stub: Stub) {
        let wanted = Self.normalize(path)
        self.stub(
            matching: { _, request in
                (method == nil || request.method == method) && Self.normalize(request.path) == wanted
            }, with: stub)
    }

    /// Answers requests a predicate accepts with a stub; a later stub wins over an earlier one.
    ///
    /// - Parameters:
    ///   - predicate: receives the prepared request and the request as given.
    ///   - stub: the answer.
    public func stub(matching predicate: @escaping @Sendable (PreparedRequest, any Request) -> Bool, with stub: Stub) {
        state.withLock { $0.entries.append(Entry(matches: predicate, stub: stub)) }
    }

    /// The requests sent so far, in order.
    public var recordedRequests: [PreparedRequest] { state.withLock { $0.recorded } }

    /// Forgets the recorded requests.
    public func clearRecordedRequests() { state.withLock { $0.recorded.removeAll() } }

    /// A lazy future answered from the stubs.
    ///
    /// - Parameter request: the request.
    /// - Returns: a future of the stubbed response.
    public func future(from request: any Request) -> ResponseFuture<Response<Data?>> {
        ResponseFuture(callbackQueue: callbackQueue) { future in
            let prepared: PreparedRequest
            do { prepared = try request.prepared(baseURL: self.baseURL) } catch { return future.fail(with: error) }
            let stub = self.state.withLock { state -> Stub in
                state.recorded.append(prepared)
                return state.entries.last { $0.matches(prepared, request) }?.stub ?? state.fallback
            }
            let respond: @Sendable (Date) -> Void = { started in
                if let error = stub.error { return future.fail(with: error) }
                future.succeed(
                    with: Response(
                        statusCode: stub.status, headers: stub.headers, data: stub.body, request: prepared,
                        timings: ResponseTimings(
                            started: started, headReceived: Date(), finished: Date(),
                            bytesReceived: stub.body?.count ?? 0)))
            }
            // Without a delay, the answer is there at once: no Task to wait for.
            guard stub.delay > .zero else { return respond(Date()) }
            let task = Task {
                let started = Date()
                do { try await Task.sleep(for: stub.delay) } catch { return future.cancel() }
                respond(started)
            }
            future.onCancel { task.cancel() }
        }
    }

    private static func normalize(_ path: String) -> String {
        var path =
            path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        while path.hasPrefix("/") { path.removeFirst() }
        return path
    }
}
