import ArgumentParser
import Foundation
import History
import NetworkingCore
import Query
import Workspace

/// Sends one exchange for the CLI, records it, prints it and ends with the right exit code.
///
/// Shared by `explorer send` and `explorer history resend`. The request goes through a
/// `NetworkDispatcher` whose server provider is the environment, over the async-http-client
/// transport; a transport failure is recorded too (status `nil`, its sentence kept).
struct ExchangeSender {
    /// The idle timeout in seconds (`--timeout`), or `nil` for the transport's default.
    var timeout: Double?
    /// The total deadline in seconds (`--max-time`), or `nil` for the transport's default.
    var maxTime: Double?
    /// The body limit in bytes (`--max-body`), or `nil` for the default 2 GiB.
    var maxBody: Int?
    /// The environment's cookies, sent and kept; `nil` with `--no-cookies` or `cookies: false`.
    var cookieJar: CookieJar?
    /// The environment's `tls:` settings (checked to read by `useTLS`).
    var tls: TLSSettings?
    /// The environment's `proxy:` (set by `useProxy`); `nil`: the process's proxy variables.
    var proxy: AsyncHTTPClientTransport.Configuration.Proxy?
    /// The most redirects followed (`--max-redirs`), or `nil` for the default 10.
    var maxRedirects: Int?
    /// `false` with `--no-follow`: the first redirect is the answer.
    var followsRedirects = true
    /// `host:port` to the address connected to: the environment's `resolve:` and the
    /// `--resolve` flags (which win), set by `useProxy`.
    var resolve: [String: String] = [:]
    /// The `--resolve` flags alone, `host:port` to address.
    var resolveFlags: [String: String] = [:]
    /// The environment's `proxy_tunnel:` (set by `useProxy`).
    var proxyTunnel = false

    /// A sender with these limits (`nil`: the transport's defaults).
    init(timeout: Double?, maxTime: Double? = nil, maxBody: Int? = nil) {
        self.timeout = timeout
        self.maxTime = maxTime
        self.maxBody = maxBody
    }

    /// A sender with the limits the output options name.
    init(_ output: ExchangeOutputOptions) {
        timeout = output.timeout
        maxTime = output.maxTime
        maxBody = output.maxBodyBytes
        maxRedirects = output.maxRedirs
        followsRedirects = !output.noFollow
        resolveFlags = output.resolveEntries
        resolve = resolveFlags
    }

    /// What will be sent: a resolved endpoint of a collection, or a stored raw request.
    struct Plan {
        /// The two ways an exchange is described.
        enum Target {
            /// An endpoint resolved in its environment (sent through the dispatcher).
            case resolved(ResolvedRequest)
            /// A request with an absolute URL, as history stored it (no collection to resolve from).
            case raw(PreparedRequest)
        }

        /// What is sent.
        var target: Target
        /// The collection file, if any.
        var collectionPath: String?
        /// Secret values to mask in history.
        var secrets: [String]

        /// Resolves an endpoint of a collection file in an environment.
        ///
        /// - Parameters:
        ///   - url: the collection file.
        ///   - endpoint: the endpoint's address (`Folder/Name` or a unique `Name`).
        ///   - environment: the environment's name, or `nil` for the collection's first.
        ///   - overrides: `--var` values.
        /// - Returns: the plan.
        /// - Throws: `ExitCode(2)` after one sentence on stderr for any collection, lookup or
        ///   variable error.
        static func fromCollection(
            at url: URL, endpoint: String, environment: String?, overrides: [String: String]
        ) throws -> Plan {
            let collection = try CollectionLocation.load(url)
            let (found, chosen) = try lookUp(endpoint, environment: environment, in: collection)
            return try resolving(found, in: collection, environment: chosen, overrides: overrides)
        }

        /// Finds an endpoint and the environment to send it in (the collection's first when
        /// none is named).
        ///
        /// - Throws: `ExitCode(2)` after one sentence on stderr when either is not found.
        static func lookUp(_ endpoint: String, environment: String?, in collection: APICollection) throws -> (
            Endpoint, Environment
        ) {
            do {
                let found = try collection.endpoint(named: endpoint)
                guard
                    let chosen = try environment.map({ try collection.requireEnvironment(named: $0) })
                        ?? collection.environments.first
                else {
                    printError(
                        "The endpoint \"\(found.id)\" cannot be sent: the collection "
                            + "has no environment (add one with a base_url)."
                    )
                    throw ExitCode(2)
                }
                return (found, chosen)
            } catch let exit as ExitCode {
                throw exit
            } catch {
                printError(sentence(describing: error))
                throw ExitCode(2)
            }
        }

        /// Resolves an endpoint in an environment, with the variables captured there before.
        ///
        /// - Throws: `ExitCode(2)` after one sentence on stderr for a variable error.
        static func resolving(
            _ endpoint: Endpoint, in collection: APICollection, environment: Environment, overrides: [String: String]
        ) throws -> Plan {
            do {
                environment.setOverrides(overrides)
                let captured = CaptureStore().variables(collection: collection.storeKey, environment: environment.name)
                let resolved = try RequestResolver.asking.resolve(
                    endpoint, in: collection, environment: environment, overrides: overrides, captured: captured)
                return Plan(
                    target: .resolved(resolved), collectionPath: collection.storeKey,
                    secrets: resolved.masker.secretValues)
            } catch {
                printError(sentence(describing: error))
                throw ExitCode(2)
            }
        }

