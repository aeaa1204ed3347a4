import ArgumentParser
import Foundation
import History
import Measure
import NetworkingCore
import Workspace

/// `explorer compare ENDPOINT --env a --env b`: sends one endpoint to two environments and
/// compares the answers (status, headers, a structural JSON diff of the bodies), leaving out
/// what the collection's `compare: { ignore: [...] }` names; `--all [FOLDER]` compares every
/// GET of the collection or of a folder.
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Send an endpoint to two environments and compare the responses.",
        discussion: """
            Status, headers and body are compared; JSON bodies structurally (objects by key, \
            arrays by position or by an id-like member such as id), strings, numbers and types \
            told apart. The collection's compare: { ignore: [$.requestId, header Date] } leaves \
            volatile values out. Timings are shown, never counted as a difference. A non-GET \
            request to a protected environment asks first (--yes skips the prompt). Exit codes: \
            0 when the responses match, 3 when they differ, 1 when a response did not come, 2 \
            for usage and collection errors.
            """
    )

    @Argument(
        help: "The endpoint (Folder/Name or a unique Name); with --all, a folder (default: the whole collection).",
        completion: EndpointCompletion.kind(folders: true))
    var target: String?

    @OptionGroup var collection: CollectionFileOption

    @Option(
        name: .long,
        help: ArgumentHelp("An environment to send to: give it twice, the first and the second.", valueName: "NAME"))
    var env: [String] = []

    @Flag(name: .long, help: "Compare every GET endpoint of the collection, or of the folder given.")
    var all = false

    @OptionGroup var variables: VariableOptions

    @Flag(name: .long, help: "Print one JSON object instead of the report.")
    var json = false

    @OptionGroup var idleTimeout: TimeoutOption

    @Option(
        name: .long,
        help: ArgumentHelp("List at most this many body differences per endpoint (default 1000).", valueName: "N"))
    var limit: Int = JSONDiff.defaultLimit

    @OptionGroup var history: HistoryOption

    @OptionGroup var cookies: CookiesOption

    @OptionGroup var confirm: ConfirmOption

    func validate() throws {
        guard env.count == 2 else {
            throw ExchangeSender.usageError(
                "compare needs two environments: --env FIRST --env SECOND (got \(env.count)).")
        }
        guard env[0] != env[1] else {
            throw ExchangeSender.usageError("compare needs two different environments, not \"\(env[0])\" twice.")
        }
        guard all || target != nil else {
            throw ExchangeSender.usageError(
                "Name the endpoint to compare (Folder/Name), or use --all [FOLDER] for every GET.")
        }
        guard (1...1_000_000).contains(limit) else {
            throw ExchangeSender.usageError("--limit must be a whole number from 1 to 1000000.")
        }
    }

    func run() async throws {
        let overrides = variables.overrides
        let file = try collection.resolve()
        let loaded = try CollectionLocation.load(file)
        let (endpoints, skipped) = try selection(in: loaded)
        let environments = try env.map { name in
            do {
                return try loaded.requireEnvironment(named: name)
            } catch {
                printError(sentence(describing: error))
                throw ExitCode(2)
            }
        }
        for environment in environments { environment.setOverrides(overrides) }
        for endpoint in endpoints {
            for environment in environments {
                try ExchangeSender.Plan.confirm(
                    endpoint.method, environment.baseURLTemplate + endpoint.path, in: environment, yes: confirm.yes)
            }
        }

        let sides = try environments.map { environment in
            try Side(
                environment: environment, collection: loaded, file: file, timeout: idleTimeout.timeout,
                overrides: overrides, noCookies: cookies.noCookies)
        }
        defer { for side in sides { side.finish() } }
        let recorder = history.recorder()
        let rules = loaded.compareRules

        var outcomes: [Outcome] = []
        for endpoint in endpoints {
            let outcome = await compare(
                endpoint, in: loaded, sides: sides, overrides: overrides, rules: rules, recorder: recorder)
            if !json { report(outcome, single: !all) }
            outcomes.append(outcome)
        }
        await withTaskGroup(of: Void.self) { group in
            for side in sides { group.addTask { try? await side.transport.shutdown() } }
        }
        if json {
            printLine(jsonReport(outcomes, skipped: skipped).serialized())
        } else if all {
            ExchangeOutput.write(ExchangeOutput.escapingControls(summary(outcomes, skipped: skipped)) + "\n")
        }
        let code = Self.exitCode(outcomes)
        if code != 0 { throw ExitCode(code) }
    }

    /// The endpoints to compare: the one named, or every GET of the selection with `--all`
    /// (WebSocket endpoints aside), and how many were left out for not being GETs.
    func selection(in collection: APICollection) throws -> (endpoints: [Endpoint], skipped: Int) {
        do {
            if all {
                let chosen = try collection.endpoints(selectedBy: target.map { [$0] } ?? [])
                let gets = chosen.filter { $0.method == .get && !$0.isWebSocket() }
                guard !gets.isEmpty else {
                    throw ExchangeSender.usageError(
                        "There is no GET endpoint to compare in \(target.map { "\"\($0)\"" } ?? "the collection").")
                }
                return (gets, chosen.count - gets.count)
            }
            return ([try collection.endpoint(named: target ?? "")], 0)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(2)
        }
    }
}

