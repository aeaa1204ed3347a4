import Foundation
import NetworkingCore
import Yams

/// A collection read from its file, with what it reaches beyond its folder: what the trust
/// list is asked about before the collection may send.
package typealias LoadedCollection = (collection: APICollection, reach: CollectionReach)

/// Reads collection YAML into an `APICollection`, with errors and warnings at `file:line:column`.
///
/// YAML anchors, aliases and `<<` merge keys work; keys starting with `x-` are left alone.
/// Unknown keys and a `base_url` that is not a URL are warnings (so the file still opens; the
/// resolver refuses to send there); a missing `base_url`, duplicate endpoint or environment
/// names and values of the wrong shape are errors.
/// The file is only read, never written.
package enum CollectionLoader {
    /// Loads the collection file at `url`, with the `.env` file beside it.
    ///
    /// - Throws: `CollectionError`.
    package static func load(from url: URL) throws -> APICollection {
        try loadReaching(from: url).collection
    }

    /// Loads the collection file at `url`, and what it reaches beyond its folder, read from the
    /// YAML tree the load composed (no second pass over the collection).
    ///
    /// - Parameters:
    ///   - keepsLater: whether a parse the cache does not hold yet is written to it on another
    ///     thread after the load returns (a long-lived process: the TUI), rather than before (a
    ///     command that exits when done).
    ///   - patches: whether an edit within one endpoint of the text this process loaded last
    ///     is read alone, and this parse kept for the next (`CollectionPatch`): a process that
    ///     reloads the file it has open (the TUI).
    /// - Throws: `CollectionError`.
    package static func loadReaching(from url: URL, keepsLater: Bool = false, patches: Bool = false) throws
        -> LoadedCollection
    {
        try loadReaching(from: url, text: text(at: url), keepsLater: keepsLater, patches: patches)
    }

    /// The text of the collection file at `url`.
    ///
    /// - Throws: `CollectionError.unreadable` naming the file and why.
    static func text(at url: URL) throws -> String {
        // Read as bytes and checked as UTF-8 by the standard library (Foundation's decoding
        // copies the text twice); a file that does not read so, or starts with a byte order
        // mark, is read again by Foundation, which says why (or drops the mark).
        if let data = FileManager.default.contents(atPath: url.path), !data.starts(with: [0xEF, 0xBB, 0xBF]),
            let text = String(validating: data, as: UTF8.self)
        {
            return text
        }
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CollectionError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Loads the collection file at `url` from its text, already read (the watcher has read it
    /// to tell a change from a touch), with the `.env` file beside it.
    ///
    /// A large collection's parse is kept in `cache` and read from it the next time the same
    /// text is loaded (`CollectionCache`); what the collection reaches is found again each time.
    ///
    /// - Parameters:
    ///   - keepsLater: whether a parse the cache does not hold yet is written to it on another
    ///     thread after the load returns, rather than before.
    ///   - patches: whether an edit within one endpoint of the text this process loaded last
    ///     is read alone, and this parse kept for the next (`CollectionPatch`).
    /// - Throws: `CollectionError`.
    package static func loadReaching(
        from url: URL, text: String, cache: CollectionCache? = .current, keepsLater: Bool = false,
        patches: Bool = false
    ) throws -> LoadedCollection {
        let dotEnv = DotEnv.load(besides: url)
        let path = url.standardizedFileURL.path
        var parsed: ParsedCollection
        // An edit within one endpoint of the collection this process loaded last is read alone
        // (`CollectionPatch`); then a parse kept on disk; then the whole text.
        if patches, let base = CollectionPatch.base(path: path, dotEnv: dotEnv),
            let patched = CollectionPatch.patched(base, text: text)
        {
            parsed = patched
            if let cache, text != base.text {
                // The key hashes the whole text: done where the entry is written, a second
                // after the save, and only for the last of saves that come faster.
                let write: @Sendable () -> Void = {
                    if let key = cache.key(for: url, text: text) { cache.write(patched, for: key) }
                }
                if keepsLater { CollectionCache.writeAfterEdits(write) } else { write() }
            }
        } else {
            let key = cache?.key(for: url, text: text)
            if let cache, let key, let cached = cache.read(key, dotEnv: dotEnv) {
                parsed = cached
            } else {
                parsed = try parseWhole(text, file: url.path, dotEnv: dotEnv)
                if let cache, let key {
                    if keepsLater {
                        let kept = parsed
                        CollectionCache.writing.async { cache.write(kept, for: key) }
                    } else {
                        cache.write(parsed, for: key)
                    }
                }
            }
        }
        if patches {
            CollectionPatch.remember(CollectionPatch.Base(path: path, text: text, dotEnv: dotEnv, parsed: parsed))
        }
        parsed.collection.sourceURL = url
        let reach = CollectionReach(
            parsed.collection, templateTexts: parsed.templateTexts, folder: url.deletingLastPathComponent())
        return (parsed.collection, reach)
    }

    /// Parses collection YAML.
    ///
    /// - Parameters:
    ///   - text: the YAML.
    ///   - file: the path shown in errors and warnings.
    ///   - dotEnv: the `.env` values `{{env.NAME}}` falls back to.
    /// - Throws: `CollectionError`.
    package static func parse(_ text: String, file: String = "<collection>", dotEnv: [String: String] = [:]) throws
        -> APICollection
    {
        try parseTexts(text, file: file, dotEnv: dotEnv).collection
    }

    /// Parses collection YAML whole, with what `CollectionReach` reads of it and whether it has
    /// comments.
    static func parseWhole(_ text: String, file: String, dotEnv: [String: String]) throws -> ParsedCollection {
        var parsed = try parseTexts(text, file: file, dotEnv: dotEnv)
        parsed.collection.sourceHasComments = CollectionMerger.hasComments(text)
        return parsed
    }

    /// Parses collection YAML, giving back its texts that hold a template (`{{`) too, which is
    /// what `CollectionReach` reads of the file.
    private static func parseTexts(_ text: String, file: String, dotEnv: [String: String]) throws
        -> ParsedCollection
    {
        var reader = Reader(file: file)
        reader.source = text
        let composed: (root: Node?, composed: EventComposer.Composed?)
        do {
            composed = try BoundedYAML.composeCollection(text, file: file)
        } catch let error as YamlError {
            throw reader.malformed(error)
        } catch let error as DocumentLimitError {
            throw CollectionError.malformedYAML(error.location, problem: "\(error.problem). \(error.advice)")
        }
        let (collection, tree) = try read(
            composed.root, reader: reader, file: file, dotEnv: dotEnv,
            mayMerge: composed.composed?.hasMergeKeys ?? true)
        // The composer gathered the texts with a template as it went; a tree Yams composed is
        // walked for them.
        if let gathered = composed.composed {
            return ParsedCollection(
                collection: collection, templateTexts: gathered.templateTexts.compactMap { $0.scalar?.string },
                templateCounts: gathered.templateCounts,
                patchable: !gathered.hasAnchors && !gathered.hasAliases && !gathered.hasMergeKeys)
        }
        var texts: [String] = []
        Template.forEachText(of: tree) { text in
            if text.contains("{{") { texts.append(text) }
        }
        return ParsedCollection(collection: collection, templateTexts: texts)
    }

    /// Reads a collection from a YAML tree that was built, not composed from text (the tree
    /// `explorer import` writes), with every check `parse` makes after composing, and the size
    /// of the text written from it. The tree's nodes have no marks, so errors name line 1; its
    /// nesting is not measured.
    ///
    /// - Parameters:
    ///   - tree: the YAML tree.
    ///   - byteCount: the size of the YAML text written from `tree`.
    ///   - file: the path shown in errors and warnings.
    /// - Throws: `CollectionError`.
    package static func parse(tree: Node, byteCount: Int, file: String = "<collection>") throws -> APICollection {
        do {
            try DocumentLimits.current.checkSize(byteCount, file: file)
        } catch {
            throw CollectionError.malformedYAML(error.location, problem: "\(error.problem). \(error.advice)")
        }
        return try read(tree, reader: Reader(file: file), file: file, dotEnv: [:]).collection
    }

    /// The collection of a composed or built YAML tree (nil: an empty document); `mayMerge`
    /// false when the composer saw no `<<` key, so the tree is not searched for one.
    private static func read(
        _ root: Node?, reader: Reader, file: String, dotEnv: [String: String], mayMerge: Bool = true
    ) throws -> (collection: APICollection, tree: Node) {
        var reader = reader
        guard let root = mayMerge ? root.map(Reader.resolvingMergeKeys) : root else {
            throw CollectionError.missingKey(
                FileLocation(file: file, line: 1, column: 1), key: "name", in: "the collection")
        }
        guard case .mapping(let mapping) = root else {
            throw CollectionError.wrongType(
                reader.location(root), key: "the collection",
                expected: "a mapping with name, environments and endpoints")
        }
        reader.checkKeys(mapping, known: topLevelKeys, in: "the collection")
        let name =
            try mapping.value("name").map { try reader.string($0, key: "name") }
            ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let variables = try mapping.value("variables").map { try reader.pairs($0, key: "variables") } ?? []

        let allowsInsecureRedirects =
            try mapping.value("allow_insecure_redirects").map { try reader.flag($0, key: "allow_insecure_redirects") }
            ?? false
        let traces = try mapping.value("trace").map { try reader.flag($0, key: "trace") } ?? false
        var environments: [Environment] = []
        var environmentLines: [String: Int] = [:]
        if let node = mapping.value("environments") {
            guard case .sequence(let sequence) = node else {
                throw CollectionError.wrongType(
                    reader.location(node), key: "environments", expected: "a list of environments")
            }
            for element in sequence {
                let environment = try reader.environment(
                    element, collectionVariables: variables, dotEnv: dotEnv,
                    allowsInsecureRedirects: allowsInsecureRedirects, traces: traces)
                let location = reader.location(element)
                if let first = environmentLines[environment.name] {
                    throw CollectionError.duplicateEnvironment(location, name: environment.name, firstLine: first)
                }
                environmentLines[environment.name] = location.line
                environments.append(environment)
            }
        }

        var items: [CollectionItem] = []
        if let node = mapping.value("endpoints") {
            var seen: [String: Int] = [:]
            items = try reader.items(node, folderPath: [], seen: &seen)
        }
        try reader.checkRequirements(in: items)
        var collection = APICollection(
            name: name, variables: variables, environments: environments, items: items, warnings: reader.warnings)
        collection.description = try mapping.value("description").map { try reader.string($0, key: "description") }
        collection.auth = try mapping.value("auth").map { try reader.authentication($0, in: "the collection") }
        collection.openAPI = try mapping.value("openapi").map { try reader.string($0, key: "openapi") }
        collection.grpcSchema = try reader.grpcSchemaFiles(mapping)
        collection.validatesResponses =
            try mapping.value("validate").map { try reader.flag($0, key: "validate") } ?? false
        collection.allowsInsecureRedirects = allowsInsecureRedirects
        collection.traces = traces
        collection.compareRules = try mapping.value("compare").map { try reader.compareRules($0) } ?? CompareRules()
        collection.warnings = reader.warnings
        return (collection, root)
    }
}
