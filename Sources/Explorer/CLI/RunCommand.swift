import ArgumentParser
import Checks
import Foundation
import GraphQLSupport
import History
import NetworkingCore
import Synchronization
import Workspace

/// `explorer run [PATH…]`: sends endpoints of a collection in file order, captures flowing
/// from one to the next, and reports what their assertions found.
struct RunCommand: AsyncParsableCommand, CollectionOptionsHelp {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run endpoints of a collection (a folder, several, or all) and check their assertions.",
        discussion: """
            Endpoints run in file order; values they capture reach the next ones, and an \
            endpoint's requires: are sent first when what they capture is missing. A live \
            progress line goes to stderr on a terminal, the summary table to stdout. Exit codes: \
            0 when every assertion passed, 3 when one failed, 1 when a response did not come, \
            2 for usage and collection errors (a request that cannot be built, too).
            """
    )

    @Argument(
        help: "Folders (Auth, Users/Admin) or endpoints (Folder/Name) to run; all when none.",
        completion: EndpointCompletion.kind(folders: true))
    var paths: [String] = []

    @OptionGroup var collectionOptions: CollectionOptions<RunCommand>
    static let environmentHelp = "The environment to run in (default: the collection's first)."

    @OptionGroup var variables: VariableOptions

    @Option(name: .long, help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "FILE"))
    var junit: String?

    @Option(
        name: .customLong("report"),
        help: ArgumentHelp(
            "Also write a report (repeatable): junit=PATH, json=PATH, html=PATH (one file, no script), "
                + "or github (GitHub Actions annotations, printed).",
            valueName: "KIND=PATH"))
    var reports: [String] = []

    @Flag(name: .long, help: "Print one JSON object with every result instead of the table.")
    var json = false

    @Flag(
        name: [.customLong("bail"), .customLong("fail-fast")],
        help: "Stop at the first endpoint that does not pass; the summary says how many were not run.")
    var bail = false

    @Option(
        name: [.customLong("iterations"), .customLong("repeat")],
        help: ArgumentHelp(
            "Run the selection this many times (captures flow from one to the next); --repeat is the same.",
            valueName: "N"))
    var iterations: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run the selection once per row of this CSV (a header row) or JSON (an array of objects) file, "
                + "the row's values as variables above the environment's (--var still wins).",
            valueName: "FILE"))
    var data: String?

    @Option(name: .long, help: ArgumentHelp("Wait this many milliseconds between requests.", valueName: "MS"))
    var delay: Int = 0

    @Option(
        name: .customLong("tag"),
        help: ArgumentHelp(
            "Run only the endpoints with this tag, their own or a folder's (repeatable: any of them).", valueName: "TAG"
        ))
    var tags: [String] = []

    @Option(
        name: .customLong("exclude-tag"),
        help: ArgumentHelp("Leave out the endpoints with this tag (repeatable; wins over --tag).", valueName: "TAG"))
    var excludedTags: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Send up to N independent endpoints at once: those that neither capture nor require; the others run alone, "
                + "in file order. The report keeps file order.",
            valueName: "N"))
    var jobs: Int = 1

    @OptionGroup var idleTimeout: TimeoutOption

    @OptionGroup var history: HistoryOption

    @OptionGroup var cookies: CookiesOption

    @OptionGroup var confirm: ConfirmOption

    @OptionGroup var graphQL: GraphQLValidationOption

    @OptionGroup var responses: ResponseValidationOption

    /// The most repetitions a run may ask for.
    static let maximumRepeat = 100_000
    /// The most requests `--jobs` may send at once.
    static let maximumJobs = 64
    /// The longest `--delay`, in milliseconds (ten minutes).
    static let maximumDelay = 600_000

    func validate() throws {
        if let iterations, !(1...Self.maximumRepeat).contains(iterations) {
            throw ExchangeSender.usageError("--iterations must be a whole number from 1 to \(Self.maximumRepeat).")
        }
        if iterations != nil, data != nil {
            throw ExchangeSender.usageError(
                "--iterations and --data cannot be used together: the data file's rows are the iterations.")
        }
        guard (0...Self.maximumDelay).contains(delay) else {
            throw ExchangeSender.usageError(
                "--delay must be a whole number of milliseconds from 0 to \(Self.maximumDelay).")
        }
        guard (1...Self.maximumJobs).contains(jobs) else {
            throw ExchangeSender.usageError("--jobs must be a whole number from 1 to \(Self.maximumJobs).")
        }
        try validateReports()
    }

    func run() async throws {
        let overrides = variables.overrides
        let (located, loaded) = try collectionOptions.load()
        let (selected, environment) = try selection(in: loaded)
        let passes = try iterationPlan(collectionPath: located.path)
        environment.setOverrides(overrides)
        if environment.isProtected, selected.contains(where: { $0.method != .get }), !confirm.yes {
            printError(
                "The environment \"\(environment.name)\" is protected and the run sends non-GET requests: "
                    + "add --yes to run them."
            )
            throw ExitCode(2)
        }

        let validation = try await ExchangeSender.responseValidation(
            for: loaded, everyResponse: responses.validatesResponses || loaded.validatesResponses)
        var sender = ExchangeSender(timeout: idleTimeout.timeout)
        let keepCookies = sender.useCookies(of: environment, collection: loaded.storeKey, disabled: cookies.noCookies)
        try sender.useTLS(of: environment, collectionFile: URL(fileURLWithPath: located.path))
        try sender.useProxy(of: environment, overrides: overrides)
        let transport = AsyncHTTPClientTransport(configuration: sender.transportConfiguration)
        let check =
            !graphQL.validatesGraphQL
            ? nil : ExchangeSender.graphQLCheck(GraphQLSchemaSource(cache: GraphQLSchemaCache(), transport: transport))
        let runner = sender.makeRunner(
            collection: loaded, at: located.path, environment: environment, overrides: overrides,
            through: transport, check: check, validation: validation)
        let recorder = history.recorder()
        let progress = RunProgress(total: selected.count * passes.count, live: isatty(STDERR_FILENO) == 1 && !json)

        let started = Date()
        var results: [RunResult] = []
        let targets = reportTargets
        let showsExchanges = reportsShowExchanges
        let soFar = RunSoFar()
        let collectionFile = Self.reportedPath(located.path)
        let (collectionName, environmentName, dataFile, json) = (loaded.name, environment.name, data, json)
        let interruption =
            targets.isEmpty
            ? nil
            // A CI job cancelled half way keeps the reports of what ran, then ends as the signal would.
            : Interruption([SIGINT, SIGTERM]) { number in
                guard !soFar.finish() else { return }
                progress.clear()
                let ran = soFar.all
                var summary = RunSummary(
                    collection: collectionName, environment: environmentName, results: ran,
                    seconds: Date().timeIntervalSince(started), startedAt: started,
                    iterations: passes.filter { pass in ran.contains { $0.iteration == pass.number } },
                    dataFile: dataFile)
                summary.collectionFile = collectionFile
                summary.interrupted = true
                Self.writeReports(summary, to: targets, json: json)
                printError("Interrupted: the reports hold the \(ran.count) requests that ran.")
                Foundation.exit(128 + number)
            }
        var endpointsRun = 0
        // How many results so far did not pass: the first ones keep their exchange's details.
        var failuresSoFar = 0
        var stopped = false
        let batches = Self.batches(selected, jobs: jobs)
        run: for pass in passes {
            let iteration = pass.number
            let rowValues = pass.row?.values ?? [:]
            for batch in batches {
                if delay > 0, endpointsRun > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
                // Each endpoint's steps, in the batch's (file) order whatever order they finish in.
                let stepsByEndpoint = await withTaskGroup(of: (Int, [SequenceStep<HistoryEntry>]).self) { group in
                    for (index, endpoint) in batch.enumerated() {
                        group.addTask {
                            progress.starting(endpoint.id)
                            return (
                                index,
                                await runner.run(endpoint, variables: rowValues) { step in
                                    progress.finished(Self.result(step, iteration: iteration))
                                }
                            )
                        }
                    }
                    var collected = Array(repeating: [SequenceStep<HistoryEntry>](), count: batch.count)
                    for await (index, steps) in group { collected[index] = steps }
                    return collected
                }
                var batchResults: [RunResult] = []
                for steps in stepsByEndpoint {
                    for step in steps {
                        var entry = step.historyEntry
                        entry?.collectionPath = located.path
                        if let entry { recorder?.record(entry, secrets: step.secrets) }
                        var result = Self.result(step, iteration: iteration, row: pass.row, dataFile: data)
                        let keepsDetails = Self.keepsDetails(
                            result.outcome, failuresBefore: failuresSoFar, targets: targets)
                        if result.outcome != .passed { failuresSoFar += 1 }
                        if showsExchanges, let entry {
                            let shown = Self.reported(entry, secrets: step.secrets, keepsDetails: keepsDetails)
                            result.exchange = shown.exchange
                            if let checks = shown.checks { result.report = checks }
                        }
                        batchResults.append(result)
                    }
                }
                results += batchResults
                soFar.append(batchResults)
                endpointsRun += batch.count
                if bail, stepsByEndpoint.joined().contains(where: { $0.outcome != .passed }) {
                    stopped = true
                    break run
                }
            }
        }
        try? await transport.shutdown()
        keepCookies()
        // Past this point an interruption writes nothing: the reports below are whole.
        let interruptedAlready = soFar.finish()
        interruption?.end()
        // The signal's handler is writing the reports and ends the process (exit) in a moment.
        if interruptedAlready { try await Task.sleep(for: .seconds(60)) }
        progress.clear()

        var summary = RunSummary(
            collection: loaded.name, environment: environment.name, results: results,
            seconds: Date().timeIntervalSince(started), startedAt: started,
            iterations: passes.filter { pass in results.contains { $0.iteration == pass.number } }, dataFile: data,
            notRun: stopped ? selected.count * passes.count - endpointsRun : nil)
        summary.collectionFile = collectionFile
        try report(summary, results: results)
    }

    /// The endpoints the paths select and the environment they run in (`--env`, else the
    /// collection's first).
    ///
    /// - Throws: `ExitCode(2)` after a sentence on stderr when a path selects nothing, the
    ///   environment does not exist, or the collection has none.
    func selection(in loaded: APICollection) throws -> (endpoints: [Endpoint], environment: Environment) {
        do {
            let selected = try loaded.endpoints(
                try loaded.endpoints(selectedBy: paths), tagged: tags, excluding: excludedTags)
            guard
                let chosen = try collectionOptions.env.map({ try loaded.requireEnvironment(named: $0) })
                    ?? loaded.environments.first
            else {
                throw ExchangeSender.usageError(
                    "The collection has no environment to run in (add one with a base_url).")
            }
            return (selected, chosen)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(2)
        }
    }

    /// Writes the reports (`--report`, `--junit`), prints the summary (the table or
    /// `--json`) with the latencies, and exits with the summary's code.
    func report(_ summary: RunSummary, results: [RunResult]) throws {
        let written = Self.writeReports(summary, to: reportTargets, json: json)
        let latencies = Self.latencies(of: results)
        if json {
            var object = summary.jsonObject
            if !latencies.isEmpty { object["latency"] = Self.latencyObject(latencies) }
            printLine(ExchangeOutput.jsonText(object))
        } else {
            let latencyText = Self.latencyLines(latencies).map { $0 + "\n" }.joined()
            ExchangeOutput.write(ExchangeOutput.escapingControls(summary.table + latencyText))
        }
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
        if !written { throw ExitCode(2) }
    }
}