// MARK: - Sending

extension CompareCommand {
    /// One environment's sender: its cookies, TLS and proxy, and a transport kept for every
    /// endpoint compared.
    struct Side: Sendable {
        let environment: Environment
        let sender: ExchangeSender
        let transport: AsyncHTTPClientTransport
        let keepCookies: @Sendable () -> Void

        init(
            environment: Environment, collection: APICollection, file: URL, timeout: Double?,
            overrides: [String: String], noCookies: Bool
        ) throws {
            var sender = ExchangeSender(timeout: timeout)
            keepCookies = sender.useCookies(of: environment, collection: collection.storeKey, disabled: noCookies)
            try sender.useTLS(of: environment, collectionFile: file)
            try sender.useProxy(of: environment, overrides: overrides)
            self.environment = environment
            self.sender = sender
            transport = AsyncHTTPClientTransport(configuration: sender.transportConfiguration)
        }

        func finish() { keepCookies() }
    }

    /// What comparing one endpoint gave.
    struct Outcome {
        var endpoint: String
        /// The comparison, or `nil` when a request could not be built.
        var comparison: ResponseComparison?
        /// Why a request could not be built.
        var problem: String?
        /// Hides both environments' secrets.
        var masker: SecretMasker
    }

    /// Sends an endpoint to both environments and compares the answers.
    func compare(
        _ endpoint: Endpoint, in collection: APICollection, sides: [Side], overrides: [String: String],
        rules: CompareRules, recorder: HistoryRecorder?
    ) async -> Outcome {
        var plans: [ExchangeSender.Plan] = []
        for side in sides {
            do {
                let captured = CaptureStore().variables(
                    collection: collection.storeKey, environment: side.environment.name)
                let resolved = try RequestResolver.asking.resolve(
                    endpoint, in: collection, environment: side.environment,
                    overrides: overrides, captured: captured)
                plans.append(
                    ExchangeSender.Plan(
                        target: .resolved(resolved), collectionPath: collection.storeKey,
                        secrets: resolved.masker.secretValues))
            } catch {
                return Outcome(
                    endpoint: endpoint.id, comparison: nil,
                    problem: "\(side.environment.name): \(sentence(describing: error))", masker: SecretMasker())
            }
        }
        // One after the other, so that neither environment's timing carries the other's load.
        var entries: [HistoryEntry] = []
        for (side, plan) in zip(sides, plans) {
            if case .resolved(let resolved) = plan.target, endpoint.isGRPC {
                // A gRPC call's entry holds the call as JSON (status, messages, details): what is compared.
                let caller = GRPCSender.caller(
                    collection: collection, collectionFile: collection.sourceURL, options: nil, maxTime: nil)
                entries.append(await caller.exchange(resolved, collectionPath: collection.storeKey).record)
                continue
            }
            entries.append(await side.sender.send(plan, through: side.transport))
        }
        var secrets: [String] = []
        for (index, entry) in entries.enumerated() {
            var recorded = entry
            recorded.collectionPath = collection.storeKey
            let cookies = sides[index].sender.cookieJar?.cookieValues(for: entry.url) ?? []
            recorder?.record(recorded, secrets: plans[index].secrets + cookies)
            secrets += plans[index].secrets + cookies
        }
        let compared = entries.map { entry in
            ComparedExchange(
                environment: entry.environment ?? "", method: entry.method, url: entry.url, status: entry.status,
                reason: entry.reason, headers: entry.responseHeaders, body: entry.responseBody ?? Data(),
                milliseconds: entry.timings.totalMilliseconds, failure: entry.transportError)
        }
        return Outcome(
            endpoint: endpoint.id, comparison: ResponseComparison(compared[0], compared[1], rules: rules, limit: limit),
            problem: nil, masker: SecretMasker(secretValues: secrets))
    }
}

