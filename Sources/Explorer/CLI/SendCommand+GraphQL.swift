import ArgumentParser
import Checks
import Foundation
import GraphQLSupport
import History
import NetworkingCore
import Synchronization
import Workspace

extension ExchangeSender {
    /// Lists a GraphQL response's `errors` on stderr (each message with its path and
    /// location) and, with `--check-status`, exits 4 for them whatever the status below 500:
    /// GraphQL servers answer `200 OK` with errors.
    ///
    /// - Throws: `ExitCode(4)` with `--check-status` when the body has GraphQL errors.
    static func checkGraphQLErrors(_ entry: HistoryEntry, output: ExchangeOutputOptions) throws {
        guard let body = entry.responseBody, entry.contentType?.contains("json") ?? false else { return }
        let errors = GraphQLResponseError.errors(in: body)
        guard !errors.isEmpty else { return }
        let status = entry.status ?? 0
        for line in GraphQLResponseError.summary(of: errors, limit: 20) { printError(line) }
        if output.checkStatus, status < 500 {
            printError("The GraphQL response of \(entry.method) \(entry.url) has errors (status \(status)).")
            throw ExitCode(4)
        }
    }
}

/// Validation of a GraphQL request against its schema before `send` and `run` send it: the
/// schema comes from the state folder's cache, else from the server by introspection; a
/// document that does not validate is not sent (exit 2), each problem printed as
/// `FILE:LINE:COL: message`; a schema that cannot be had is a warning, and the request goes.
extension ExchangeSender {
    /// The check a sequence runner makes before each request (`nil` to send it): the
    /// problems and what to do, when the document does not validate.
    ///
    /// - Parameter source: where schemas come from.
    static func graphQLCheck(_ source: GraphQLSchemaSource) -> SequenceRunner<HistoryEntry>.Check {
        let warned = WarnedOnce()
        return { resolved in
            switch await source.validate(resolved) {
            case .notGraphQL, .valid:
                return nil
            case .unchecked(let sentence):
                if warned.first(sentence) { printError("warning: \(sentence) Sent without validation.") }
                return nil
            case .invalid(let problems, let schema):
                return ExchangeSender.invalidText(problems, endpoint: resolved.endpoint.id, schema: schema)
            }
        }
    }

    /// The lines that say why a GraphQL request was not sent: each problem at
    /// `FILE:LINE:COL`, then one sentence naming the schema and `--no-validate`.
    static func invalidText(_ problems: [GraphQLProblem], endpoint: String, schema: LoadedGraphQLSchema) -> String {
        let formatter = ISO8601DateFormatter()
        let origin = schema.fromCache ? "cached \(formatter.string(from: schema.fetchedAt))" : "fetched now"
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        let refresh = "explorer graphql schema --env \(schema.key.environment) --refresh"
        return
            (problems.map(\.description)
            + [
                "Not sent: the GraphQL query of \"\(endpoint)\" has \(count) against the schema of "
                    + "\(schema.key.shownURL) in \(schema.key.environment) (\(origin)); fix it, "
                    + "refresh the schema with `\(refresh)`, or send with --no-validate."
            ])
            .joined(separator: "\n")
    }

    /// Validates a plan's GraphQL document before it is sent, with a transport of this
    /// sender's settings made for it.
    ///
    /// - Throws: `ExitCode(2)` after the problems on stderr when it does not validate.
    func validateGraphQL(_ plan: Plan) async throws {
        guard case .resolved(let resolved) = plan.target, resolved.graphQLDocument != nil else { return }
        let transport = AsyncHTTPClientTransport(configuration: transportConfiguration)
        let problem = await Self.graphQLCheck(GraphQLSchemaSource(cache: GraphQLSchemaCache(), transport: transport))(
            resolved)
        try? await transport.shutdown()
        if let problem {
            printError(problem)
            throw ExitCode(2)
        }
    }
}

/// Remembers which warnings were printed, so a run of many requests warns once for each.
final class WarnedOnce: Sendable {
    private let seen = Mutex<Set<String>>([])

    /// Whether this is the first time `text` is seen.
    func first(_ text: String) -> Bool {
        seen.withLock { $0.insert(text).inserted }
    }
}
