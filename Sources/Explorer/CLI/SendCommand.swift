import App
import ArgumentParser
import Foundation
import History
import NetworkingCore
import Query
import Workspace

/// `explorer send ENDPOINT ...`: sends one endpoint of a collection, headless.
///
/// Exit codes: 0 for any response (or only 2xx/3xx with `--check-status`), 4 for 4xx and 5 for
/// 5xx with `--check-status`, 1 for a transport failure, 2 for usage and collection errors, 3
/// when an assertion fails.
struct SendCommand: AsyncParsableCommand, CollectionOptionsHelp {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send one endpoint of a collection and print the response.",
        discussion: """
            The body is printed (pretty JSON on a terminal, raw bytes when piped). Exit codes: \
            0 for a response, 1 for a transport failure, 2 for usage and collection errors, \
            3 when an assert: of the endpoint fails (or, with --validate, the response breaks its \
            operation in the collection's openapi: document); with --check-status, 4 for a 4xx and 5 for a \
            5xx status (the body is still printed). Values the endpoint captures are kept for \
            later requests in the same environment; the endpoints it requires are sent first \
            when what they capture is missing. A gRPC endpoint (grpc:) prints each response message \
            as JSON as it arrives; a status other than OK is one line on stderr and exit code 64 + its \
            code, as grpcurl's (69 for NOT_FOUND, 76 for UNIMPLEMENTED).
            """
    )

    @Argument(help: "The endpoint, as Folder/Name or Name when unique.", completion: EndpointCompletion.kind())
    var endpoint: String

    @OptionGroup var collectionOptions: CollectionOptions<SendCommand>
    static let environmentHelp = "The environment to send to (default: the collection's first)."

    @OptionGroup var variables: VariableOptions

    @OptionGroup var output: ExchangeOutputOptions

    @OptionGroup(title: "WebSocket") var webSocket: WebSocketSendOptions

    @OptionGroup(title: "gRPC") var grpc: GRPCSendOptions

    @OptionGroup var history: HistoryOption

    @OptionGroup var confirm: ConfirmOption

    @OptionGroup var cookies: CookiesOption

    @OptionGroup var graphQL: GraphQLValidationOption

    @OptionGroup var responses: ResponseValidationOption

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Send a W3C traceparent header (a fresh trace id, sampled), as trace: true does; one the endpoint "
                + "writes wins."))
    var trace = false

    @OptionGroup(title: "Signing") var presign: PresignOption

    func run() async throws {
        let overrides = variables.overrides
        let (located, loaded) = try collectionOptions.load()
        let (lookedUp, environment) = try ExchangeSender.Plan.lookUp(
            endpoint, environment: collectionOptions.env, in: loaded)
        var found = lookedUp
        if trace { found.traces = true }
        let recorder = history.recorder()
        var sender = ExchangeSender(output)
        let keepCookies = sender.useCookies(of: environment, collection: loaded.storeKey, disabled: cookies.noCookies)
        try sender.useTLS(of: environment, collectionFile: URL(fileURLWithPath: located.path))
        try sender.useProxy(of: environment, overrides: overrides)
        defer { keepCookies() }
        if let seconds = presign.presign {
            let plan = try ExchangeSender.Plan.resolving(
                found, in: loaded, environment: environment, overrides: overrides)
            guard case .resolved(let resolved) = plan.target else { return }
            return try presign.printURL(of: resolved, expires: seconds)
        }
        if found.isWebSocket(resolvedURL: environment.baseURLTemplate) {
            let plan = try ExchangeSender.Plan.resolving(
                found, in: loaded, environment: environment, overrides: overrides)
            guard case .resolved(let resolved) = plan.target else { return }
            return try await WebSocketSender(options: webSocket, output: output)
                .run(resolved, through: sender, collectionPath: plan.collectionPath, recorder: recorder)
        }
        if found.isGRPC && !found.hasChecks && found.requirements.isEmpty {
            let plan = try ExchangeSender.Plan.resolving(
                found, in: loaded, environment: environment, overrides: overrides)
            try plan.confirmIfProtected(yes: confirm.yes)
            guard case .resolved(let resolved) = plan.target else { return }
            return try await GRPCSender(options: grpc, output: output)
                .run(
                    resolved, collection: loaded, collectionFile: URL(fileURLWithPath: located.path),
                    recorder: recorder)
        }
        let validation = try await ExchangeSender.responseValidation(
            for: loaded, everyResponse: responses.validatesResponses || loaded.validatesResponses, asking: found)
        if found.hasChecks || !found.requirements.isEmpty || validation != nil {
            // Checks read the whole body, so it is collected (up to --max-body), not streamed;
            // the request is resolved after what it requires has been sent.
            environment.setOverrides(overrides)
            try ExchangeSender.Plan.confirm(
                found.method, environment.baseURLTemplate + found.path, in: environment, yes: confirm.yes)
            return try await sender.runChecked(
                found, in: loaded, at: located.path, environment: environment, overrides: overrides, recorder: recorder,
                output: output,
                validatesGraphQL: graphQL.validatesGraphQL, validation: validation)
        }
        let exchange = try ExchangeSender.Plan.resolving(
            found, in: loaded, environment: environment, overrides: overrides)
        // Confirmed first: validating may fetch the schema, a request to that server too.
        try exchange.confirmIfProtected(yes: confirm.yes)
        if graphQL.validatesGraphQL { try await sender.validateGraphQL(exchange) }
        try await sender.run(exchange, recorder: recorder, output: output)
    }
}

