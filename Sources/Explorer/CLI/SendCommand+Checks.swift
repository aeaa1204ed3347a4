import ArgumentParser
import Checks
import Formats
import Foundation
import GraphQLSupport
import History
import NetworkingCore
import Workspace

/// `explorer send` for an endpoint that captures, asserts or requires: the endpoints it
/// requires go first when what they capture is missing, captured values are kept for the next
/// process, and a failed assertion ends with exit code 3.
extension ExchangeSender {
    /// Sends through a `SequenceRunner`, prints the endpoint's response as `send` always
    /// does, then what its checks found.
    ///
    /// - Throws: `ExitCode` 3 (an assertion failed or a capture found nothing, here or in an
    ///   endpoint it requires), 1 (transport failure), 2 (a required endpoint cannot be
    ///   resolved), 4 or 5 (with `--check-status`).
    func runChecked(
        _ endpoint: Endpoint, in collection: APICollection, at collectionPath: String, environment: Environment,
        overrides: [String: String], recorder: HistoryRecorder?, output: ExchangeOutputOptions,
        validatesGraphQL: Bool = true,
        validation: ResponseValidation? = nil
    ) async throws {
        // Introspection for the validation goes through a transport of this sender's settings,
        // shut down once the steps are sent.
        let schemaTransport = validatesGraphQL ? AsyncHTTPClientTransport(configuration: transportConfiguration) : nil
        let check = schemaTransport.map {
            Self.graphQLCheck(GraphQLSchemaSource(cache: GraphQLSchemaCache(), transport: $0))
        }
        let runner = makeRunner(
            collection: collection, at: collectionPath, environment: environment, overrides: overrides, check: check,
            validation: validation)
        let steps = await runner.run(endpoint)
        try? await schemaTransport?.shutdown()
        for step in steps.dropLast() {
            let entry = step.historyEntry
            if let entry { recorder?.record(entry, secrets: step.secrets) }
            printError("Sent \(step.endpoint.id) first (\(step.prerequisiteReason ?? "required")): \(step.statusText)")
            step.report.failureLines.forEach(printError)
        }
        guard let last = steps.last else { return }
        guard last.endpoint.id == endpoint.id else {
            // A prerequisite failed: what needed it was not sent.
            printError("\(last.endpoint.id) did not succeed, so \(endpoint.id) was not sent.")
            throw Self.exitCode(for: last)
        }
        if let problem = last.resolveError {
            printError(problem)
            throw ExitCode(2)
        }
        guard var entry = last.historyEntry else { throw ExitCode(1) }
        entry.collectionPath = collectionPath
        printNotes(for: entry)
        let historyId = recorder?.record(entry, secrets: last.secrets)
        if entry.method == HistoryEntry.grpcMethod {
            return try Self.finishGRPC(entry, historyId: historyId, step: last, output: output)
        }
        if output.json {
            ExchangeOutput.writeJSON(of: entry, historyId: historyId, checks: last.report)
        } else if entry.transportError == nil {
            let terminal = ExchangeOutput.stdoutIsTerminal
            if output.include { ExchangeOutput.write(ExchangeOutput.head(of: entry, terminal: terminal)) }
            try ExchangeSender.writeBody(entry, filter: output.jsonPath, terminal: terminal)
        }
        if let failure = entry.transportError {
            printError(failure)
            throw ExitCode(1)
        }
        if last.attempts > 1 { printError("Sent \(last.attempts) times (retry).") }
        last.report.failureLines.forEach(printError)
        if let schema = last.report.schema, schema.passed, let unmatched = schema.unmatched {
            printError("note: \(unmatched); the response was not checked.")
        }
        if !last.report.passed { throw ExitCode(3) }
        try Self.checkStatus(entry, output: output)
    }

