/// Why an endpoint could not be turned into a request; nothing is sent when this happens.
///
/// Each case carries where the text to fix is written (`file:line:column`) when the
/// collection came from a file; the sentence starts with it, as every collection error does.
enum ResolveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `{{name}}` that no source defines, and where it was used.
    case undefinedVariable(name: String, context: String, at: FileLocation? = nil)
    /// Variables whose values refer back to each other.
    case variableCycle(names: [String], context: String, at: FileLocation? = nil)
    /// A template function that cannot be evaluated (`{{random_int 5 1}}`), and why.
    case functionFailed(expression: String, reason: String, context: String, at: FileLocation? = nil)
    /// A `{{prompt "Label"}}` with no answer where nobody can ask.
    case unansweredPrompt(UnansweredPrompt, context: String, at: FileLocation? = nil)
    /// The environment's base URL is not an absolute http(s) URL after templating.
    case invalidBaseURL(environment: String, url: String, at: FileLocation? = nil)
    /// The endpoint's URL is not valid after templating.
    case invalidURL(endpoint: String, url: String, at: FileLocation? = nil)
    /// The collection has no environment to send to.
    case noEnvironment(endpoint: String)
    /// A multipart file part or a `body: {file: …}` names a file that cannot be read.
    case unreadableFile(endpoint: String, path: String, at: FileLocation? = nil)
    /// A file outside the collection's folder that the collection was not trusted to read
    /// (`SendTimeFiles`), and why.
    case untrustedFile(endpoint: String, reason: String, at: FileLocation? = nil)
    /// A captured value held back: it was captured (by `endpoint`) when the environment sent
    /// to `origin`, and it sends elsewhere now.
    case capturedForAnotherServer(name: String, endpoint: String, origin: String, at: FileLocation? = nil)
    /// An `auth:` whose values, expanded, are not usable (an OAuth2 URL that is not one).
    case invalidAuth(endpoint: String, reason: String, at: FileLocation? = nil)
    /// A GraphQL document that does not parse, or does not validate against the schema; each
    /// problem carries its own line and column.
    case invalidGraphQL(endpoint: String, problems: [GraphQLProblem])
    /// An environment's `proxy:` does not expand to a usable proxy.
    case invalidProxy(environment: String, reason: String, at: FileLocation? = nil)
    /// A header's value, once expanded, holds a character no header may carry (a line break,
    /// NUL): said by position, never by quoting the value, which may be a whole file.
    case invalidHeaderValue(endpoint: String, header: String, reason: String, at: FileLocation? = nil)

    init(scopeFailure: VariableScope.Failure, context: String, at location: FileLocation? = nil) {
        switch scopeFailure {
        case .undefined(let name): self = .undefinedVariable(name: name, context: context, at: location)
        case .cycle(let names): self = .variableCycle(names: names, context: context, at: location)
        case .function(let expression, let reason):
            self = .functionFailed(expression: expression, reason: reason, context: context, at: location)
        case .unanswered(let prompt): self = .unansweredPrompt(prompt, context: context, at: location)
        case .limit(let name, let limit):
            self = .functionFailed(expression: name, reason: limit.description, context: context, at: location)
        }
    }

    /// Where the text to fix is written, when known.
    var location: FileLocation? {
        switch self {
        case .undefinedVariable(_, _, let location), .variableCycle(_, _, let location),
            .invalidBaseURL(_, _, let location),
            .functionFailed(_, _, _, let location), .unansweredPrompt(_, _, let location),
            .invalidURL(_, _, let location), .unreadableFile(_, _, let location), .untrustedFile(_, _, let location),
            .capturedForAnotherServer(_, _, _, let location), .invalidAuth(_, _, let location),
            .invalidProxy(_, _, let location), .invalidHeaderValue(_, _, _, let location):
            return location
        case .noEnvironment:
            return nil
        case .invalidGraphQL(_, let problems):
            return problems.first?.location
        }
    }

    package var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return prefix + sentence
    }

    private var sentence: String {
        switch self {
        case .undefinedVariable(let name, let context, _):
            if name.hasPrefix("env.") {
                return
                    "The variable {{\(name)}} used in \(context) is undefined: set \(name.dropFirst(4)) in the process "
                    + "environment or in a .env file beside the collection."
            }
            return
                "The variable {{\(name)}} used in \(context) is undefined: define it in the environment or the "
                + "collection's variables, or pass --var \(name)=VALUE."
        case .variableCycle(let names, let context, _):
            return
                "The variables used in \(context) refer to each other in a cycle: \(names.joined(separator: " -> "))."
        case .functionFailed(let expression, let reason, let context, _):
            return "{{\(expression)}} in \(context) cannot be evaluated: \(reason)."
        case .unansweredPrompt(let prompt, let context, _):
            return "{{prompt \"\(prompt.label)\"}} in \(context) has no answer: "
                + "--var \"\(prompt.label)=…\" gives one."
        case .invalidBaseURL(let environment, let url, _):
            return "The base_url of environment \"\(environment)\" is \"\(url)\", which is not an absolute http(s) URL."
        case .invalidURL(let endpoint, let url, _):
            return "The URL of endpoint \"\(endpoint)\" is \"\(url)\", which is not a valid URL."
        case .noEnvironment(let endpoint):
            return
                "The endpoint \"\(endpoint)\" cannot be sent: "
                + "the collection has no environment (add one with a base_url)."
        case .unreadableFile(let endpoint, let path, _):
            return "The endpoint \"\(endpoint)\" sends the file \(path), which cannot be read."
        case .untrustedFile(let endpoint, let reason, _):
            return "The endpoint \"\(endpoint)\" cannot send its file: \(reason)."
        case .capturedForAnotherServer(let name, let endpoint, let origin, _):
            return
                "{{\(name)}} was captured by \(endpoint) when this environment sent to \(origin), "
                + "and it sends elsewhere now: "
                + "a captured value stays with its server. Send \(endpoint) again to capture it here."
        case .invalidAuth(let endpoint, let reason, _):
            return "The auth of endpoint \"\(endpoint)\" cannot be used: \(reason)."
        case .invalidProxy(let environment, let reason, _):
            return "The proxy: of environment \"\(environment)\" cannot be used: \(reason)."
        case .invalidHeaderValue(let endpoint, let header, let reason, _):
            return
                "The header \(header) of endpoint \"\(endpoint)\" cannot be sent: its value \(reason); "
                + "a header value is one line."
        case .invalidGraphQL(let endpoint, let problems):
            // The first problem's place starts the sentence; each further one gets its own line.
            let first = problems.first?.message ?? "it is not valid"
            let more = problems.dropFirst().map { "\n\($0)" }.joined()
            return "The GraphQL query of endpoint \"\(endpoint)\" is not valid: \(first)\(more)"
        }
    }
}

extension UnansweredPrompt {
    /// The prompt a resolution stopped at, when that is why it failed.
    package init?(stoppedAt error: any Error) {
        if let prompt = error as? UnansweredPrompt {
            self = prompt
        } else if case .unansweredPrompt(let prompt, _, _)? = error as? ResolveError {
            self = prompt
        } else {
            return nil
        }
    }
}