// MARK: - Reporting

extension CompareCommand {
    /// Prints one endpoint's comparison (the endpoint's name first under `--all`).
    func report(_ outcome: Outcome, single: Bool) {
        var lines: [String] = []
        if !single { lines.append("== \(outcome.endpoint)") }
        if let problem = outcome.problem {
            lines.append("not compared: \(problem)")
        } else if let comparison = outcome.comparison {
            lines += comparison.reportLines(mask: { outcome.masker.mask($0) })
            lines.append(Self.verdict(comparison))
        }
        if !single { lines.append("") }
        ExchangeOutput.write(ExchangeOutput.escapingControls(lines.joined(separator: "\n")) + "\n")
    }

    /// `match`, `differ`, or `no response`.
    static func verdict(_ comparison: ResponseComparison) -> String {
        if comparison.first.status == nil || comparison.second.status == nil { return "no response" }
        return comparison.matches ? "match" : "differ"
    }

    /// The last line under `--all`: how many matched, differed, failed.
    func summary(_ outcomes: [Outcome], skipped: Int) -> String {
        let counts = Self.counts(outcomes)
        var parts = [
            "\(outcomes.count) endpoint\(outcomes.count == 1 ? "" : "s") compared: \(counts.matched) match, "
                + "\(counts.differed) differ"
        ]
        if counts.failed > 0 { parts.append("\(counts.failed) without a response or a request") }
        if skipped > 0 { parts.append("\(skipped) not GET, not sent") }
        return parts.joined(separator: ", ")
    }

    static func counts(_ outcomes: [Outcome]) -> (matched: Int, differed: Int, failed: Int) {
        var matched = 0
        var differed = 0
        var failed = 0
        for outcome in outcomes {
            guard let comparison = outcome.comparison, comparison.first.status != nil, comparison.second.status != nil
            else {
                failed += 1
                continue
            }
            if comparison.matches { matched += 1 } else { differed += 1 }
        }
        return (matched, differed, failed)
    }

    /// 0 when everything matched, 3 when something differed, 1 when a response did not come
    /// or a request could not be built (the comparison is then incomplete).
    static func exitCode(_ outcomes: [Outcome]) -> Int32 {
        let counts = counts(outcomes)
        if counts.failed > 0 { return 1 }
        return counts.differed > 0 ? 3 : 0
    }

    /// The `--json` report: one comparison, or every endpoint's with `--all`.
    func jsonReport(_ outcomes: [Outcome], skipped: Int) -> JSONValue {
        func object(_ outcome: Outcome) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [("endpoint", .string(outcome.endpoint))]
            if let comparison = outcome.comparison,
                case .object(let rest) = comparison.jsonObject(mask: { outcome.masker.mask($0) })
            {
                members += rest
            } else {
                members += [("matches", false), ("error", .string(outcome.problem ?? ""))]
            }
            return .object(members)
        }
        guard all else { return outcomes.first.map(object) ?? .null }
        let counts = Self.counts(outcomes)
        return .object([
            ("first", .string(env[0])), ("second", .string(env[1])),
            ("matched", JSONValue(counts.matched)), ("differed", JSONValue(counts.differed)),
            ("failed", JSONValue(counts.failed)),
            ("skipped", JSONValue(skipped)),
            ("endpoints", .array(outcomes.map(object))),
        ])
    }
}
