import Formats
import Foundation
import NetworkingCore
import Workspace

/// An endpoint to resolve in an environment of a collection: what a send, a preview or a
/// copy-as-curl effect needs, as plain values the reducer can hand over.
package struct RequestPlan: Sendable {
    /// The endpoint, with its session edits.
    package let endpoint: Endpoint
    /// The collection it belongs to (collection variables, the file's directory).
    package let collection: APICollection
    /// The environment to resolve in.
    package let environment: Environment
    /// Which load of the collection this is (`AppState.collectionRevision`).
    package let revision: Int
    /// The answers to `{{prompt}}` calls given so far (an unanswered one stops a resolve
    /// with `UnansweredPrompt`, and the TUI asks).
    package var answers = PromptAnswers()

    /// Resolves the request to send: reads the process environment, the clock and multipart
    /// files, so only effects call it.
    ///
    /// - Throws: `ResolveError` (an undefined variable, a missing file ...).
    package func resolve() throws -> ResolvedRequest {
        var resolver = RequestResolver()
        resolver.prompter = answers
        return try resolver.resolve(endpoint, in: collection, environment: environment, captured: captured())
    }

    /// The variables captured before in this environment (`capture:`), from the state folder.
    func captured() -> [String: CapturedVariable] {
        CaptureStore().variables(collection: collection.storeKey, environment: environment.name)
    }

    /// The request as a curl command to copy, and what the screen shows of it (secrets
    /// masked) under a title that says where it was copied from.
    ///
    /// Both are `explorer export curl`'s command (`CurlExporter`), with and without
    /// `--reveal-secrets`; for a gRPC endpoint, `explorer export grpcurl`'s (`GRPCurlExporter`).
    ///
    /// - Throws: `ResolveError`, or `GRPCurlExportError` for a gRPC endpoint whose server is
    ///   not a grpc(s) URL.
    package func curl() throws -> (command: String, title: String, shown: [String]) {
        let resolved = try resolve()
        if endpoint.isGRPC {
            func command(revealing: Bool) throws -> String {
                try GRPCurlExporter.command(
                    for: resolved, schema: collection.grpcSchema, collectionFile: collection.sourceURL,
                    revealSecrets: revealing)
            }
            return (
                try command(revealing: true),
                "grpcurl · \(endpoint.id) · \(environment.name) (copied to the clipboard)",
                try command(revealing: false).components(separatedBy: "\n")
            )
        }
        let command = CurlExporter.command(for: resolved, revealSecrets: true)
        let shown = CurlExporter.command(for: resolved)
        return (
            command, "curl · \(endpoint.id) · \(environment.name) (copied to the clipboard)",
            shown.components(separatedBy: "\n")
        )
    }

    /// Resolves the request pane's preview: built-ins that change on every send (`{{uuid}}`)
    /// are shown as written.
    package func preview() -> RequestPreview {
        do {
            var resolver = RequestResolver(uuid: "{{uuid}}")
            resolver.prompter = PromptAnswers(answers.answers, placeholder: true)
            resolver.runsCommands = false
            let resolved = try resolver.resolve(
                endpoint, in: collection, environment: environment, captured: captured())
            return RequestPreview(resolved, key: key)
        } catch {
            return RequestPreview(failed: endpoint, error: String(describing: error), key: key)
        }
    }

    /// What a preview is kept for: the same endpoint, environment and collection load give
    /// the same preview.
    package var key: RequestPreview.Key {
        RequestPreview.Key(endpoint: endpoint, environment: environment.name, revision: revision, answers: answers)
    }
}

