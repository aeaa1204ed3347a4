import ArgumentParser
import Formats
import Foundation
import GraphQLSupport
import NetworkingCore
import Workspace

extension ImportCommand {
    /// `explorer import graphql URL|schema.graphql`: one endpoint per root query and mutation
    /// field, with a selection of its scalar fields.
    struct GraphQL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "graphql",
            abstract: "Import a GraphQL schema: one endpoint per query and mutation field.",
            discussion:
                "From a schema file (SDL, .graphql) or from a server's URL (asked by introspection). "
                + "Each endpoint selects the scalar fields of what its field "
                + "returns and takes every argument as a variable."
        )
        @Argument(help: "The GraphQL URL (http://…/graphql) or a schema file (.graphql).") var source: String
        @Option(
            name: .long, help: "Where the server answers, for a schema file (default: http://127.0.0.1:4000/graphql).")
        var url: String?
        @Option(
            name: .customLong("header"),
            help: "A header for the introspection request (\"Authorization: Bearer …\"); repeatable.")
        var headers: [String] = []
        @OptionGroup var destination: Destination

        func run() async throws {
            let isURL = source.hasPrefix("http://") || source.hasPrefix("https://")
            let sdl: String
            let endpointURL: URL
            if isURL {
                guard let url = URL(string: source) else {
                    printError("\(source) is not a URL.")
                    throw ExitCode(2)
                }
                var fields = HTTPHeaders()
                for header in headers {
                    guard let colon = header.firstIndex(of: ":") else {
                        printError("--header \(header) is not NAME: VALUE.")
                        throw ExitCode(2)
                    }
                    fields.add(
                        name: String(header[..<colon]).trimmingCharacters(in: .whitespaces),
                        value: String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
                }
                let transport = AsyncHTTPClientTransport()
                do {
                    sdl = try await GraphQLIntrospection.fetchSDL(from: url, headers: fields, transport: transport)
                    try? await transport.shutdown()
                } catch {
                    try? await transport.shutdown()
                    printError("\(source): the schema cannot be read by introspection: \(error)")
                    throw ExitCode(1)
                }
                endpointURL = url
            } else {
                guard let text = try? String(contentsOfFile: source, encoding: .utf8) else {
                    printError("The file \(source) cannot be read.")
                    throw ExitCode(1)
                }
                sdl = text
                guard let url = URL(string: url ?? "http://127.0.0.1:4000/graphql") else {
                    printError("--url \(url ?? "") is not a URL.")
                    throw ExitCode(2)
                }
                endpointURL = url
            }
            try ImportCommand.finish(destination: destination) {
                try GraphQLImporter().importSchema(sdl, source: source, endpointURL: endpointURL)
            }
        }
    }
}
