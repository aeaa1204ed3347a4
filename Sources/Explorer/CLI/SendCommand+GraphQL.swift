import ArgumentParser
import Foundation
import History
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
