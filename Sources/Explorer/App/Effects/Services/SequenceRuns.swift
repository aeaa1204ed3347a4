import Checks
import Dispatch
import Foundation
import History
import Measure
import NetworkingCore
import Workspace

/// What the TUI sends through the sequence runner, with `explorer run`'s rules: what an
/// endpoint `requires:` before it, folder runs (`R`), and one endpoint compared in two
/// environments (`explorer compare` in the TUI).
package final class SequenceRuns: Sendable {
    let sending: ExchangeSending
    private var transports: TransportPool { sending.transports }
    private var cookies: CookieJars { sending.cookies }
    private var contracts: ContractCache { sending.contracts }
    private var schemas: GraphQLSchemas { sending.schemas }
    private var tasks: ExchangeTasks { sending.tasks }
    private var history: HistoryRecorder? { sending.history }
    private var limits: ResponseLimits { sending.limits }
    private var collectionPath: String? { sending.collectionPath }
    private var recording: DispatchQueue { sending.recording }

    /// - Parameter sending: what sends an endpoint once its prerequisites are in, and whose
    ///   transports, cookie jars, contract, schemas and history the runs share.
    package init(sending: ExchangeSending) {
        self.sending = sending
    }

    /// A sequence runner whose responses are checked against the collection's `openapi:`
    /// document (fetched first when it is named by URL).
    private func runner(
        for collection: APICollection, _ environment: Environment, answers: PromptAnswers,
        send: @escaping @Sendable (AppAction) -> Void
    ) async -> SequenceRunner<HistoryEntry> {
        let validation = await contracts.validation(for: collection, report: ExchangeSending.message(send))
        return runner(collection, environment, answers: answers, validation: validation, send: send)
    }

    /// A sequence runner over this program's transport, limits and history: what `requires:`
    /// and folder runs send through, with `explorer run`'s rules.
    private func runner(
        _ collection: APICollection, _ environment: Environment, answers: PromptAnswers,
        validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) -> SequenceRunner<HistoryEntry> {
        // A proxy: that cannot be used fails each request, rather than sending it around the proxy.
        let chosen = Result { try transports.transport(for: environment) }
        let transport = (try? chosen.get()) ?? transports.shared
        let options = limits.transferOptions
        let path = collectionPath
        var resolver = RequestResolver()
        resolver.prompter = answers
        var check: SequenceRunner<HistoryEntry>.Check?
        if schemas.validates, let source = try? schemas.source(for: environment) {
            check = { resolved in
                guard case .invalid(let problems, let schema) = await source.validate(resolved) else { return nil }
                return GraphQLSchemas.invalidText(problems, schema: schema)
            }
        }
        return SequenceRunner<HistoryEntry>(
            collection: collection, environment: environment, store: CaptureStore(), resolver: resolver, check: check,
            validation: validation
        ) { [cookies] resolved in
            if case .failure(let error) = chosen, !(error is TLSSettings.Failure) {
                var entry = HistoryEntry(sending: resolved, startedAt: Date(), collectionPath: path)
                entry.fail(String(describing: error), started: entry.startedAt)
                return SentExchange(response: nil, failure: String(describing: error), record: entry)
            }
            let jar = cookies.jar(for: resolved, report: ExchangeSending.error(send))
            let keepCookies = cookies.saving(jar, of: resolved, report: ExchangeSending.error(send))
            let entry = await HistoryEntry.sending(
                resolved, through: transport, options: options, collectionPath: path, cookieJar: jar)
            keepCookies()
            return SentExchange(response: entry.checkedResponse, failure: entry.transportError, record: entry)
        }
    }

    /// Sends one endpoint in two environments, one after the other (so that neither's timing
    /// carries the other's load), records both, and shows the comparison: `explorer compare`
    /// in the TUI, with the collection's `compare:` rules.
    package func compareEnvironments(
        _ first: RequestPlan, _ second: RequestPlan, send: @escaping @Sendable (AppAction) -> Void
    ) {
        Task { [weak self] in
            guard let self else { return }
            var sides: [ComparedExchange] = []
            var secrets: [String] = []
            for plan in [first, second] {
                let runner = await runner(for: plan.collection, plan.environment, answers: plan.answers, send: send)
                guard let step = await runner.run(plan.endpoint, withPrerequisites: false).last else { return }
                if let problem = step.resolveError {
                    send(.message("Not compared: \(plan.environment.name): \(problem)", isError: true))
                    return
                }
                record(step)
                secrets += step.secrets
                guard let entry = step.exchange?.record else { return }
                sides.append(
                    ComparedExchange(
                        environment: plan.environment.name, method: entry.method, url: entry.url, status: entry.status,
                        reason: entry.reason, headers: entry.responseHeaders, body: entry.responseBody ?? Data(),
                        milliseconds: entry.timings.totalMilliseconds, failure: entry.transportError))
            }
            guard !Task.isCancelled, sides.count == 2 else { return }
            let comparison = ResponseComparison(sides[0], sides[1], rules: first.collection.compareRules)
            let masker = SecretMasker(secretValues: secrets)
            let shown = Comparison(endpoint: first.endpoint.id, comparison, mask: { masker.mask($0) })
            // After both exchanges are written (the queue is serial), so the History pane lists them.
            recording.async { send(.environmentsCompared(shown, matches: comparison.matches)) }
        }
    }

    /// Records a step's exchange in the history, off the main queue, secrets masked.
    private func record(_ step: SequenceStep<HistoryEntry>) {
        guard let entry = step.historyEntry, let history else { return }
        let secrets = step.secrets
        recording.async { _ = history.record(entry, secrets: secrets) }
    }

    /// Sends what the endpoint `requires:` first (as `explorer send` does), then the endpoint
    /// itself as every TUI send goes; when a prerequisite fails, the endpoint is not sent.
    package func sendAfterPrerequisites(_ id: Int, _ plan: RequestPlan, send: @escaping @Sendable (AppAction) -> Void) {
        let task = Task { [weak self] in
            guard
                let runner = await self?.runner(
                    for: plan.collection, plan.environment, answers: plan.answers, send: send)
            else { return }
            let steps = await runner.sendPrerequisites(of: plan.endpoint) { step in
                self?.record(step)
                send(
                    .message(
                        "Sent \(step.endpoint.id) first (\(step.prerequisiteReason ?? "required")): \(step.statusText)",
                        isError: step.outcome != .passed))
            }
            guard let self, !Task.isCancelled else { return }
            tasks.done(.exchange(id))
            if let prompt = steps.last?.unansweredPrompt {
                send(.promptsNeeded(.exchange(id), [prompt]))
                return
            }
            if let failed = steps.last(where: { $0.outcome != .passed }) {
                send(
                    .resolveFailed(
                        exchange: id,
                        "\(failed.endpoint.id) did not succeed (\(failed.statusText)), "
                            + "so \(plan.endpoint.id) was not sent."
                    ))
                return
            }
            sending.resolveAndSend(id, plan, send: send)
        }
        tasks.started(.exchange(id), task)
    }

    /// Runs endpoints one after another through the sequence runner, reporting each result
    /// and then the summary `explorer run` prints.
    package func runFolder(_ id: Int, _ plan: RunPlan, send: @escaping @Sendable (AppAction) -> Void) {
        // Every prompt of the run is asked before its first request goes out.
        let captured = CaptureStore().variables(
            collection: plan.collection.storeKey, environment: plan.environment.name)
        let sent = plan.endpoints.flatMap {
            plan.collection.prerequisites(of: $0, captured: captured).map(\.endpoint) + [$0]
        }
        let prompts = plan.collection.unansweredPrompts(
            of: sent, in: plan.environment, answers: plan.answers, captured: captured)
        guard prompts.isEmpty else {
            send(.promptsNeeded(.run(id, plan), prompts))
            return
        }
        let task = Task { [weak self] in
            guard
                let runner = await self?.runner(
                    for: plan.collection, plan.environment, answers: plan.answers, send: send)
            else { return }
            let started = Date()
            var results: [RunResult] = []
            for endpoint in plan.endpoints where !Task.isCancelled {
                await runner.run(endpoint) { step in
                    self?.record(step)
                    let entry = step.exchange?.record
                    let result = RunResult(
                        step: step, iteration: 1, status: entry?.status,
                        milliseconds: entry?.timings.totalMilliseconds ?? 0)
                    results.append(result)
                    send(.runStepped(run: id, result))
                }
            }
            self?.tasks.done(.run(id))
            send(
                .runFinished(
                    run: id,
                    RunSummary(
                        collection: plan.collection.name, environment: plan.environment.name, results: results,
                        seconds: Date().timeIntervalSince(started), startedAt: started)))
        }
        tasks.started(.run(id), task)
    }
}