/// What the request pane shows of a request: method, URL with the parts that came from
/// variables marked, headers and the start of the body, secrets masked. Computed by an
/// effect, once per change of endpoint, environment or collection, never by the view.
package struct RequestPreview: Sendable, Hashable {
    /// Which plan it was resolved from.
    package struct Key: Sendable, Hashable {
        let endpoint: Endpoint
        let environment: String
        let revision: Int
        /// The prompt answers given so far: an answer shows in the preview (masked when secret).
        let answers: PromptAnswers
    }

    /// A run of the URL: its text and where it came from.
    package struct URLPart: Sendable, Hashable {
        enum Source: Sendable, Hashable {
            /// Written in the endpoint or the base URL.
            case literal
            /// A variable's value.
            case variable
            /// A template function's value (`{{uuid}}`, `{{timestamp ms}}` …).
            case function
        }
        let text: String
        let source: Source
    }

    /// What one template function of the request gave, for the preview's list of them.
    package struct FunctionOutput: Sendable, Hashable {
        /// The call as written between the braces (`now "yyyy"`, `prompt "PIN"`).
        let expression: String
        /// Its value, masked; what happens on send when the preview cannot know it.
        let value: String
    }

    /// How much of a body the pane shows.
    static let bodyPreviewBytes = 4096

    let key: Key?
    let method: HTTPMethod
    /// The URL, masked, in runs.
    let url: [URLPart]
    /// The header fields, masked.
    let headers: HTTPHeaders
    /// The first bytes of the body as text, masked.
    let body: String?
    /// The template functions of the request (URL, headers, body, auth) and their values.
    let functions: [FunctionOutput]
    /// Why it could not be resolved (the method and path are then the endpoint's own).
    let error: String?
    /// The request's secrets: what its response is masked with when shown.
    let masker: SecretMasker
    /// The proxy the request goes through and the setting it came from, password masked
    /// (`via proxy http://ada:••••••@proxy:3128 (the HTTPS_PROXY variable)`); `nil` directly.
    package var proxy: String? = nil

    /// The whole URL as text.
    var urlText: String { url.map(\.text).joined() }

    /// The preview of a resolved request.
    ///
    /// - Parameters:
    ///   - resolved: the request.
    ///   - key: the plan it came from, nil for an exchange's own copy.
    ///   - bodyLimit: how many bytes of the body to keep as text.
    init(_ resolved: ResolvedRequest, key: Key?, bodyLimit: Int = RequestPreview.bodyPreviewBytes) {
        self.key = key
        method = resolved.request.method
        url = Self.parts(resolved)
        headers = resolved.maskedHeaders
        error = nil
        masker = resolved.masker
        if let messages = resolved.grpcMessages {
            // A gRPC call's body is its messages: one, or a stream's, one per line.
            let text = messages.map { $0.serialized(pretty: messages.count == 1) }.joined(separator: "\n")
            body =
                text.isEmpty ? nil : String(decoding: resolved.masker.mask(text).utf8.prefix(bodyLimit), as: UTF8.self)
        } else {
            body = resolved.masked.httpBody.flatMap {
                $0.isEmpty ? nil : String(decoding: $0.prefix(bodyLimit), as: UTF8.self)
            }
        }
        functions = resolved.functionOutputs.map { output in
            // A preview leaves what changes per send, asks or runs as written.
            guard output.value != "{{\(output.expression)}}" else {
                let when =
                    output.expression.hasPrefix("prompt")
                    ? "asked when sent" : output.expression.hasPrefix("command") ? "runs when sent" : "new on each send"
                return FunctionOutput(expression: output.expression, value: when)
            }
            let masked = resolved.masker.mask(output.value)
            return FunctionOutput(
                expression: output.expression,
                value: masked == output.value && Self.isHidden(output.expression) ? SecretMasker.mask : masked)
        }
    }

    /// Whether a function's value is hidden whatever the masker knows: a secret prompt's
    /// answer and a command's output.
    private static func isHidden(_ expression: String) -> Bool {
        expression.hasPrefix("command ") || (expression.hasPrefix("prompt ") && PromptAnswers.isSecret(expression))
    }

    /// The preview of an endpoint that could not be resolved.
    init(failed endpoint: Endpoint, error: String, key: Key?) {
        self.key = key
        method = endpoint.method
        url = [URLPart(text: endpoint.path, source: .literal)]
        headers = HTTPHeaders()
        body = nil
        functions = []
        self.error = error
        masker = SecretMasker()
    }

    /// The masked URL cut into runs of variable and literal characters. When masking changed
    /// the URL the variable positions no longer line up, so nothing is marked.
    private static func parts(_ resolved: ResolvedRequest) -> [URLPart] {
        let characters = Array(resolved.maskedURL)
        var marked = Array(repeating: URLPart.Source.literal, count: characters.count)
        if resolved.maskedURL == resolved.url {
            for span in resolved.urlVariableSpans {
                for index in span.range where marked.indices.contains(index) {
                    marked[index] = span.isFunction ? .function : .variable
                }
            }
        }
        var parts: [URLPart] = []
        var start = 0
        while start < characters.count {
            var end = start
            while end < characters.count && marked[end] == marked[start] { end += 1 }
            var text = String(characters[start..<end])
            // A call a preview leaves as written reads as written, not percent-encoded.
            if marked[start] == .function, let decoded = text.removingPercentEncoding, decoded.hasPrefix("{{"),
                decoded.hasSuffix("}}")
            {
                text = decoded
            }
            parts.append(URLPart(text: text, source: marked[start]))
            start = end
        }
        return parts
    }
}
