import ArgumentParser
import Foundation
import History
import Measure
import NetworkingCore
import Workspace

/// `explorer load ENDPOINT -n 2000 -c 16`: sends one endpoint many times, several at once, and
/// reports requests a second, statuses, failures by kind and the latency distribution (from
/// each request's start to its body's last byte) with a text histogram, as hey and oha do.
struct LoadCommand: AsyncParsableCommand, CollectionOptionsHelp {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Send an endpoint many times at once and report the latency distribution.",
        discussion: """
            Latency runs from each request's start to its body's last byte; percentiles come from \
            an HdrHistogram (three significant digits). With --rate, requests are due at fixed \
            times and each one's latency counts from when it was due, so a server that stalls is \
            charged for the requests that waited behind it (coordinated omission accounted for). \
            The endpoint is resolved once: its templates ({{$uuid}} …) keep one value for the whole \
            load. A live progress bar goes to stderr on a terminal. The history keeps one entry \
            for the load, its report as the body. A non-GET request to a protected environment \
            asks first. Exit codes: 0 when the load ran (whatever the statuses), 1 when no \
            request got a response, 2 for usage and collection errors.
            """
    )

    @Argument(help: "The endpoint, as Folder/Name or Name when unique.", completion: EndpointCompletion.kind())
    var endpoint: String

    @OptionGroup var collectionOptions: CollectionOptions<LoadCommand>
    static let environmentHelp = "The environment to load (default: the collection's first)."

    @Option(
        name: .customShort("n"),
        help: ArgumentHelp("Requests in all (default 200; without it, --duration alone decides).", valueName: "N"))
    var requests: Int?

    @Option(name: .customShort("c"), help: ArgumentHelp("Requests in flight at once (default 16).", valueName: "C"))
    var concurrency: Int = 16

    @Option(
        name: .customShort("z"),
        help: ArgumentHelp("Send for this long (30s, 500ms, 2m); with -n, whichever ends first.", valueName: "TIME"))
    var duration: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Requests a second over all workers; latencies then count from when each request was due.", valueName: "R"))
    var rate: Double?

    @OptionGroup var variables: VariableOptions

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Also write the latency charts as one HTML file (no script): html=PATH.", valueName: "html=PATH"))
    var reports: [String] = []

    @Flag(name: .long, help: "Print one JSON object instead of the report.")
    var json = false

    @OptionGroup var idleTimeout: TimeoutOption

    @OptionGroup var history: HistoryOption

    @OptionGroup var cookies: CookiesOption

    @OptionGroup var confirm: ConfirmOption

    @Flag(
        name: .customLong("disable-keepalive"),
        help: ArgumentHelp(
            "Open a new connection for every request, as curl in a shell loop "
                + "does (connecting is then part of each latency).")
    )
    var disableKeepAlive = false

    /// The most requests a load may send.
    static let maximumRequests = 10_000_000
    /// The longest a load may run.
    static let maximumDuration: Duration = .seconds(24 * 3600)

    func validate() throws {
        try validateReports()
        if let requests, !(1...Self.maximumRequests).contains(requests) {
            throw ExchangeSender.usageError("-n must be a whole number from 1 to \(Self.maximumRequests).")
        }
        guard (1...LoadRunner.maximumConcurrency).contains(concurrency) else {
            throw ExchangeSender.usageError("-c must be a whole number from 1 to \(LoadRunner.maximumConcurrency).")
        }
        if let duration {
            guard let parsed = Self.parseDuration(duration), parsed > .zero, parsed <= Self.maximumDuration else {
                throw ExchangeSender.usageError(
                    "--duration expects a time such as 30s, 500ms, 2m or 1h (at most 24h), not \"\(duration)\".")
            }
        }
        if let rate, !(rate > 0 && rate <= 1_000_000) {
            throw ExchangeSender.usageError(
                "--rate must be a number of requests a second greater than 0 (at most 1000000).")
        }
    }

    /// The plan the options describe: `-n` (200 unless `--duration` alone is given), `-c`,
    /// `--duration`, `--rate`.
    var plan: LoadPlan {
        let time = duration.flatMap(Self.parseDuration)
        return LoadPlan(
            requests: requests, concurrency: concurrency, duration: time, rate: rate,
            keepsConnections: !disableKeepAlive)
    }

    func run() async throws {
        let overrides = variables.overrides
        let (located, loaded) = try collectionOptions.load()
        let (found, environment) = try ExchangeSender.Plan.lookUp(
            endpoint, environment: collectionOptions.env, in: loaded)
        guard !found.isWebSocket(resolvedURL: environment.baseURLTemplate) else {
            throw ExchangeSender.usageError(
                "\"\(found.id)\" opens a WebSocket: explorer load sends HTTP requests only.")
        }
        let exchange = try ExchangeSender.Plan.resolving(
            found, in: loaded, environment: environment, overrides: overrides)
        try exchange.confirmIfProtected(yes: confirm.yes)
        guard case .resolved(let resolved) = exchange.target else { return }
        if found.isGRPC {
            return try await runGRPC(resolved, collection: loaded, collectionFile: URL(fileURLWithPath: located.path))
        }

        var sender = ExchangeSender(timeout: idleTimeout.timeout)
        let keepCookies = sender.useCookies(of: environment, collection: loaded.storeKey, disabled: cookies.noCookies)
        try sender.useTLS(of: environment, collectionFile: URL(fileURLWithPath: located.path))
        try sender.useProxy(of: environment, overrides: overrides)
        defer { keepCookies() }
        var configuration = sender.transportConfiguration
        if disableKeepAlive { configuration.maximumRequestsPerConnection = 1 }
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        let dispatcher = resolved.dispatcher(
            transport: transport, callbackQueue: DispatchQueue(label: "explorer.load", attributes: .concurrent),
            cookieJar: sender.cookieJar, prompt: ExchangeSender.showOAuth2Prompt)
        let request = resolved.request
        let options = sender.transferOptions
        let describer = sender

        let bar = LoadProgressBar(live: isatty(STDERR_FILENO) == 1)
        let startedAt = Date()
        let draw: @Sendable (LoadProgress) -> Void = { bar.draw($0) }
        let progress = bar.live ? draw : nil
        let send: @Sendable () async -> LoadOutcome = {
            await LoadOutcome.sending(
                request, through: dispatcher, options: options, describe: { describer.failureSentence(for: $0) })
        }
        let executors = LoadRunner.workerExecutors(concurrency: plan.concurrency, loops: transport.executors)
        let result = await LoadRunner.run(plan, progress: progress, executors: executors, send: send)
        bar.clear()
        try? await transport.shutdown()
        withExtendedLifetime(resolved.environment) {}
        try report(
            result, resolved: resolved, collection: loaded, startedAt: startedAt,
            head: "\(resolved.request.method) \(resolved.maskedURL)")
    }

    /// Records the load in history and prints its report (or `--json`'s object).
    ///
    /// - Throws: `ExitCode(1)` when no response came.
    func report(
        _ result: LoadResult, resolved: ResolvedRequest, collection loaded: APICollection, startedAt: Date,
        head: String
    ) throws {
        let found = resolved.endpoint
        let environment = resolved.environment
        let masker = resolved.masker
        let report = result.reportLines().map { masker.mask($0) }
        let jsonReport = result.jsonObject
        var historyId: Int64?
        if let recorder = history.recorder() {
            let entry = HistoryEntry(
                loadOf: resolved, startedAt: startedAt, collectionPath: loaded.storeKey,
                summary: Data(jsonReport.serialized(pretty: true).utf8),
                mostCommonStatus: Self.mostCommonStatus(result),
                milliseconds: result.latencies.milliseconds(atPercentile: 50))
            historyId = recorder.record(entry, secrets: resolved.masker.secretValues)
        }
        if json {
            var object = jsonReport
            if case .object(var members) = object {
                members.insert((key: "endpoint", value: JSONValue.string(found.id)), at: 0)
                members.insert((key: "environment", value: JSONValue.string(environment.name)), at: 1)
                members.insert((key: "url", value: JSONValue.string(resolved.maskedURL)), at: 2)
                members.append((key: "historyId", value: historyId.map { JSONValue(Int($0)) } ?? .null))
                object = .object(members)
            }
            printLine(masker.mask(object.serialized()))
        } else {
            let head = "\(head) (\(environment.name))"
            ExchangeOutput.write(ExchangeOutput.escapingControls(([head, ""] + report).joined(separator: "\n")) + "\n")
        }
        let written = writeReports(result, title: "\(head) (\(environment.name))", masker: masker)
        if result.latencies.responses == 0 { throw ExitCode(1) }
        if !written { throw ExitCode(2) }
    }

    /// The status most responses had (the history entry's status), or `nil` when none came.
    static func mostCommonStatus(_ result: LoadResult) -> Int? {
        result.latencies.statuses.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }

    /// Reads `30s`, `500ms`, `2m`, `1h`, or a plain number of seconds.
    static func parseDuration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let number = Double(trimmed.dropLast(suffix.count)), number.isFinite, number >= 0 else { return nil }
            return .milliseconds(Int64((number * scale * 1000).rounded()))
        }
        guard let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

/// The live progress bar of a load on stderr, redrawn in place:
/// `[■■■■■■■■■■········]  1204/2000  60%  1.3 s  3 failed`.
final class LoadProgressBar: Sendable {
    let live: Bool

    init(live: Bool) { self.live = live }

    func draw(_ progress: LoadProgress) {
        guard live else { return }
        let width = 30
        let filled = Int((progress.fraction * Double(width)).rounded())
        let bar = String(repeating: "■", count: filled) + String(repeating: "·", count: width - filled)
        let count = progress.total.map { "\(progress.completed)/\($0)" } ?? "\(progress.completed)"
        let seconds = String(format: "%.1f s", progress.elapsed / .seconds(1))
        let failed = progress.failures > 0 ? "  \(progress.failures) failed" : ""
        writeStandardError("\r\u{1B}[2K[\(bar)]  \(count)  \(Int(progress.fraction * 100))%  \(seconds)\(failed)")
    }

    func clear() {
        guard live else { return }
        writeStandardError("\r\u{1B}[2K")
    }
}
