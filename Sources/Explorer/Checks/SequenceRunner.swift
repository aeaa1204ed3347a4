import Foundation
import Synchronization
import Workspace

/// What sending one request gave: the facts checks read, or the transport's failure; and
/// whatever the sender keeps about the exchange (the CLI's history entry, the TUI's exchange).
package struct SentExchange<Record: Sendable>: Sendable {
    /// The response, or `nil` when none came.
    package var response: CheckedResponse?
    /// Why no response came (refused, timeout …), one sentence.
    package var failure: String?
    /// The sender's own record of the exchange.
    package var record: Record

    /// Creates an outcome.
    package init(response: CheckedResponse?, failure: String?, record: Record) {
        self.response = response
        self.failure = failure
        self.record = record
    }
}

/// How sending one endpoint ended.
package enum StepOutcome: String, Sendable, Hashable {
    /// Every assertion passed and every capture found its value.
    case passed
    /// An assertion failed or a capture found nothing.
    case failed
    /// No response came.
    case transportFailure
    /// The request could not be built.
    case notSent
}

/// One endpoint sent by a sequence: the request, what came back, what its checks found.
package struct SequenceStep<Record: Sendable>: Sendable {
    /// The endpoint.
    package var endpoint: Endpoint
    /// Why it was sent before the one asked for (`requires:`), or `nil`.
    package var prerequisiteReason: String?
    /// The resolved request (secrets available through its masker), or `nil` when it could
    /// not be resolved.
    package var resolved: ResolvedRequest?
    /// Why it could not be resolved (an undefined variable …), with `file:line:column`.
    package var resolveError: String?
    /// The `{{prompt}}` it could not be resolved without (the TUI asks, then sends again).
    package var unansweredPrompt: UnansweredPrompt?
    /// The last exchange (after retries), or `nil` when nothing was sent.
    package var exchange: SentExchange<Record>?
    /// The checks of the last exchange.
    package var report: CheckReport
    /// How many times it was sent (more than one with `retry:`).
    package var attempts: Int

    /// How the step ended.
    package var outcome: StepOutcome {
        if resolveError != nil { return .notSent }
        if exchange?.failure != nil || exchange?.response == nil { return .transportFailure }
        return report.passed ? .passed : .failed
    }

    /// The secret values to mask when the exchange is shown or stored: the request's, and
    /// every secret the step captured (a login's answer repeats its token).
    package var secrets: [String] {
        (resolved?.masker.secretValues ?? []) + report.captured.filter(\.isSecret).map(\.value)
    }
}

