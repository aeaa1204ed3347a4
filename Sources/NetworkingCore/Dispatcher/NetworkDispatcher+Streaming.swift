import Foundation

extension NetworkDispatcher {
    /// Sends a request and answers as soon as its head has arrived; the body follows as a
    /// back-pressured `AsyncSequence` of chunks (`StreamedResponse.body`).
    ///
    /// Request adapters, event monitors, the cookie jar and the challenge handler run as for `future(from:)`
    /// (a 401 answered with credentials is dropped unread); a streamed body is read once, so
    /// the retry policy and response adapters do not apply.
    ///
    /// ```swift
    /// let streamed = try await dispatcher.stream(from: BasicRequest(path: "/feed"))
    /// for try await event in streamed.body.serverSentEvents { print(event.data) }
    /// ```
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: deadlines and body limits (the dispatcher's when `nil`).
    /// - Returns: the head, with the body still arriving.
    /// - Throws: `TransportError` and adapter errors, for anything before the head.
    public func stream(from request: any Request, options: TransferOptions? = nil) async throws -> StreamedResponse {
        try await stream(try await prepareForStreaming(request), options: options).0
    }

    /// The prepared request with the jar's cookies, and whether it had a `Cookie` of its own.
    private func prepareForStreaming(_ request: any Request) async throws -> (request: PreparedRequest, ownCookie: Bool)
    {
        guard let provider = serverProvider else { throw TransportError.serverProviderReleased }
        guard let baseURL = provider.baseURL else { throw TransportError.missingBaseURL }
        var prepared = try request.prepared(baseURL: baseURL)
        for adapter in requestAdapters { prepared = try await adapter.adapt(prepared) }
        return (withCookies(prepared), prepared.headers.contains("Cookie"))
    }

    /// Streams a prepared request, answering a 401's challenge when the challenge handler
    /// can; returns the response that is delivered and the request that produced it.
    private func stream(_ prepared: (request: PreparedRequest, ownCookie: Bool), options: TransferOptions?) async throws
        -> (StreamedResponse, PreparedRequest)
    {
        var request = prepared.request
        var answers = 0
        let options = transferOptions(options ?? self.options, ownCookie: prepared.ownCookie)
        while true {
            for monitor in eventMonitors { monitor.requestWillSend(request) }
            let streamed: StreamedResponse
            do {
                streamed = try await transport.stream(request, options: options)
            } catch {
                for monitor in eventMonitors { monitor.request(request, didFailWith: error) }
                throw error
            }
            keepCookies(of: streamed.head.headers, from: streamed.url)
            guard answers < Self.maximumChallengeAnswers, let handler = challengeHandler,
                let answered = try await handler.answer(streamed.head, to: request)
            else { return (streamed, request) }
            // The 401's body is not wanted: close it so its connection is not left half-read.
            streamed.body.cancel()
            answers += 1
            request = answered
        }
    }

    /// The callback form of `stream(from:options:)`: a lazy future of the response (its body
    /// `nil`), with the head and each chunk handed to callbacks on the callback queue as they
    /// arrive.
    ///
    /// The next chunk is read only after `chunk` has returned for the previous one, so a slow
    /// callback slows the transfer instead of filling memory. Cancelling the future closes the
    /// connection.
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - options: deadlines and body limits (the dispatcher's when `nil`).
    ///   - head: called once with the status and headers, before any chunk.
    ///   - chunk: called with each chunk, in order.
    /// - Returns: a future of the response, completed when the body has ended.
    public func streamingFuture(
        from request: any Request, options: TransferOptions? = nil,
        head: @escaping @Sendable (ResponseHead) -> Void, chunk: @escaping @Sendable (Data) -> Void
    ) -> ResponseFuture<Response<Data?>> {
        let queue = callbackQueue
        return ResponseFuture(callbackQueue: queue) { future in
            let task = Task {
                let started = Date()
                do {
                    let (streamed, prepared) = try await self.stream(
                        try await self.prepareForStreaming(request), options: options)
                    await Self.hop(to: queue) { head(streamed.head) }
                    var count = 0
                    for try await piece in streamed.body {
                        count += piece.count
                        await Self.hop(to: queue) { chunk(piece) }
                    }
                    future.succeed(
                        with: Response<Data?>(
                            statusCode: streamed.head.status, headers: streamed.head.headers, data: nil,
                            request: prepared,
                            url: streamed.url, httpVersion: streamed.head.httpVersion,
                            timings: ResponseTimings(
                                started: started, headReceived: streamed.headReceived, finished: Date(),
                                bytesReceived: count, redirects: streamed.redirects)))
                } catch {
                    future.fail(with: Task.isCancelled ? TransportError.cancelled : error)
                }
            }
            future.onCancel { task.cancel() }
        }
    }

    /// Runs work on a queue and waits for it.
    private static func hop(to queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                work()
                continuation.resume()
            }
        }
    }
}