    /// Ends `send` of a gRPC endpoint that checks or requires: its messages (one JSON per
    /// line), or `--json`'s object with `checks`; the status when not OK, what failed.
    ///
    /// - Throws: `ExitCode` 1 (no status), 3 (a check failed), 64 + the status code for a
    ///   status other than OK that no `grpc_status` assertion expected.
    static func finishGRPC(
        _ entry: HistoryEntry, historyId: Int64?, step: SequenceStep<HistoryEntry>, output: ExchangeOutputOptions
    ) throws {
        if let failure = entry.transportError {
            printError(failure)
            throw ExitCode(1)
        }
        let call = entry.responseBody.flatMap { try? JSONValue(parsing: $0) } ?? .object([])
        if output.json {
            var object: [(key: String, value: JSONValue)] = [
                ("url", .string(entry.url)), ("environment", entry.environment.map(JSONValue.string) ?? .null),
                ("endpoint", entry.endpoint.map(JSONValue.string) ?? .null), ("grpc", call),
                ("timings", .object([("total", JSONValue(entry.timings.totalMilliseconds))])),
                ("historyId", historyId.map { JSONValue(Int($0)) } ?? .null),
            ]
            object.append(
                (
                    "checks",
                    .array(
                        step.report.assertions.map { result in
                            .object([
                                ("assert", .string(result.text)), ("passed", .bool(result.passed)),
                                ("actual", result.actual.map(JSONValue.string) ?? .null),
                                ("reason", result.reason.map(JSONValue.string) ?? .null),
                            ])
                        })
                ))
            printLine(JSONValue.object(object).serialized())
        } else {
            if case .array(let messages)? = call["messages"] {
                for message in messages { printLine(message.serialized(pretty: ExchangeOutput.stdoutIsTerminal)) }
            }
            if let name = call["status"]?.stringValue, name != "OK" {
                let message = call["message"]?.stringValue ?? ""
                printError("ERROR: \(name)\(message.isEmpty ? "" : ": \(message)")")
                if let details = call["details"] { writeStandardError(details.serialized(pretty: true) + "\n") }
            }
        }
        step.report.failureLines.forEach(printError)
        if !step.report.passed { throw ExitCode(3) }
        let code = call["code"]?.intValue ?? 0
        let expected = step.endpoint.assertions.contains { $0.query == .grpcStatus }
        if code != 0 && !expected { throw ExitCode(Int32(64 + code)) }
    }

    /// A runner that sends with this sender's limits and keeps captures in the state folder.
    ///
    /// - Parameters:
    ///   - transport: a transport kept for the whole run (its connections reused); one per
    ///     request when `nil`.
    ///   - check: what stops a request before it is sent (GraphQL validation).
    func makeRunner(
        collection: APICollection, at path: String, environment: Environment, overrides: [String: String],
        through transport: AsyncHTTPClientTransport? = nil, check: SequenceRunner<HistoryEntry>.Check? = nil,
        validation: ResponseValidation? = nil
    ) -> SequenceRunner<HistoryEntry> {
        let sender = self
        return SequenceRunner<HistoryEntry>(
            collection: collection, environment: environment, overrides: overrides, store: CaptureStore(),
            resolver: .asking, report: { printError($0) }, check: check, validation: validation,
            send: { resolved in
                if resolved.endpoint.isGRPC {
                    return await GRPCSender.caller(
                        collection: collection, collectionFile: URL(fileURLWithPath: path), options: nil,
                        maxTime: sender.maxTime
                    ).exchange(resolved, collectionPath: path)
                }
                let plan = Plan(
                    target: .resolved(resolved), collectionPath: path, secrets: resolved.masker.secretValues)
                let entry: HistoryEntry
                if let transport {
                    entry = await sender.send(plan, through: transport)
                } else {
                    entry = await sender.send(plan)
                }
                return SentExchange(response: entry.checkedResponse, failure: entry.transportError, record: entry)
            })
    }

    /// What checks responses against the collection's `openapi:` document: `nil` when nothing
    /// asks (no `validate`, and no `schema` assertion in `endpoint`, when given, or in the
    /// collection), or the collection names no document.
    ///
    /// - Parameters:
    ///   - everyResponse: every response is checked (`--validate`, `validate: true`).
    ///   - endpoint: the endpoint about to be sent, when only one is.
    /// - Throws: `ExitCode(2)` after one sentence when checking is asked for and the document
    ///   is missing or cannot be read.
    static func responseValidation(for collection: APICollection, everyResponse: Bool, asking endpoint: Endpoint? = nil)
        async throws -> ResponseValidation?
    {
        let endpoints = endpoint.map { [$0] } ?? collection.endpoints
        let asked = endpoints.contains { $0.assertions.contains { $0.query == .schema } }
        guard everyResponse || asked else { return nil }
        guard collection.openAPI != nil else {
            if everyResponse {
                printError(
                    "Responses cannot be validated: the collection names no OpenAPI document; add openapi: "
                        + "FILE at its top (explorer import openapi writes it)."
                )
                throw ExitCode(2)
            }
            return nil  // a `schema` assertion fails and says why
        }
        do {
            // The document's own mistakes are told once each (ResponseContract keeps count).
            let contract = try await ResponseContract.linked(for: collection) { printError("warning: \($0)") }
            return contract.map { ResponseValidation($0, everyResponse: everyResponse) }
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(2)
        }
    }

    /// The exit code a step that did not pass calls for.
    static func exitCode(for step: SequenceStep<HistoryEntry>) -> ExitCode {
        switch step.outcome {
        case .passed: ExitCode(0)
        case .failed: ExitCode(3)
        case .transportFailure: ExitCode(1)
        case .notSent: ExitCode(2)
        }
    }
}
