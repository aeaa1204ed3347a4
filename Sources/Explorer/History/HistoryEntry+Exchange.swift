import Checks
import Foundation
import NetworkingCore
import Workspace

extension HistoryEntry {
    /// A new entry for a resolved request about to be sent: secrets masked, no response yet.
    package init(sending resolved: ResolvedRequest, startedAt: Date, collectionPath: String?) {
        let masked = resolved.masked
        self.init(
            startedAt: startedAt, collectionPath: collectionPath, environment: resolved.environment.name,
            endpoint: resolved.endpoint.id, method: resolved.request.method.rawValue, url: resolved.maskedURL,
            requestHeaders: masked.headers, requestBody: masked.httpBody,
            requestBodySize: resolved.request.httpBody?.count)
    }

    /// Fills in the response: status, headers, body, timings.
    package mutating func fill(
        status: HTTPStatus, headers: HTTPHeaders, body: Data?, httpVersion: String, timings: ResponseTimings
    ) {
        self.status = status.code
        // The server's own phrase is not read (the HTTP/1.1 parser drops it): a code no RFC
        // names has no reason rather than an invented one ("Unknown Status").
        reason = status.namedReasonPhrase
        responseHeaders = headers
        responseBody = body
        responseBodySize = body?.count ?? 0
        contentType = headers["Content-Type"]
        self.httpVersion = httpVersion
        self.timings = HistoryTimings(
            totalMilliseconds: (timings.total ?? Date().timeIntervalSince(timings.started)) * 1000,
            headMilliseconds: timings.timeToHead.map { $0 * 1000 }, redirects: HistoryRedirect.chain(timings.redirects))
    }

    /// Masks the request's secrets in the redirect chain's URLs (the first hop is the request's
    /// own URL, which may carry an API key), as the entry's own URL is.
    package mutating func maskRedirects(with masker: SecretMasker) {
        timings.redirects = timings.redirects.map { hop in
            var hop = hop
            hop.url = masker.mask(hop.url)
            hop.location = masker.mask(hop.location)
            return hop
        }
    }

    /// Fills in the response from a dispatcher's response.
    package mutating func fill(_ response: Response<Data?>) {
        fill(
            status: response.statusCode, headers: response.headers, body: response.body,
            httpVersion: response.httpVersion, timings: response.timings)
    }

    /// Marks the exchange failed without a response.
    package mutating func fail(_ sentence: String, started: Date) {
        transportError = sentence
        timings = HistoryTimings(totalMilliseconds: Date().timeIntervalSince(started) * 1000)
    }
}

extension HistoryEntry {
    /// Sends a resolved request and waits for its whole response (no streaming), describing
    /// the outcome as an entry: what `explorer send`, `explorer run` and the TUI's runner and
    /// prerequisites keep. Never throws: a transport failure is an entry with
    /// `transportError` set.
    ///
    /// - Parameters:
    ///   - resolved: the request, resolved in its environment (the server provider).
    ///   - transport: the transport, kept by the caller so a run reuses its connections.
    ///   - options: deadlines and body limits.
    ///   - collectionPath: the collection file, if any.
    ///   - cookieJar: the environment's cookies, sent and kept (`nil`: none).
    ///   - describe: the sentence for a failure (the CLI names its flags).
    /// - Returns: the exchange, request secrets masked, bodies whole.
    package static func sending(
        _ resolved: ResolvedRequest, through transport: any HTTPTransport, options: TransferOptions,
        collectionPath: String?,
        cookieJar: CookieJar? = nil, oauth2Prompt: @escaping @Sendable (OAuth2Prompt) -> Void = { _ in },
        describe: (any Error) -> String = { sentence(describing: $0) }
    ) async -> HistoryEntry {
        let started = Date()
        var entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: collectionPath)
        let dispatcher = resolved.dispatcher(
            transport: transport, callbackQueue: .global(qos: .userInitiated), cookieJar: cookieJar,
            prompt: oauth2Prompt)
        do {
            entry.fill(try await dispatcher.future(from: resolved.request, options: options).value)
            entry.maskRedirects(with: resolved.masker)
        } catch {
            entry.fail(describe(error), started: started)
        }
        withExtendedLifetime(resolved.environment) {}
        return entry
    }
}

extension HistoryEntry {
    /// What checks read from this exchange, or `nil` when no response came.
    package var checkedResponse: CheckedResponse? {
        guard let status, transportError == nil else { return nil }
        return CheckedResponse(
            status: status, headers: responseHeaders, body: responseBody ?? Data(),
            durationMilliseconds: timings.totalMilliseconds)
    }
}

extension SequenceStep where Record == HistoryEntry {
    /// `200 OK, 5/5 checks`, or why no response came (the CLI's and the TUI's line for a step).
    package var statusText: String {
        if let problem = resolveError { return problem }
        guard let entry = exchange?.record, let status = entry.status else { return exchange?.failure ?? "no response" }
        let checks = report.summary.map { ", \($0)" } ?? ""
        return "\(status) \(entry.reason ?? "")".trimmingCharacters(in: .whitespaces) + checks
    }
}