        /// The request method.
        var method: HTTPMethod {
            switch target {
            case .resolved(let resolved): resolved.request.method
            case .raw(let request): request.method
            }
        }

        /// The URL as it may be shown (secrets masked).
        var displayURL: String {
            switch target {
            case .resolved(let resolved): resolved.maskedURL
            case .raw(let request): request.url.absoluteString
            }
        }

        /// Asks before a non-GET request to a protected environment: on a terminal with a
        /// prompt, else only `--yes` lets it through.
        ///
        /// - Parameter yes: whether `--yes` was given.
        /// - Throws: `ExitCode(2)` without `--yes` when stdin is not a terminal; `ExitCode(1)`
        ///   when the prompt is declined.
        func confirmIfProtected(yes: Bool) throws {
            guard case .resolved(let resolved) = target else { return }
            try Self.confirm(method, displayURL, in: resolved.environment, yes: yes)
        }

        /// Asks before a non-GET request to a protected environment (see `confirmIfProtected`).
        ///
        /// - Throws: `ExitCode(2)` without `--yes` off a terminal; `ExitCode(1)` when declined.
        static func confirm(_ method: HTTPMethod, _ displayURL: String, in environment: Environment, yes: Bool) throws {
            guard environment.isProtected, method != .get, !yes else { return }
            let name = environment.name
            guard ExchangeOutput.stdinIsTerminal else {
                printError(
                    "The environment \"\(name)\" is protected: add --yes to send "
                        + "\(method) \(displayURL) without a prompt."
                )
                throw ExitCode(2)
            }
            writeStandardError(
                ExchangeOutput.escapingControls(
                    "Send \(method) \(displayURL) to the protected environment \"\(name)\"? [y/N] "))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                printError("Not sent: the request to the protected environment \"\(name)\" was not confirmed.")
                throw ExitCode(1)
            }
        }
    }

    // MARK: - Running

    /// Sends, records, prints, and ends with the exit code the issue fixes.
    ///
    /// - Parameters:
    ///   - plan: what to send.
    ///   - recorder: where to record the exchange (`nil` with `--no-history`).
    ///   - output: how to print it.
    /// - Throws: `ExitCode` 1 (transport failure), 4 or 5 (with `--check-status`); returns
    ///   normally for exit code 0.
    func run(_ plan: Plan, recorder: HistoryRecorder?, output: ExchangeOutputOptions) async throws {
        if output.streams {
            return try await stream(plan, recorder: recorder, output: output)
        }
        var entry = await send(plan)
        entry.collectionPath = plan.collectionPath
        printNotes(for: entry)
        // The jar's cookies for the URL, those the answer set included, are credentials too.
        let secrets = plan.secrets + (cookieJar?.cookieValues(for: entry.url) ?? [])
        guard output.json else {
            // The output does not show the id: print first, so a slow history never delays it.
            defer { recorder?.record(entry, secrets: secrets) }
            try Self.finish(entry, historyId: nil, output: output)
            return
        }
        let historyId = recorder?.record(entry, secrets: secrets)
        try Self.finish(entry, historyId: historyId, output: output)
    }

    /// Prints an exchange and throws the exit code it calls for.
    ///
    /// - Parameters:
    ///   - entry: the exchange.
    ///   - historyId: its id in the history, if recorded.
    ///   - output: how to print it.
    /// - Throws: `ExitCode` 1, 4 or 5; returns for exit code 0.
    static func finish(_ entry: HistoryEntry, historyId: Int64?, output: ExchangeOutputOptions) throws {
        let terminal = ExchangeOutput.stdoutIsTerminal
        if output.json {
            ExchangeOutput.writeJSON(of: entry, historyId: historyId)
        } else if entry.transportError == nil {
            if output.include { ExchangeOutput.write(ExchangeOutput.head(of: entry, terminal: terminal)) }
            try writeBody(entry, filter: output.jsonPath, terminal: terminal)
        }
        if let failure = entry.transportError {
            printError(failure)
            throw ExitCode(1)
        }
        try checkStatus(entry, output: output)
    }

    /// Prints the response body, or with `--filter` the JSON array of what the query selects
    /// in it (RFC 9535's nodelist, in its order).
    ///
    /// - Throws: `ExitCode(1)` after one sentence on stderr when the body is not JSON.
    static func writeBody(_ entry: HistoryEntry, filter: JSONPath?, terminal: Bool) throws {
        guard let filter else {
            ExchangeOutput.writeBody(entry.responseBody, contentType: entry.contentType, terminal: terminal)
            return
        }
        do {
            let body = entry.responseBody ?? Data()
            let maximumDepth = DocumentLimits.current.maxDepth
            // Child names, indices, slices and wildcards are found in one pass over the body's
            // bytes and written from them (`JSONPath.isStreamable`); other queries parse a tree.
            if let streamed = try filter.streamedMatches(in: body, maximumDepth: maximumDepth) {
                streamed.write { ExchangeOutput.write($0) }
            } else {
                // Written a piece at a time: a large selection is never held as text whole.
                let selected = try filter.matches(in: body, maximumDepth: maximumDepth)
                JSONValue.array(selected).write(pretty: true) { ExchangeOutput.write($0) }
            }
            ExchangeOutput.write("\n")
        } catch {
            printError("--filter \(filter.description): \(JSONPath.failure(error).description)")
            throw ExitCode(1)
        }
    }

    /// Throws the exit code `--check-status` calls for (4 for a 4xx or a GraphQL response with
    /// `errors`, 5 for a 5xx), after a sentence on stderr.
    ///
    /// - Parameters:
    ///   - entry: the exchange.
    ///   - output: the output options.
    /// - Throws: `ExitCode` 4 or 5.
    static func checkStatus(_ entry: HistoryEntry, output: ExchangeOutputOptions) throws {
        try checkGraphQLErrors(entry, output: output)
        guard output.checkStatus, let status = entry.status else { return }
        switch status {
        case 400..<500:
            printError(
                "The server answered \(status) \(entry.reason ?? "") for \(entry.method) \(entry.url)."
                    .replacingOccurrences(of: "  ", with: " "))
            throw ExitCode(4)
        case 500..<600:
            printError(
                "The server answered \(status) \(entry.reason ?? "") for \(entry.method) \(entry.url)."
                    .replacingOccurrences(of: "  ", with: " "))
            throw ExitCode(5)
        default:
            return
        }
    }

    /// Sends the plan's request and describes the outcome as a history entry (never throws:
    /// a transport failure is an entry with `transportError` set).
    ///
    /// - Parameter plan: what to send.
    /// - Returns: the exchange, request secrets masked, bodies whole.
    func send(_ plan: Plan) async -> HistoryEntry {
        let transport = AsyncHTTPClientTransport(configuration: transportConfiguration)
        let entry = await send(plan, through: transport)
        try? await transport.shutdown()
        return entry
    }

    /// Sends the plan's request through a transport the caller keeps (and shuts down), so a
    /// run of many requests reuses its connections.
    ///
    /// - Parameters:
    ///   - plan: what to send.
    ///   - transport: the transport.
    /// - Returns: the exchange, request secrets masked, bodies whole.
    func send(_ plan: Plan, through transport: AsyncHTTPClientTransport) async -> HistoryEntry {
        let options = transferOptions
        let started = Date()
        var entry: HistoryEntry
        switch plan.target {
        case .resolved(let resolved):
            entry = await HistoryEntry.sending(
                resolved, through: transport, options: options, collectionPath: plan.collectionPath,
                cookieJar: cookieJar, oauth2Prompt: Self.showOAuth2Prompt, describe: { failureSentence(for: $0) })
        case .raw(let request):
            entry = HistoryEntry(
                startedAt: started, method: request.method.rawValue, url: request.url.absoluteString,
                requestHeaders: request.headers, requestBody: request.body)
            do {
                let response = try await transport.send(request, options: options) { _ in }
                let timings = ResponseTimings(
                    started: started, headReceived: response.headReceived, finished: response.finished ?? Date(),
                    bytesReceived: response.bytesReceived, redirects: response.redirects)
                entry.fill(
                    status: response.status, headers: response.headers, body: response.body,
                    httpVersion: response.httpVersion, timings: timings)
            } catch {
                entry.fail(failureSentence(for: error), started: started)
            }
        }
        return entry
    }

    /// The transport's configuration: `--timeout` is the idle (read) timeout and bounds the
    /// connect time; `--max-time` bounds the connect time too.
    var transportConfiguration: AsyncHTTPClientTransport.Configuration {
        var configuration = AsyncHTTPClientTransport.Configuration()
        for limit in [timeout, maxTime].compactMap({ $0 }) {
            let duration = Duration.milliseconds(Int64((limit * 1000).rounded()))
            configuration.connectTimeout = min(configuration.connectTimeout, duration)
        }
        if let timeout {
            configuration.readTimeout = .milliseconds(Int64((timeout * 1000).rounded()))
        }
        // Checked to read by useTLS before anything is sent.
        if let tls { try? configuration.apply(tls) }
        if let proxy { configuration.proxy = proxy }
        configuration.resolve = resolve
        configuration.proxyTunnel = proxyTunnel
        return configuration
    }

    /// Reports a usage error as one sentence on stderr and gives the exit code for it (2).
    ///
    /// - Parameter sentence: what was wrong and what to do.
    /// - Returns: `ExitCode(2)`, to throw.
    /// Tells the user on stderr what an interactive OAuth2 grant needs them to do, opening the
    /// URL in a browser when there is one.
    @Sendable static func showOAuth2Prompt(_ prompt: OAuth2Prompt) {
        let opened = Browser.open(prompt.url)
        printError(prompt.instructions(opened: opened))
    }

    static func usageError(_ sentence: String) -> ExitCode {
        printError(sentence)
        return ExitCode(2)
    }
}
