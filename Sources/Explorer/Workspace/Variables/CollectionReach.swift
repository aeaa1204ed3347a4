import Crypto
import Foundation
import NetworkingCore
import Yams

/// What a collection reaches beyond its own folder when it sends: the shell commands it runs
/// (`{{command …}}`), the files outside its folder it reads (`{{file …}}`, `body: { file: }`,
/// multipart file parts, GraphQL `@file` documents, the `openapi:` document, the gRPC
/// `protoset:` and `protos:` files and their import paths, the `tls:`
/// certificates and keys, the `.env` file; a symbolic link counts as where it points), and the
/// process environment variables it reads (`{{env.NAME}}`, and `env.NAME` as any function's
/// argument).
///
/// A collection opened by name, or trusted, may reach them; one found in a folder (a
/// repository just cloned) sends nothing until it is trusted, and trust holds for these
/// references only: a new command, file or variable asks again (`CollectionTrust`).
package struct CollectionReach: Sendable, Hashable {
    /// One thing reached.
    package enum Reference: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// A shell command line.
        case command(String)
        /// A file outside the collection's folder, by its resolved absolute path.
        case file(String)
        /// A process environment variable, by name.
        case environmentVariable(String)

        package var description: String {
            switch self {
            case .command(let line): "runs the command \(line)"
            case .file(let path): "reads the file \(path)"
            case .environmentVariable(let name): "reads the environment variable \(name)"
            }
        }
    }

    /// What the collection reaches, sorted, each once.
    package let references: [Reference]
    /// Where it sends, sorted, each once: each environment's `base_url` with the collection's
    /// own variables put in, and the servers endpoints name by whole URL. Trust holds for
    /// these too: what it reaches goes there, and a pull that points it elsewhere asks again.
    package let destinations: [String]

    /// Whether it reaches nothing beyond itself.
    package var isEmpty: Bool { references.isEmpty }

    /// The files outside the folder it reads, by real path (those made of variables as written).
    package var files: [String] {
        references.compactMap { if case .file(let path) = $0 { path } else { nil } }
    }

    /// A digest of the references: trust recorded with one digest does not cover another.
    package var digest: String {
        let text = (references.map(\.description) + destinations.map { "sends to \($0)" }).joined(separator: "\n")
        return SHA256.hash(data: Data(text.utf8)).hexDigits
    }

    /// What a collection reaches, its texts read from the YAML tree it would be written as
    /// (a collection made in memory: an import).
    ///
    /// - Parameters:
    ///   - collection: the collection.
    ///   - folder: its folder, where relative paths start.
    package init(_ collection: APICollection, folder: URL) {
        self.init(collection, texts: CollectionWriter.node(for: collection), folder: folder)
    }

    /// What a collection reaches, its texts read from a YAML tree: the file's as the loader
    /// composed it, or the one it would be written as.
    package init(_ collection: APICollection, texts tree: Node, folder: URL) {
        var texts: [String] = []
        Template.forEachText(of: tree) { text in
            if text.utf8.count > 1, text.contains("{{") { texts.append(text) }
        }
        self.init(collection, templateTexts: texts, folder: folder)
    }

    /// What a collection reaches, from the texts of its file that hold a template (`{{`): the
    /// files are found again on this machine each time (a link counts as where it points now).
    package init(_ collection: APICollection, templateTexts: [String], folder: URL) {
        var found = Set<Reference>()
        let root = folder.standardizedFileURL.resolvingSymlinksInPath().path
        func file(_ path: String) {
            // A path made of variables may point anywhere: it counts as written.
            guard !Template.containsVariables(path) else {
                found.insert(.file(path))
                return
            }
            let expanded = (path as NSString).expandingTildeInPath
            let url = expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded) : folder.appendingPathComponent(expanded)
            let resolved = url.standardizedFileURL.resolvingSymlinksInPath().path
            if resolved != root && !resolved.hasPrefix(root + "/") { found.insert(.file(resolved)) }
        }
        for text in templateTexts {
            for placeholder in Template.placeholders(in: text) {
                if placeholder.name.hasPrefix("env.") {
                    found.insert(.environmentVariable(String(placeholder.name.dropFirst(4))))
                } else if let call = TemplateFunction(placeholder.name) {
                    // Every argument, read as expansion reads it: a variable argument named
                    // `env.X` is looked up in the process environment (`{{base64 env.X}}`).
                    for argument in call.arguments {
                        if case .variable(let name) = argument, name.hasPrefix("env.") {
                            found.insert(.environmentVariable(String(name.dropFirst(4))))
                        }
                    }
                    guard let argument = call.arguments.first else { continue }
                    let value =
                        switch argument {
                        case .text(let text), .variable(let text): text
                        }
                    if call.name == "command" { found.insert(.command(value)) }
                    if call.name == "file" { file(value) }
                }
            }
        }
        // The `.env` beside the collection is read for `{{env.NAME}}`: a link out of the folder
        // reaches the file it points to.
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".env").path) { file(".env") }
        // A client certificate and key authenticate as whoever owns them; a CA decides whom
        // the collection believes.
        for environment in collection.environments {
            guard let tls = environment.tls else { continue }
            for path in [tls.caCertificateFile, tls.clientCertificateFile, tls.clientKeyFile].compactMap({ $0 }) {
                file(path)
            }
        }
        // One walk of the endpoints, none gathered (a collection may have ten thousand): the
        // files their bodies send, and the servers they name by whole URL.
        var servers = Set<String>()
        collection.forEachEndpoint { endpoint in
            switch endpoint.body {
            case .file(let path)?: file(path)
            case .multipart(let fields)?: for field in fields where field.isFile { file(field.value) }
            default: break
            }
            if case .file(let path)? = endpoint.graphql?.document { file(path) }
            if let server = RequestResolver.server(ofAbsolute: endpoint.path) { servers.insert(server) }
        }
        // The OpenAPI document responses are checked against. One named by URL reads nothing
        // of this machine: it is fetched as a request is sent, and named with where the
        // collection sends (`CollectionTrust.refusal`).
        if let document = collection.openAPI, case .file = OpenAPILocation(document, folder: folder) { file(document) }
        // The gRPC schema's files, and the folders protoc reads what they import from.
        for path in collection.grpcSchema.files + collection.grpcSchema.importPaths { file(path) }
        // AWS credentials read from the shared files or the environment.
        found.formUnion(Self.signingReferences(of: collection))
        references = found.sorted()
        for environment in collection.environments {
            servers.insert(environment.asWritten(environment.baseURLTemplate, in: collection))
        }
        destinations = servers.sorted()
    }
}