extension RunCommand {
    /// The endpoints cut into what may run at once: a run of consecutive endpoints that neither
    /// capture nor require, in groups of at most `jobs`; every other endpoint alone, so
    /// what it captures reaches the endpoints after it as in a sequential run.
    static func batches(_ endpoints: [Endpoint], jobs: Int) -> [[Endpoint]] {
        var batches: [[Endpoint]] = []
        var open: [Endpoint] = []
        for endpoint in endpoints {
            if jobs > 1, endpoint.captures.isEmpty, endpoint.requirements.isEmpty {
                open.append(endpoint)
                if open.count == jobs {
                    batches.append(open)
                    open = []
                }
            } else {
                if !open.isEmpty {
                    batches.append(open)
                    open = []
                }
                batches.append([endpoint])
            }
        }
        if !open.isEmpty { batches.append(open) }
        return batches
    }

    /// A step as a line of the report; in a data run, a request that could not be built names
    /// the row it ran with (see `rowError`).
    static func result(
        _ step: SequenceStep<HistoryEntry>, iteration: Int, row: DataRow? = nil, dataFile: String? = nil
    ) -> RunResult {
        var result = RunResult(
            step: step, iteration: iteration, status: step.exchange?.record.status,
            milliseconds: step.exchange?.record.timings.totalMilliseconds ?? 0)
        if let row, let dataFile, result.outcome == .notSent, let error = result.error {
            result.error = rowError(error, row: row, dataFile: dataFile)
        }
        return result
    }
}

