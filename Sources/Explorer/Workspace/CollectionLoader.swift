import Foundation
import Networking
import Yams

/// Reads collection YAML into an `APICollection`, with errors and warnings at `file:line:column`.
///
/// YAML anchors, aliases and `<<` merge keys work; keys starting with `x-` are left alone.
/// Unknown keys and a `base_url` that is not a URL are warnings (so the file still opens; the
/// resolver refuses to send there); a missing `base_url`, duplicate endpoint or environment
/// names and values of the wrong shape are errors.
/// The file is only read, never written.
package enum CollectionLoader {
    /// The keys a collection file may have at the top.
    static let topLevelKeys = ["name", "description", "variables", "environments", "endpoints"]
    /// The keys of an environment.
    static let environmentKeys = ["name", "description", "base_url", "protected", "variables", "headers", "secrets"]
    /// The keys of an endpoint.
    static let endpointKeys = ["name", "description", "method", "path", "query", "headers", "json", "body", "form", "multipart"]
    /// The keys of a folder.
    static let folderKeys = ["folder", "description", "endpoints"]

    /// Loads the collection file at `url`, with the `.env` file beside it.
    ///
    /// - Throws: `CollectionError`.
    package static func load(from url: URL) throws -> APICollection {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CollectionError.unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        var collection = try parse(text, file: url.path, dotEnv: DotEnv.load(besides: url))
        collection.sourceURL = url
        collection.sourceHasComments = CollectionMerger.hasComments(text)
        return collection
    }

    /// Parses collection YAML.
    ///
    /// - Parameters:
    ///   - text: the YAML.
    ///   - file: the path shown in errors and warnings.
    ///   - dotEnv: the `.env` values `{{env.NAME}}` falls back to.
    /// - Throws: `CollectionError`.
    package static func parse(_ text: String, file: String = "<collection>", dotEnv: [String: String] = [:]) throws -> APICollection {
        var reader = Reader(file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw reader.malformed(error)
        }
        guard let root = root.map(Reader.resolvingMergeKeys) else {
            throw CollectionError.missingKey(FileLocation(file: file, line: 1, column: 1), key: "name", in: "the collection")
        }
        guard case .mapping(let mapping) = root else {
            throw CollectionError.wrongType(reader.location(root), key: "the collection", expected: "a mapping with name, environments and endpoints")
        }
        reader.checkKeys(mapping, known: topLevelKeys, in: "the collection")
        let name = try mapping["name"].map { try reader.string($0, key: "name") } ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let variables = try mapping["variables"].map { try reader.pairs($0, key: "variables") } ?? []

        var environments: [Environment] = []
        var environmentLines: [String: Int] = [:]
        if let node = mapping["environments"] {
            guard case .sequence(let sequence) = node else {
                throw CollectionError.wrongType(reader.location(node), key: "environments", expected: "a list of environments")
            }
            for element in sequence {
                let environment = try reader.environment(element, collectionVariables: variables, dotEnv: dotEnv)
                let location = reader.location(element)
                if let first = environmentLines[environment.name] {
                    throw CollectionError.duplicateEnvironment(location, name: environment.name, firstLine: first)
                }
                environmentLines[environment.name] = location.line
                environments.append(environment)
            }
        }

        var items: [CollectionItem] = []
        if let node = mapping["endpoints"] {
            var seen: [String: Int] = [:]
            items = try reader.items(node, folderPath: [], seen: &seen)
        }
        var collection = APICollection(name: name, variables: variables, environments: environments, items: items, warnings: reader.warnings)
        collection.description = try mapping["description"].map { try reader.string($0, key: "description") }
        return collection
    }
}

/// Walks the YAML nodes of one file, collecting warnings.
private struct Reader {
    let file: String
    var warnings: [CollectionWarning] = []

    init(file: String) { self.file = file }