extension Template {
    /// Calls `visit` with every text of a YAML tree, keys and values, in document order, as
    /// `mapTexts` reads them, without building a new tree.
    package static func forEachText(of node: Node, _ visit: (String) -> Void) {
        switch node {
        case .scalar(let scalar): visit(scalar.string)
        case .mapping(let mapping):
            // By index: iterating a mapping copies all its pairs first.
            for index in mapping.indices {
                forEachText(of: mapping[index].key, visit)
                forEachText(of: mapping[index].value, visit)
            }
        case .sequence(let sequence): for item in sequence { forEachText(of: item, visit) }
        case .alias: break
        }
    }

    /// A YAML tree with `transform` applied to every text, keys and values, in document
    /// order: how the texts of a whole collection are read (what it reaches) or rewritten (an
    /// import's commands renamed). A text without `{{` is handed over too.
    package static func mapTexts(of node: Node, _ transform: (String) -> String) -> Node {
        switch node {
        case .scalar(var scalar):
            scalar.string = transform(scalar.string)
            return .scalar(scalar)
        case .mapping(var mapping):
            for index in mapping.indices {
                let (key, value) = mapping[index]
                mapping[index] = (mapTexts(of: key, transform), mapTexts(of: value, transform))
            }
            return .mapping(mapping)
        case .sequence(var sequence):
            for index in sequence.indices { sequence[index] = mapTexts(of: sequence[index], transform) }
            return .sequence(sequence)
        case .alias:
            return node
        }
    }
}

extension CollectionReach {
    /// What the collection file on disk reaches; `nil` when it cannot be loaded (the load
    /// itself then says why).
    package init?(loading collectionFile: URL) {
        guard let (_, reach) = try? CollectionLoader.loadReaching(from: collectionFile) else { return nil }
        self = reach
    }
}

extension CollectionTrust {
    /// Why a collection may not send, listing what it would reach and where it would send,
    /// or `nil` when it may: it reaches nothing beyond its folder, or it was trusted (or
    /// opened by name) with what it reaches now.
    ///
    /// - Parameters:
    ///   - collection: the loaded collection.
    ///   - reach: what it reaches (`CollectionLoader.loadReaching`).
    ///   - collectionFile: its file.
    package func refusal(for collection: APICollection, reaching reach: CollectionReach, at collectionFile: URL)
        -> String?
    {
        guard !isTrusted(collectionFile, reach: reach) else { return nil }
        let destinations = collection.environments.map { "\($0.name) \($0.baseURLTemplate)" }
        var fetched = ""
        if case .remote(let url)? = OpenAPILocation(collection) {
            fetched = "It fetches its OpenAPI document from \(url.absoluteString). "
        }
        return "\(collectionFile.path) was found, not named, and reaches beyond its folder: it "
            + reach.references.map(\.description).joined(separator: "; it ") + ". "
            + (destinations.isEmpty ? "" : "It sends to \(destinations.joined(separator: ", ")). ") + fetched
            + "Nothing was sent: read the collection, "
            + "then run explorer trust \(collectionFile.path) (or open it with --collection)."
    }
}

/// A file a collection names, read as a request is sent: where it really is then decides. A
/// file in the collection's folder is read; one outside it only when the collection's trust
/// lists it (`CollectionTrust.permitsReading`): the reach was checked when the collection was
/// loaded, and a file swapped for a link to another one since (a `git pull`, a TUI left open)
/// must not be read on that check's word.
package struct SendTimeFiles: Sendable {
    /// The collection file; `nil` for a collection made in memory, whose files are not checked.
    let collectionFile: URL?
    /// The trust list of the user's state folder.
    let trust: CollectionTrust

    package init(collectionFile: URL?, environment: [String: String]) {
        self.collectionFile = collectionFile
        trust = CollectionTrust(environment: environment)
    }

    /// Why `url` may not be read now, or `nil` when it may.
    package func refusal(toRead url: URL) -> String? {
        guard let collectionFile else { return nil }
        let root = collectionFile.deletingLastPathComponent().standardizedFileURL.resolvingSymlinksInPath().path
        let real = url.standardizedFileURL.resolvingSymlinksInPath().path
        guard real != root, !real.hasPrefix(root + "/") else { return nil }
        guard !trust.permitsReading(real, from: collectionFile) else { return nil }
        return
            "\(url.path) is \(real == url.standardizedFileURL.path ? "" : "a link to \(real), ")outside "
            + "the collection's folder, "
            + "and \(collectionFile.path) was not trusted to read it. "
            + "Read the collection, then run explorer trust \(collectionFile.path) (or open it with --collection)"
    }
}
