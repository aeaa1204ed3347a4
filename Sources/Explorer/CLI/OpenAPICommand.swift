import ArgumentParser
import Formats
import Foundation
import Workspace

/// `explorer openapi refresh`: reads the collection's `openapi:` document again and says what
/// changed since its endpoints were imported, without changing the collection unless asked
/// (`--add` adds the new operations).
struct OpenAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Work with the OpenAPI document a collection names (openapi:).",
        subcommands: [Refresh.self]
    )

    struct Refresh: AsyncParsableCommand, CollectionOptionsHelp {
        static let configuration = CommandConfiguration(
            commandName: "refresh",
            abstract: "Read the collection's OpenAPI document again and list what changed since the import.",
            discussion: """
                Operations the document has that no endpoint names (operation:), endpoints whose \
                operation is gone, and endpoints whose operation now has another method, path, \
                parameters or kind of body. Nothing is changed unless --add is given, which adds \
                the new operations as import openapi would. Exit codes: 0 when the collection \
                matches its document, 3 when it does not (after --add: when something is still \
                different), 2 for usage, collection and document errors.
                """
        )

        @OptionGroup var collectionOptions: CollectionOptions<Refresh>

        @Flag(
            name: .long, help: "Add the operations the collection does not have yet (as import openapi --into would).")
        var add = false

        @Flag(name: .long, help: "Print one JSON object: added, removed, changed, unlinked.")
        var json = false

        func run() async throws {
            let (file, collection) = try collectionOptions.load()
            guard let named = collection.openAPI else {
                printError(
                    "\(file.path) names no OpenAPI document: add openapi: FILE at its top, "
                        + "or import one with explorer import openapi FILE --into \(file.lastPathComponent)."
                )
                throw ExitCode(2)
            }
            let imported: ImportResult
            do {
                imported = try await OpenAPIImporter().importLinked(
                    OpenAPILocation(named, folder: file.deletingLastPathComponent()))
            } catch {
                printError(sentence(describing: error))
                throw ExitCode(2)
            }
            var drift = OpenAPIDrift(collection: collection, document: imported.collection)
            if add, !drift.added.isEmpty {
                var additions = imported.collection
                // A new operation named like an endpoint there already (an operationId that
                // changed) is added beside it, its name followed by its operation.
                let present = Set(collection.endpoints.map(\.id))
                additions.items = drift.added.map { endpoint in
                    var endpoint = endpoint
                    if present.contains(endpoint.id) {
                        endpoint.name += " (\(endpoint.operation ?? endpoint.method.rawValue))"
                    }
                    return .endpoint(endpoint)
                }
                additions.openAPI = named
                do {
                    let report = try ImportCommand.merge(additions, into: file, force: false, ask: nil)
                    printError("\(file.path): added \(report.added.count) endpoint(s).")
                } catch let failure as ImportCommand.MergeFailure {
                    printError(failure.description)
                    throw ExitCode(2)
                }
                drift.added = []
            }
            if json {
                let object: [String: Any] = [
                    "document": named,
                    "added": drift.added.map {
                        ["operation": $0.operation ?? "", "method": $0.method.rawValue, "path": $0.path]
                    },
                    "removed": drift.removed.map { ["endpoint": $0.id, "operation": $0.operation ?? ""] },
                    "changed": drift.changed.map {
                        ["endpoint": $0.endpoint.id, "operation": $0.endpoint.operation ?? "", "changes": $0.changes]
                            as [String: Any]
                    },
                    "unlinked": drift.unlinked,
                ]
                ExchangeOutput.write(ExchangeOutput.jsonText(object) + "\n")
            } else if drift.isEmpty {
                printLine(
                    ExchangeOutput.escapingControls(
                        "\(file.lastPathComponent) matches \(named).", keepingLineBreaks: false))
            } else {
                // Operation ids, paths and names come from the document and the collection: escaped.
                for line in drift.lines { printLine(ExchangeOutput.escapingControls(line, keepingLineBreaks: false)) }
            }
            if drift.unlinked > 0, !json {
                printError("note: \(drift.unlinked) endpoint(s) name no operation: and were not compared.")
            }
            if !drift.isEmpty { throw ExitCode(3) }
        }
    }
}