/// The output options `send` and `history resend` share.
struct ExchangeOutputOptions: ParsableArguments {
    @Flag(name: [.customShort("i"), .long], help: "Print the status line and headers before the body.")
    var include = false

    @Flag(
        name: .long,
        help: "Print one JSON object: method, url, environment, status, reason, headers, body, timings, historyId.")
    var json = false

    @Flag(name: .long, help: "Exit 4 for a 4xx and 5 for a 5xx status.")
    var checkStatus = false

    @OptionGroup var idleTimeout: TimeoutOption

    /// `--timeout`, as given.
    var timeout: Double? { idleTimeout.timeout }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Give up when the whole exchange, body included, takes longer than this (a total deadline).", valueName: "S"
        ))
    var maxTime: Double?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The largest body accepted, in bytes or with a K, M or G suffix (default 2G).", valueName: "BYTES"))
    var maxBody: String?

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Print the body as it arrives (always so when stdout is not a terminal); "
                + "a text/event-stream body prints event by event.")
    )
    var stream = false

    @Option(
        name: .customLong("max-redirs"),
        help: ArgumentHelp("Follow at most this many redirects (default 10); one more is an error.", valueName: "N"))
    var maxRedirs: Int?

    @Flag(
        name: .customLong("no-follow"),
        help: "Do not follow redirects: the first answer, a redirect too, is the response.")
    var noFollow = false

    @Option(
        name: .customLong("resolve"),
        help: ArgumentHelp(
            "Connect to ADDRESS for HOST:PORT (repeatable), as curl's --resolve; the URL, Host header, "
                + "cookies and TLS name check stay the host's.",
            valueName: "HOST:PORT:ADDRESS"))
    var resolve: [String] = []

    /// `--resolve` as `host:port` (host in lower case) to address; checked by `validate`.
    var resolveEntries: [String: String] {
        Dictionary(
            resolve.compactMap { Self.resolveEntry($0).map { ($0.name.lowercased(), $0.value) } },
            uniquingKeysWith: { _, last in last })
    }

    /// One `--resolve HOST:PORT:ADDRESS`: the address is what follows the second colon (an
    /// IPv6 address in brackets or not).
    static func resolveEntry(_ text: String) -> KeyValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let host: Substring
        var rest: Substring
        if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
            host = trimmed[...close]
            rest = trimmed[trimmed.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            rest = rest.dropFirst()
        } else {
            guard let colon = trimmed.firstIndex(of: ":") else { return nil }
            host = trimmed[..<colon]
            rest = trimmed[trimmed.index(after: colon)...]
        }
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        return try? Environment.resolveEntry(
            hostPort: "\(host):\(rest[..<colon])", address: String(rest[rest.index(after: colon)...])
        ).get()
    }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Print what this JSONPath query (RFC 9535) selects in the body, as a JSON array, "
                + "instead of the body (which is read whole).",
            valueName: "JSONPATH"))
    var filter: String?

    /// Whether the body is printed as it arrives rather than collected first.
    var streams: Bool { !json && filter == nil && (stream || !ExchangeOutput.stdoutIsTerminal) }

    /// `--filter` parsed (checked by `validate`).
    var jsonPath: JSONPath? { filter.flatMap { try? JSONPath($0) } }

    /// Parses a `--filter` query, or throws exit code 2 after one line naming its column.
    static func parseFilter(_ text: String) throws -> JSONPath {
        do {
            return try JSONPath(text)
        } catch {
            let failure = JSONPath.failure(error)
            let column = failure.position.map { " at column \($0)" } ?? ""
            throw ExchangeSender.usageError("--filter is not a valid JSONPath query\(column): \(failure.description).")
        }
    }

    /// `--max-body` in bytes.
    var maxBodyBytes: Int? { maxBody.flatMap(ResponseLimits.byteCount) }

    func validate() throws {
        if let maxTime, !(maxTime > 0) {
            throw ExchangeSender.usageError("--max-time must be a number of seconds greater than 0.")
        }
        for entry in resolve where Self.resolveEntry(entry) == nil {
            throw ExchangeSender.usageError(
                "--resolve expects HOST:PORT:ADDRESS with an IP address, e.g. api.example.com:443:127.0.0.1, "
                    + "not \"\(entry)\"."
            )
        }
        if let filter { _ = try Self.parseFilter(filter) }
        if let maxRedirs, !(0...1000).contains(maxRedirs) {
            throw ExchangeSender.usageError("--max-redirs must be a whole number from 0 to 1000, not \(maxRedirs).")
        }
        if let maxBody, ResponseLimits.byteCount(maxBody) == nil {
            throw ExchangeSender.usageError(
                "--max-body expects a number of bytes such as 1048576, 512K, 10M or 2G, not \"\(maxBody)\".")
        }
    }
}
