import Foundation
import NetworkingCore

/// An endpoint with every template expanded, ready to send and to show.
///
/// `request` is what a dispatcher sends through `environment` (its `baseURL` is asked at send
/// time); `url` is the full URL as it will go out, with `urlVariableSpans` saying which
/// characters came from variables. `masked` and `maskedURL` are the copies to show on screen
/// or keep in history: secrets never leave through them.
package struct ResolvedRequest: Sendable {
    /// The endpoint it came from.
    package let endpoint: Endpoint
    /// The environment it is sent in.
    package let environment: Environment
    /// The base URL, expanded.
    package let baseURL: URL
    /// The request to send: path relative to `baseURL`, query items, headers and body.
    package let request: BasicRequest
    /// The full URL with the query, percent-encoded as sent.
    package let url: String
    /// Which characters of `url` came from which variables.
    package let urlVariableSpans: [VariableSpan]
    /// What hides the secrets of this request.
    package let masker: SecretMasker
    /// The key its collection's captured variables are kept under (`APICollection.storeKey`).
    package let collectionKey: String
    /// The variables the request was resolved with, for the values of its assertions.
    package let scope: VariableScope
    /// A gRPC endpoint's request messages in proto3 JSON, their templates expanded (`nil` for
    /// HTTP); `request` then holds the call's path and metadata (as headers), and no body.
    package var grpcMessages: [JSONValue]?

    /// A resolved request. Its masker hides, besides the secrets the resolver found, every
    /// credential the request carries however it got there: the values of the headers the
    /// masker treats as credentials (`X-Api-Key: literal` as much as `{{token}}`, and the
    /// token after `Bearer`), and the values of query items named like one (`api_key`,
    /// `access_token`), so that a server echoing them is masked in history, its search
    /// index, checks and logs.
    init(
        endpoint: Endpoint, environment: Environment, baseURL: URL, request: BasicRequest, url: String,
        urlVariableSpans: [VariableSpan], masker: SecretMasker, collectionKey: String, scope: VariableScope,
        bodyFile: URL? = nil
    ) {
        self.endpoint = endpoint
        self.environment = environment
        self.baseURL = baseURL
        self.request = request
        self.url = url
        self.urlVariableSpans = urlVariableSpans
        self.masker = masker.adding(secretValues: Self.credentials(in: request, url: url, masker: masker))
        self.collectionKey = collectionKey
        self.scope = scope
        self.bodyFile = bodyFile
    }

    /// The credential values a request carries in its headers and query.
    static func credentials(in request: BasicRequest, url: String, masker: SecretMasker) -> [String] {
        var values: [String] = []
        for header in request.headers where masker.isSensitive(header: header.name) {
            values.append(header.value)
            // `Bearer t0ken`, `Basic …`: the credential without its scheme, as an echo may quote it.
            let words = header.value.split(separator: " ", maxSplits: 1)
            if words.count == 2 { values.append(String(words[1])) }
            // `Cookie: a=1; b=2`: each value.
            if header.name.lowercased() == "cookie" { values += CookieJar.values(ofHeader: header.value) }
        }
        let query = request.queryItems + (URLComponents(string: url)?.queryItems ?? [])
        for item in query where APICollection.isCredentialName(item.name) {
            if let value = item.value { values.append(value) }
        }
        return values.filter { !$0.isEmpty }
    }

    /// What the template functions of this request gave (`uuid`, `now "…"`, `prompt "PIN"`,
    /// `command "…"` …), each once, in the order first called; values still unmasked.
    package var functionOutputs: [(expression: String, value: String)] { scope.outputs.all }

    /// Expands `{{variables}}` as this request saw them (an assertion's expected value).
    ///
    /// - Throws: `ResolveError` naming an undefined variable.
    package func expand(_ text: String) throws -> String {
        do {
            return try scope.expand(text).text
        } catch {
            throw ResolveError(
                scopeFailure: error, context: "an assertion of endpoint \"\(endpoint.id)\"", at: endpoint.location)
        }
    }
    /// The file the body was read from, for a `file:` body (a curl command names it rather
    /// than spelling its bytes).
    package var bodyFile: URL? = nil
    /// Digest credentials (`auth: digest`), used to answer the server's 401 challenge.
    package var digest: DigestCredentials? = nil
    /// The GraphQL document sent, with where it is written (for validation against a schema).
    package var graphQLDocument: GraphQLSourceText? = nil

    /// OAuth2 settings (`auth: oauth2`), expanded: the token is obtained (or taken from the
    /// environment's cache) when the request is sent, by `oauth2Authenticator(…)`.
    package var oauth2: OAuth2Configuration? = nil
    /// What signs the request as it is sent (`auth: aws_sigv4`, `auth: oauth1`), last.
    package var signing: RequestSigning? = nil

    /// Whether the environment asks for a confirmation before sending.
    package var isProtected: Bool { environment.isProtected }

    /// Whether redirects are followed: the endpoint's `follow_redirects:`, else the
    /// environment's, else yes.
    package var followsRedirects: Bool { endpoint.followRedirects ?? environment.followRedirects ?? true }

    /// The request with secrets masked, for display and history.
    package var masked: BasicRequest { masker.mask(request: request) }

    /// The full URL with secrets masked.
    package var maskedURL: String { masker.mask(url) }

    /// The headers with secrets masked, in order.
    package var maskedHeaders: HTTPHeaders { masker.mask(headers: request.headers) }
}

extension CookieJar {
    /// The values of the cookies the jar sends to a URL: credentials too (a session cookie),
    /// to be masked where a server echoes them.
    package func cookieValues(for url: String) -> [String] {
        guard let url = URL(string: url), let header = cookieHeader(for: url) else { return [] }
        return Self.values(ofHeader: header)
    }

    /// The values of a `Cookie` header (`a=1; b=2`), without their names.
    static func values(ofHeader header: String) -> [String] {
        header.split(separator: ";").compactMap { pair in
            pair.split(separator: "=", maxSplits: 1).last.map { String($0).trimmingCharacters(in: .whitespaces) }
        }.filter { !$0.isEmpty }
    }
}