/// The live progress line of a run on stderr (`[3/12 · 1 failed · 0:04] ✓ Auth/Login 200 5/5`:
/// done/total, what did not pass, elapsed time), redrawn in place on a terminal; nothing when
/// stderr is not one (the table says it all).
final class RunProgress: Sendable {
    private let total: Int
    private let live: Bool
    private struct Counts {
        var done = 0
        var failed = 0
    }
    /// Several endpoints may finish at once with `--jobs`: a line is drawn under the lock, so
    /// lines never interleave.
    private let counts = Mutex(Counts())
    private let started = ContinuousClock.now

    init(total: Int, live: Bool) {
        self.total = total
        self.live = live
    }

    func starting(_ endpoint: String) {
        guard live else { return }
        counts.withLock { draw("\(head($0)) \(endpoint) …") }
    }

    func finished(_ result: RunResult) {
        counts.withLock { counts in
            counts.done += 1
            if result.outcome != .passed { counts.failed += 1 }
            // Off a terminal no line is drawn: its text is not made either.
            guard live else { return }
            draw("\(head(counts)) \(result.mark) \(result.endpoint) \(result.statusText) \(result.checksText)")
        }
    }

    /// `[3/12 · 1 failed · 0:04]`: done of all, what did not pass (when any), the time so far.
    private func head(_ counts: Counts) -> String {
        let seconds = Int((ContinuousClock.now - started).components.seconds)
        let elapsed = String(format: "%d:%02d", seconds / 60, seconds % 60)
        let failures = counts.failed > 0 ? " · \(counts.failed) failed" : ""
        return "[\(counts.done)/\(total)\(failures) · \(elapsed)]"
    }

    func clear() {
        guard live else { return }
        writeStandardError("\r\u{1B}[2K")
    }

    private func draw(_ line: String) {
        guard live else { return }
        let shown = ExchangeOutput.escapingControls(String(line.prefix(200)))
        writeStandardError("\r\u{1B}[2K\(shown)")
    }
}
