import Checks
import Dispatch
import Foundation
import GRPCSupport
import GraphQLSupport
import History
import NetworkingCore
import Query
import Workspace

/// Sends the TUI's exchanges: resolves a plan, waits for what must come first (the
/// collection's `openapi:` document named by URL, the GraphQL schema a query is validated
/// against), sends the request through a dispatcher whose server provider is its environment,
/// streams the body to the screen as it arrives, checks the complete response and records it.
package final class ExchangeSending: Sendable {
    /// How much of a sent request's body an exchange keeps to show in its Request tab.
    package static let requestBodyBytes = 1 << 20

    let transports: TransportPool
    let cookies: CookieJars
    let contracts: ContractCache
    let schemas: GraphQLSchemas
    let tasks: ExchangeTasks
    let history: HistoryRecorder?
    let collectionPath: String?
    let limits: ResponseLimits
    /// Where bodies are laid out, off the main queue and the effects queue.
    let work: DispatchQueue
    /// Where history rows and cookie jars are written, one after another.
    let recording: DispatchQueue
    let webSockets = WebSocketSessions()
    /// The gRPC schemas read in this session, per server and collection files.
    let grpcSchemas = GRPCSchemaCache()
    /// The open bidirectional gRPC calls, for the messages typed in.
    let grpcStreams = GRPCStreams()

    package init(
        transports: TransportPool, cookies: CookieJars, contracts: ContractCache, schemas: GraphQLSchemas,
        tasks: ExchangeTasks, history: HistoryRecorder?, collectionPath: String?, limits: ResponseLimits,
        work: DispatchQueue, recording: DispatchQueue
    ) {
        self.transports = transports
        self.cookies = cookies
        self.contracts = contracts
        self.schemas = schemas
        self.tasks = tasks
        self.history = history
        self.collectionPath = collectionPath
        self.limits = limits
        self.work = work
        self.recording = recording
    }

    /// What tells the user a sentence in the message line.
    static func message(_ send: @escaping @Sendable (AppAction) -> Void) -> @Sendable (String, Bool) -> Void {
        { sentence, isError in send(.message(sentence, isError: isError)) }
    }

    /// What tells the user an error sentence in the message line.
    static func error(_ send: @escaping @Sendable (AppAction) -> Void) -> @Sendable (String) -> Void {
        { sentence in send(.message(sentence, isError: true)) }
    }

    /// Resolves and sends exchange `id`; a resolution that stops at an unanswered prompt
    /// asks it, one that fails says why.
    package func resolveAndSend(_ id: Int, _ plan: RequestPlan, send: @escaping @Sendable (AppAction) -> Void) {
        let resolved: ResolvedRequest
        do {
            resolved = try plan.resolve()
        } catch {
            if let prompt = UnansweredPrompt(stoppedAt: error) {
                send(.promptsNeeded(.exchange(id), [prompt]))
            } else {
                send(.resolveFailed(exchange: id, sentence(describing: error)))
            }
            return
        }
        var preview = RequestPreview(resolved, key: nil, bodyLimit: Self.requestBodyBytes)
        preview.proxy = transports.proxyNote(for: resolved.environment, url: resolved.url)
        send(.resolved(exchange: id, preview))
        if resolved.endpoint.isWebSocket(resolvedURL: resolved.url) { return openWebSocket(id, resolved, send: send) }
        if resolved.endpoint.isGRPC { return callGRPC(id, resolved, collection: plan.collection, send: send) }
        guard case .ready(let validation) = contracts.known(for: plan.collection, report: Self.message(send)) else {
            // The document is named by URL and not fetched yet: the request waits for it (once
            // per session), and a cancel meanwhile stops it before it goes out.
            let task = Task { [weak self] in
                let validation = await self?.contracts.validation(for: plan.collection, report: Self.message(send))
                guard let self, !Task.isCancelled else { return }
                tasks.done(.exchange(id))
                sendChecked(id, resolved, validation: validation.flatMap { $0 }, send: send)
            }
            tasks.started(.exchange(id), task)
            return
        }
        sendChecked(id, resolved, validation: validation, send: send)
    }

    /// Sends a resolved request whose response is checked against `validation`.
    private func sendChecked(
        _ id: Int, _ resolved: ResolvedRequest, validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        if schemas.validates, resolved.graphQLDocument != nil {
            return validateAndSend(id, resolved, validation: validation, send: send)
        }
        sendRequest(id, resolved, validation: validation, send: send)
    }

    /// Validates a GraphQL request against its schema (cached, else fetched) and sends it when
    /// it is valid, or when no schema can be had (with a warning); a document with problems
    /// is not sent, and the problems, at the file's lines and columns, say why.
    private func validateAndSend(
        _ id: Int, _ resolved: ResolvedRequest, validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        let source: GraphQLSchemaSource
        do {
            source = try schemas.source(for: resolved.environment)
        } catch {
            return sendRequest(id, resolved, validation: validation, send: send)
        }
        let task = Task { [weak self] in
            let verdict = await source.validate(resolved)
            guard let self, !Task.isCancelled else { return }
            tasks.done(.exchange(id))
            switch verdict {
            case .invalid(let problems, let schema):
                send(.resolveFailed(exchange: id, GraphQLSchemas.invalidText(problems, schema: schema)))
                return
            case .unchecked(let sentence):
                send(.message("\(sentence) Sent without validation.", isError: false))
            case .notGraphQL, .valid:
                break
            }
            sendRequest(id, resolved, validation: validation, send: send)
        }
        tasks.started(.exchange(id), task)
    }

    private func sendRequest(
        _ id: Int, _ resolved: ResolvedRequest, validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        let started = Date()
        // The body streams in on its own serial queue: the first lines are shown from the first
        // chunk, and a slow screen never holds more than the transport's buffer.
        let queue = DispatchQueue(label: "explorer.response-\(id)", qos: .userInitiated)
        let jar = cookies.jar(for: resolved, report: Self.error(send))
        let transport: AsyncHTTPClientTransport
        do {
            transport = try transports.transport(for: resolved.environment)
        } catch {
            // A proxy: that cannot be used is a sentence that starts with the setting's file:line:column.
            send(
                .resolveFailed(
                    exchange: id,
                    error is TLSSettings.Failure
                        ? "The environment \"\(resolved.environment.name)\" cannot be used: "
                            + sentence(describing: error)
                        : String(describing: error)))
            return
        }
        let dispatcher = resolved.dispatcher(
            transport: transport, callbackQueue: queue, cookieJar: jar, prompt: OAuth2Tokens.prompt(send: send))
        let keepCookies = cookies.saving(jar, of: resolved, report: Self.error(send))
        let environment = resolved.environment
        let collectionPath = self.collectionPath
        let history = self.history
        let limits = self.limits
        let secrets = resolved.masker.secretValues
        let live = LiveBodySlot()
        let future = dispatcher.streamingFuture(
            from: resolved.request, options: limits.transferOptions,
            head: { head in
                live.body = LiveBody(head: head, started: started)
                send(.progress(exchange: id, bytes: 0, head: head))
            },
            chunk: { [work] chunk in
                guard let body = live.body, body.append(chunk, at: Date()) else { return }
                send(.progress(exchange: id, bytes: body.byteCount))
                guard !live.laying else { return }
                live.laying = true
                let frame = body.frame(isComplete: false)
                work.async {
                    send(.streamed(exchange: id, frame.snapshot()))
                    queue.async { live.laying = false }
                }
            })
        tasks.inFlight(id, future)
        future
            .response { [work, recording] response in
                // The indexes built as the bytes arrived: the complete body takes no second pass.
                let frame = live.body?.frame(isComplete: true)
                work.async {
                    var complete = response
                    complete.body = frame?.data
                    send(
                        .received(
                            exchange: id,
                            ResponseSnapshot.make(
                                complete, document: frame?.document, followsRedirects: resolved.followsRedirects)))
                    let report = Self.check(
                        complete, of: resolved, validation: validation, send: { send(.checked(exchange: id, $0)) })
                    let captured = report?.captured.filter(\.isSecret).map(\.value) ?? []
                    var entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: collectionPath)
                    entry.fill(complete)
                    entry.checks = report
                    recording.async { [entry] in
                        keepCookies()
                        // The jar's cookies for the URL, those the answer set included, are credentials too.
                        let cookies = jar?.cookieValues(for: entry.url) ?? []
                        if let historyID = history?.record(entry, secrets: secrets + captured + cookies) {
                            send(.recorded(exchange: id, historyID: historyID))
                        }
                    }
                }
            }
            .error { [recording] error in
                if let transportError = error as? TransportError, transportError == .cancelled { return }
                var entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: collectionPath)
                if let body = live.body {
                    // Stopped after the head (a limit, the deadline, a cut): what arrived stays.
                    send(.streamed(exchange: id, body.snapshot(isComplete: false)))
                    entry.fill(
                        status: body.head.status, headers: body.head.headers, body: body.body,
                        httpVersion: body.head.httpVersion,
                        timings: ResponseTimings(
                            started: started, headReceived: body.headReceived, finished: Date(),
                            bytesReceived: body.byteCount))
                }
                send(.failed(exchange: id, TransportFailure(error, limits: limits)))
                entry.fail(sentence(describing: error), started: started)
                // Off the main queue: a busy database can make a write wait for seconds.
                recording.async { [entry] in
                    keepCookies()
                    if let historyID = history?.record(
                        entry, secrets: secrets + (jar?.cookieValues(for: entry.url) ?? []))
                    {
                        send(.recorded(exchange: id, historyID: historyID))
                    }
                }
            }
            .completion { [tasks] in
                withExtendedLifetime(environment) {}
                tasks.finished(id)
            }
            .send()
    }

    /// Runs the endpoint's assertions and captures on a complete response, and the check
    /// against the collection's OpenAPI document; keeps what it captured in the state folder
    /// for the next requests, and reports the result.
    ///
    /// - Returns: the report, for the history (`nil` when nothing was checked).
    private static func check(
        _ response: Response<Data?>, of resolved: ResolvedRequest, validation: ResponseValidation?,
        send: (CheckReport) -> Void
    ) -> CheckReport? {
        let endpoint = resolved.endpoint
        let facts = CheckedResponse(
            status: response.statusCode.code, headers: response.headers, body: response.body ?? Data(),
            durationMilliseconds: (response.timings.total ?? 0) * 1000)
        var schema = validation?.check(resolved, response: facts)
        if var found = schema, found.violations.contains(where: { $0.kind == .body }),
            let tree = try? JSONValue(parsing: facts.body)
        {
            // Where the Schema tab's Enter shows each place in the Body tab.
            for violation in found.violations where violation.kind == .body {
                found.bodyLines[violation.instancePointer] = JSONPrettyPrinter.line(
                    of: violation.instancePointer, in: tree)
            }
            schema = found
        }
        guard endpoint.hasChecks || schema != nil else { return nil }
        let report = endpoint.check(
            facts, secretNames: resolved.environment.secrets, expand: resolved.expand, schema: schema)
        send(report)
        guard !report.captured.isEmpty else { return report }
        let now = Date()
        var values: [String: CapturedVariable] = [:]
        for capture in report.captured {
            values[capture.name] = CapturedVariable(
                value: capture.value, endpoint: endpoint.id, capturedAt: now, isSecret: capture.isSecret,
                origin: CapturedVariable.origin(of: resolved.baseURL))
        }
        try? CaptureStore().store(values, collection: resolved.collectionKey, environment: resolved.environment.name)
        return report
    }
}
