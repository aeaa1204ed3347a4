/// Why a collection file could not be loaded, always with `file:line:column`.
enum CollectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read at all.
    case unreadable(path: String, reason: String)
    /// The folder of the file cannot be watched for changes (no inotify, no permission …).
    case unwatchable(path: String, reason: String)
    /// The text is not valid YAML.
    case malformedYAML(FileLocation, problem: String)
    /// A value has the wrong shape (a list where a mapping belongs ...).
    case wrongType(FileLocation, key: String, expected: String)
    /// A required key is missing; `typo` is an unknown key of the same mapping that is likely
    /// it misspelled (`paht` for `path`), with its line.
    case missingKey(FileLocation, key: String, in: String, typo: String? = nil, typoLine: Int = 0)
    /// Two endpoints in one folder share a name.
    case duplicateEndpoint(FileLocation, id: String, firstLine: Int)
    /// Two environments share a name.
    case duplicateEnvironment(FileLocation, name: String, firstLine: Int)
    /// An endpoint has more than one of `json`, `body`, `form`, `multipart`.
    case conflictingBodies(FileLocation, endpoint: String)
    /// A method that is not an HTTP token.
    case invalidMethod(FileLocation, method: String)
    /// A `base_url` that can never be a URL.
    case invalidBaseURL(FileLocation, environment: String, url: String)
    /// A `capture:`, `assert:`, `retry:` or `requires:` entry that cannot be read.
    case invalidCheck(FileLocation, key: String, endpoint: String, problem: String)
    /// A `requires:` names an endpoint the collection does not have.
    case unknownRequirement(FileLocation, endpoint: String, required: String, suggestions: [String])
    /// Endpoints that require each other in a cycle (`A -> B -> A`).
    case requirementCycle(FileLocation, cycle: [String])

    /// Where the problem is, when known.
    var location: FileLocation? {
        switch self {
        case .unreadable, .unwatchable: return nil
        case .malformedYAML(let location, _), .wrongType(let location, _, _), .missingKey(let location, _, _, _, _),
            .duplicateEndpoint(let location, _, _), .duplicateEnvironment(let location, _, _),
            .conflictingBodies(let location, _), .invalidMethod(let location, _),
            .invalidBaseURL(let location, _, _), .invalidCheck(let location, _, _, _),
            .unknownRequirement(let location, _, _, _), .requirementCycle(let location, _):
            return location
        }
    }

    package var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "\(path): cannot read the collection: \(reason)"
        case .unwatchable(let path, let reason):
            return "\(path): cannot watch the folder for changes: \(reason)."
        case .malformedYAML(let location, let problem):
            return "\(location): the YAML is malformed: \(problem)"
        case .wrongType(let location, let key, let expected):
            return "\(location): \"\(key)\" must be \(expected)."
        case .missingKey(let location, let key, let container, let typo, let typoLine):
            guard let typo else { return "\(location): \(container) has no \"\(key)\", which is required." }
            return
                "\(location): \(container) has no \"\(key)\", which is required; did you mean \"\(key)\" for \"\(typo)\" (line \(typoLine))?"
        case .duplicateEndpoint(let location, let id, let firstLine):
            return
                "\(location): the endpoint \"\(id)\" is defined twice (first on line \(firstLine)); names must be unique within a folder."
        case .duplicateEnvironment(let location, let name, let firstLine):
            return "\(location): the environment \"\(name)\" is defined twice (first on line \(firstLine))."
        case .conflictingBodies(let location, let endpoint):
            return
                "\(location): the endpoint \"\(endpoint)\" has more than one of json, body, form, multipart and graphql; keep one."
        case .invalidMethod(let location, let method):
            return "\(location): \"\(method)\" is not a valid HTTP method."
        case .invalidBaseURL(let location, let environment, let url):
            return
                "\(location): the base_url of environment \"\(environment)\" is \"\(url)\", which is not an absolute http(s) URL."
        case .invalidCheck(let location, let key, let endpoint, let problem):
            return "\(location): in the \(key) of endpoint \"\(endpoint)\", \(problem)"
        case .unknownRequirement(let location, let endpoint, let required, let suggestions):
            let hint =
                suggestions.isEmpty ? "" : " Did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: ", "))?"
            return
                "\(location): the endpoint \"\(endpoint)\" requires \"\(required)\", which the collection does not have.\(hint)"
        case .requirementCycle(let location, let cycle):
            return
                "\(location): endpoints require each other in a cycle (\(cycle.joined(separator: " -> "))); remove one of these requires."
        }
    }
}
