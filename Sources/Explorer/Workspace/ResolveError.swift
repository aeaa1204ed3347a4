/// Why an endpoint could not be turned into a request; nothing is sent when this happens.
enum ResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `{{name}}` that no source defines, and where it was used.
    case undefinedVariable(name: String, context: String)
    /// Variables whose values refer back to each other.
    case variableCycle(names: [String], context: String)
    /// The environment's base URL is not an absolute http(s) URL after templating.
    case invalidBaseURL(environment: String, url: String)
    /// The endpoint's URL is not valid after templating.
    case invalidURL(endpoint: String, url: String)
    /// The collection has no environment to send to.
    case noEnvironment(endpoint: String)
    /// A multipart file part names a file that cannot be read.
    case unreadableFile(endpoint: String, path: String)

    init(scopeFailure: VariableScope.Failure, context: String) {
        switch scopeFailure {
        case .undefined(let name): self = .undefinedVariable(name: name, context: context)
        case .cycle(let names): self = .variableCycle(names: names, context: context)
        }
    }

    package var description: String {
        switch self {
        case let .undefinedVariable(name, context):
            if name.hasPrefix("env.") {
                return "The variable {{\(name)}} used in \(context) is undefined: set \(name.dropFirst(4)) in the process environment or in a .env file beside the collection."
            }
            return "The variable {{\(name)}} used in \(context) is undefined: define it in the environment or the collection's variables, or pass --var \(name)=VALUE."
        case let .variableCycle(names, context):
            return "The variables used in \(context) refer to each other in a cycle: \(names.joined(separator: " -> "))."
        case let .invalidBaseURL(environment, url):
            return "The base_url of environment \"\(environment)\" is \"\(url)\", which is not an absolute http(s) URL."
        case let .invalidURL(endpoint, url):
            return "The URL of endpoint \"\(endpoint)\" is \"\(url)\", which is not a valid URL."
        case let .noEnvironment(endpoint):
            return "The endpoint \"\(endpoint)\" cannot be sent: the collection has no environment (add one with a base_url)."
        case let .unreadableFile(endpoint, path):
            return "The endpoint \"\(endpoint)\" sends the file \(path), which cannot be read."
        }
    }
}