    func location(_ node: Node?) -> FileLocation {
        let mark = node?.mark
        return FileLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func malformed(_ error: YamlError) -> CollectionError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return .malformedYAML(FileLocation(file: file, line: mark.line, column: mark.column), problem: detail)
        case let .duplicatedKeysInMapping(duplicates, context):
            return .malformedYAML(FileLocation(file: file, line: context.mark.line, column: context.mark.column),
                                  problem: "duplicate keys \(duplicates.joined(separator: ", ")) in one mapping")
        case let .reader(problem, _, _, _):
            return .malformedYAML(FileLocation(file: file, line: 1, column: 1), problem: problem)
        default:
            return .malformedYAML(FileLocation(file: file, line: 1, column: 1), problem: "\(error)")
        }
    }

    /// Applies YAML merge keys (`<<: *defaults`): the merged mapping's pairs are added where
    /// the mapping does not set the key itself.
    static func resolvingMergeKeys(_ node: Node) -> Node {
        switch node {
        case .mapping(let mapping):
            var own: [(Node, Node)] = []
            var merged: [(Node, Node)] = []
            for (key, value) in mapping {
                if key.string == "<<" {
                    let sources: [Node]
                    if case .sequence(let sequence) = value { sources = Array(sequence) } else { sources = [value] }
                    for case .mapping(let source) in sources.map(resolvingMergeKeys) {
                        merged += source.map { ($0.key, $0.value) }
                    }
                } else {
                    own.append((key, resolvingMergeKeys(value)))
                }
            }
            let ownKeys = Set(own.compactMap { $0.0.string })
            var seen: Set<String> = []
            let inherited = merged.filter { pair in
                guard let name = pair.0.string else { return false }
                return !ownKeys.contains(name) && seen.insert(name).inserted
            }
            return .mapping(Node.Mapping(inherited + own, mapping.tag, mapping.style, mapping.mark))
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map(resolvingMergeKeys), sequence.tag, sequence.style, sequence.mark))
        default:
            return node
        }
    }

    mutating func checkKeys(_ mapping: Node.Mapping, known: [String], in container: String) {
        for (key, _) in mapping {
            // `x-` keys are extensions a user may keep (anchors for `<<` merges, notes).
            guard let name = key.string, !known.contains(name), !name.hasPrefix("x-") else { continue }
            let suggestions = Suggestions.closest(to: name, in: known, limit: 1)
            let hint = suggestions.isEmpty ? "" : "; did you mean \"\(suggestions[0])\"?"
            warnings.append(CollectionWarning(location: location(key), message: "unknown key \"\(name)\" in \(container) is ignored\(hint)"))
        }
    }

    func string(_ node: Node, key: String) throws -> String {
        guard case .scalar(let scalar) = node else {
            throw CollectionError.wrongType(location(node), key: key, expected: "a text value")
        }
        return scalar.string
    }

    func pairs(_ node: Node, key: String) throws -> [KeyValue] {
        if case .scalar(let scalar) = node, node.null != nil || scalar.string.isEmpty { return [] }
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(location(node), key: key, expected: "a mapping of names to values")
        }
        return try mapping.map { pair in
            let name = try string(pair.key, key: key)
            guard case .scalar(let scalar) = pair.value else {
                throw CollectionError.wrongType(location(pair.value), key: "\(key).\(name)", expected: "a text value")
            }
            return KeyValue(name, pair.value.null != nil && scalar.style == .plain && scalar.string != "" ? "" : scalar.string)
        }
    }

    mutating func environment(_ node: Node, collectionVariables: [KeyValue], dotEnv: [String: String]) throws -> Environment {
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(location(node), key: "environments", expected: "a list of mappings with name and base_url")
        }
        guard let nameNode = mapping["name"] else {
            throw CollectionError.missingKey(location(node), key: "name", in: "this environment")
        }
        let name = try string(nameNode, key: "name")
        checkKeys(mapping, known: CollectionLoader.environmentKeys, in: "environment \"\(name)\"")
        guard let baseNode = mapping["base_url"] else {
            throw CollectionError.missingKey(location(node), key: "base_url", in: "environment \"\(name)\"")
        }
        let base = try string(baseNode, key: "base_url").trimmingCharacters(in: .whitespaces)
        if !Template.containsVariables(base) {
            let url = URL(string: base)
            let scheme = url?.scheme?.lowercased()
            if url?.host == nil || (scheme != "http" && scheme != "https") {
                // A warning, so the other environments stay usable; sending here fails clearly.
                warnings.append(CollectionWarning(location: location(baseNode),
                    message: "the base_url of environment \"\(name)\" is \"\(base)\", which is not an absolute http(s) URL; sending in it will fail"))
            }
        }
        var isProtected = false
        if let node = mapping["protected"] {
            guard let flag = node.bool else {
                throw CollectionError.wrongType(location(node), key: "protected", expected: "true or false")
            }
            isProtected = flag
        }
        var secrets: [String] = []
        if let node = mapping["secrets"] {
            switch node {
            case .sequence(let sequence): secrets = try sequence.map { try string($0, key: "secrets") }
            case .scalar(let scalar): secrets = [scalar.string]
            default: throw CollectionError.wrongType(location(node), key: "secrets", expected: "a list of variable names")
            }
        }
        return Environment(
            name: name,
            baseURLTemplate: base,
            isProtected: isProtected,
            variables: try mapping["variables"].map { try pairs($0, key: "variables") } ?? [],
            headers: try mapping["headers"].map { try pairs($0, key: "headers") } ?? [],
            secrets: secrets,
            collectionVariables: collectionVariables,
            dotEnv: dotEnv,
            location: location(node),
            summary: try mapping["description"].map { try string($0, key: "description") }
        )
    }

    mutating func items(_ node: Node, folderPath: [String], seen: inout [String: Int]) throws -> [CollectionItem] {
        if node.null != nil { return [] }
        guard case .sequence(let sequence) = node else {
            throw CollectionError.wrongType(location(node), key: "endpoints", expected: "a list of endpoints and folders")
        }
        var items: [CollectionItem] = []
        for element in sequence {
            guard case .mapping(let mapping) = element else {
                throw CollectionError.wrongType(location(element), key: "endpoints", expected: "a list of mappings (an endpoint or a folder)")
            }
            if let folderNode = mapping["folder"] {
                let name = try string(folderNode, key: "folder")
                checkKeys(mapping, known: CollectionLoader.folderKeys, in: "folder \"\(name)\"")
                var children: [CollectionItem] = []
                if let childNode = mapping["endpoints"] {
                    children = try self.items(childNode, folderPath: folderPath + [name], seen: &seen)
                }
                // Two blocks of the same folder are merged, in order.
                if let index = items.firstIndex(where: { if case .folder(let f) = $0 { return f.name == name } else { return false } }),
                   case .folder(var folder) = items[index] {
                    folder.items += children
                    items[index] = .folder(folder)
                } else {
                    items.append(.folder(Folder(name: name, items: children,
                                                description: try mapping["description"].map { try string($0, key: "description") })))
                }
            } else {
                let endpoint = try self.endpoint(mapping, node: element, folderPath: folderPath)
                if let first = seen[endpoint.id] {
                    throw CollectionError.duplicateEndpoint(location(element), id: endpoint.id, firstLine: first)
                }
                seen[endpoint.id] = location(element).line
                items.append(.endpoint(endpoint))
            }
        }
        return items
    }

    mutating func endpoint(_ mapping: Node.Mapping, node: Node, folderPath: [String]) throws -> Endpoint {
        guard let nameNode = mapping["name"] else {
            throw CollectionError.missingKey(location(node), key: "name", in: "this endpoint (or \"folder\" for a folder)")
        }
        let name = try string(nameNode, key: "name")
        checkKeys(mapping, known: CollectionLoader.endpointKeys, in: "endpoint \"\(name)\"")
        var method = HTTPMethod.get
        if let methodNode = mapping["method"] {
            let token = try string(methodNode, key: "method").trimmingCharacters(in: .whitespaces)
            let allowed = CharacterSet(charactersIn: "!#$%&'*+-.^_`|~").union(.alphanumerics)
            guard !token.isEmpty, token.unicodeScalars.allSatisfy({ allowed.contains($0) && $0.isASCII }) else {
                throw CollectionError.invalidMethod(location(methodNode), method: token)
            }
            method = HTTPMethod(rawValue: token)
        }
        guard let pathNode = mapping["path"] else {
            throw CollectionError.missingKey(location(node), key: "path", in: "endpoint \"\(name)\"")
        }
        let bodyKeys = ["json", "body", "form", "multipart"].filter { mapping[$0] != nil }
        if bodyKeys.count > 1 {
            throw CollectionError.conflictingBodies(location(node), endpoint: name)
        }
        var body: EndpointBody?
        if let json = mapping["json"] {
            body = .json(JSONValue(yaml: json))
        } else if let raw = mapping["body"] {
            body = .raw(try string(raw, key: "body"))
        } else if let form = mapping["form"] {
            body = .form(try pairs(form, key: "form"))
        } else if let multipart = mapping["multipart"] {
            body = .multipart(try pairs(multipart, key: "multipart").map {
                $0.value.hasPrefix("@")
                    ? MultipartField(name: $0.name, value: String($0.value.dropFirst()), isFile: true)
                    : MultipartField(name: $0.name, value: $0.value)
            })
        }
        return Endpoint(
            name: name,
            folderPath: folderPath,
            method: method,
            path: try string(pathNode, key: "path"),
            query: try mapping["query"].map { try pairs($0, key: "query") } ?? [],
            headers: try mapping["headers"].map { try pairs($0, key: "headers") } ?? [],
            body: body,
            location: location(node),
            description: try mapping["description"].map { try string($0, key: "description") }
        )
    }
}