/// Sends endpoints of a collection the way a sequence needs: captured variables flow from
/// one request to the next (and are kept in the `CaptureStore`), `requires:` sends what is
/// missing first, `retry:` sends again until the assertions pass.
///
/// The transport is the caller's (`send`), so the CLI and the TUI share the rules and each
/// keeps its own way of sending, recording and showing.
package final class SequenceRunner<Record: Sendable>: Sendable {
    /// Sends one resolved request.
    package typealias Send = @Sendable (ResolvedRequest) async -> SentExchange<Record>
    /// Checks a resolved request before it goes out: why it must not be sent (a GraphQL
    /// document that does not validate against its schema), or `nil` to send it.
    package typealias Check = @Sendable (ResolvedRequest) async -> String?

    private let collection: APICollection
    private let environment: Environment
    private let overrides: [String: String]
    private let store: CaptureStore?
    private let collectionKey: String
    private let resolver: RequestResolver
    private let send: Send
    private let check: Check?
    private let validation: ResponseValidation?
    /// The variables captured so far, from the store and this run.
    private let captured: Mutex<[String: CapturedVariable]>
    /// Reports problems that do not stop a run (the capture file cannot be written).
    private let report: @Sendable (String) -> Void

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - collection: the collection.
    ///   - environment: the environment to send in.
    ///   - overrides: `--var` values.
    ///   - store: where captured variables are read from and kept (`nil`: this run only).
    ///   - resolver: resolves endpoints (the built-ins' time and the process environment).
    ///   - report: where a non-fatal problem's sentence goes.
    ///   - check: checks each request before it is sent; what it returns stops it (the step
    ///     is not sent, as for a request that cannot be resolved).
    ///   - validation: checks responses against the collection's OpenAPI document.
    ///   - send: sends one request.
    package init(
        collection: APICollection, environment: Environment, overrides: [String: String] = [:], store: CaptureStore?,
        resolver: RequestResolver = RequestResolver(), report: @escaping @Sendable (String) -> Void = { _ in },
        check: Check? = nil, validation: ResponseValidation? = nil, send: @escaping Send
    ) {
        self.check = check
        self.validation = validation
        self.collection = collection
        self.environment = environment
        self.overrides = overrides
        self.store = store
        self.collectionKey = collection.storeKey
        self.resolver = resolver
        self.report = report
        self.send = send
        self.captured = Mutex(store?.variables(collection: collection.storeKey, environment: environment.name) ?? [:])
    }

    /// The variables captured so far (from the store and this run).
    package var capturedVariables: [String: CapturedVariable] { captured.withLock { $0 } }

    /// Sends an endpoint, after the endpoints it requires whose captures are missing or stale.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint.
    ///   - withPrerequisites: whether `requires:` is followed.
    ///   - variables: values for this call only (a data file's row), above everything but
    ///     `--var`: above captured values, the environment's and the collection's.
    ///   - onStep: called after each endpoint sent, prerequisites first.
    /// - Returns: every step, the asked endpoint's last. A prerequisite that fails ends the
    ///   list there: the endpoint that needed it is not sent.
    @discardableResult
    package func run(
        _ endpoint: Endpoint, withPrerequisites: Bool = true, variables: [String: String] = [:],
        onStep: (SequenceStep<Record>) -> Void = { _ in }
    ) async -> [SequenceStep<Record>] {
        var steps: [SequenceStep<Record>] = []
        if withPrerequisites {
            steps = await sendPrerequisites(of: endpoint, variables: variables, onStep: onStep)
            guard steps.allSatisfy({ $0.outcome == .passed }) else { return steps }
        }
        let step = await sendWithRetries(endpoint, variables: variables)
        steps.append(step)
        onStep(step)
        return steps
    }

    /// Sends the endpoints `endpoint` requires whose captures are missing or stale, each
    /// after those it requires, and stops at the first that does not pass. The TUI sends the
    /// endpoint itself its own way (streaming) once these passed.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint about to be sent.
    ///   - variables: values for this call only, under `--var` (see `run`).
    ///   - onStep: called after each endpoint sent.
    /// - Returns: the prerequisites sent, each with why; the last one failed when not all passed.
    package func sendPrerequisites(
        of endpoint: Endpoint, variables: [String: String] = [:], onStep: (SequenceStep<Record>) -> Void = { _ in }
    ) async -> [SequenceStep<Record>] {
        var steps: [SequenceStep<Record>] = []
        for (prerequisite, reason) in collection.prerequisites(of: endpoint, captured: capturedVariables) {
            var step = await sendWithRetries(prerequisite, variables: variables)
            step.prerequisiteReason = reason
            steps.append(step)
            onStep(step)
            guard step.outcome == .passed else { break }
        }
        return steps
    }

    /// Resolves and sends one endpoint, again while `retry:` allows and its assertions fail
    /// (or no response came), then keeps what it captured.
    private func sendWithRetries(_ endpoint: Endpoint, variables: [String: String]) async -> SequenceStep<Record> {
        var step = SequenceStep<Record>(endpoint: endpoint, report: CheckReport(), attempts: 0)
        let retries = endpoint.retry?.count ?? 0
        // `--var` wins over the call's values; both win over captured values.
        let overrides =
            variables.isEmpty ? self.overrides : variables.merging(self.overrides) { _, commandLine in commandLine }
        while true {
            let resolved: ResolvedRequest
            do {
                resolved = try resolver.resolve(
                    endpoint, in: collection, environment: environment, overrides: overrides,
                    captured: capturedVariables)
            } catch {
                step.resolveError = sentence(describing: error)
                step.unansweredPrompt = UnansweredPrompt(stoppedAt: error)
                return step
            }
            step.resolved = resolved
            if step.attempts == 0, let check, let problem = await check(resolved) {
                step.resolveError = problem
                return step
            }
            step.attempts += 1
            let exchange = await send(resolved)
            step.exchange = exchange
            if let response = exchange.response {
                step.report = endpoint.check(
                    response, secretNames: environment.secrets, expand: resolved.expand,
                    schema: validation?.check(resolved, response: response))
            } else {
                step.report = CheckReport()
            }
            let done = step.outcome == .passed || step.attempts > retries
            if done { break }
            let interval = endpoint.retry?.interval ?? 0
            try? await Task.sleep(for: .milliseconds(Int64((interval * 1000).rounded())))
            if Task.isCancelled { break }
        }
        keep(step)
        return step
    }

    /// Keeps a step's captured values for the next requests, and in the store.
    private func keep(_ step: SequenceStep<Record>) {
        guard !step.report.captured.isEmpty else { return }
        let now = Date()
        var values: [String: CapturedVariable] = [:]
        for capture in step.report.captured {
            values[capture.name] = CapturedVariable(
                value: capture.value, endpoint: step.endpoint.id, capturedAt: now, isSecret: capture.isSecret,
                origin: step.resolved.map { CapturedVariable.origin(of: $0.baseURL) })
        }
        captured.withLock { $0.merge(values) { _, new in new } }
        do {
            try store?.store(values, collection: collectionKey, environment: environment.name)
        } catch {
            report(String(describing: error))
        }
    }
}
