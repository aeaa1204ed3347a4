import Foundation
import NetworkingCore

extension RequestResolver {
    /// What the auth step gives besides the header or query item it writes.
    struct ResolvedAuth {
        /// The expanded secrets (password, token, key, the Basic credentials encoded), masked
        /// like secret variables.
        var secrets: [String] = []
        /// The credentials that answer a digest challenge.
        var digest: DigestCredentials?
        /// How the OAuth2 token is obtained when the request is sent.
        var oauth2: OAuth2Configuration?
        /// What signs the request when it is sent (AWS SigV4, OAuth 1.0a).
        var signing: RequestSigning?
    }

    /// The nearest `auth:` (endpoint, folders, environment, collection): its header or query
    /// item, replacing an environment header of the same name but not one the endpoint writes
    /// itself under an inherited auth; or, for digest and OAuth2, what the dispatcher needs to
    /// authenticate when the request is sent.
    ///
    /// - Parameters:
    ///   - inherited: whether an `auth:` the endpoint inherits (from its folders, the
    ///     environment or the collection) applies: not when its URL names another server.
    ///   - host: the host the request goes to, where AWS's region and service are guessed from.
    /// - Throws: `ResolveError` for an undefined variable (at the `auth:`'s line) or invalid
    ///   OAuth2 settings.
    func resolvedAuth(
        with templates: EndpointTemplates, collection: APICollection, environment: Environment, inherited: Bool = true,
        host: String? = nil, headers: inout HTTPHeaders, query: inout ResolvedQuery
    ) throws -> ResolvedAuth {
        let endpoint = templates.endpoint
        var resolved = ResolvedAuth()
        guard let auth = collection.authentication(for: endpoint, in: environment), endpoint.auth != nil || inherited
        else { return resolved }
        let ownNames = Self.headerNames(of: endpoint)
        func expand(_ text: String) throws -> String {
            try templates.expand(text, "auth", placedAt: auth.location ?? endpoint.location)
        }
        func setHeader(_ name: String, _ value: String) {
            if endpoint.auth == nil, ownNames.contains(name.lowercased()) { return }
            headers.replaceOrAdd(name: name, value: value)
        }
        switch auth.scheme {
        case .none:
            break
        case .basic(let username, let password):
            let user = try expand(username)
            let secret = try expand(password)
            let encoded = Data("\(user):\(secret)".utf8).base64EncodedString()
            setHeader("Authorization", "Basic " + encoded)
            resolved.secrets += [secret, encoded]
        case .bearer(let token):
            let secret = try expand(token)
            setHeader("Authorization", "Bearer " + secret)
            resolved.secrets.append(secret)
        case .apiKey(let name, let value, let placement):
            let key = try expand(name)
            let secret = try expand(value)
            switch placement {
            case .header: setHeader(key, secret)
            case .query: query.append(URLQueryItem(name: key, value: secret))
            }
            resolved.secrets.append(secret)
        case .digest(let username, let password):
            let credentials = DigestCredentials(username: try expand(username), password: try expand(password))
            resolved.digest = credentials
            resolved.secrets.append(credentials.password)
        case .oauth2(let settings):
            // The token is obtained when the request is sent (the dispatcher's adapter);
            // an Authorization header the endpoint writes itself wins, as for bearer.
            guard !(endpoint.auth == nil && ownNames.contains("authorization")) else { break }
            do {
                let (configuration, secrets) = try settings.resolved(by: expand)
                resolved.oauth2 = configuration
                resolved.secrets += secrets
            } catch let failure as OAuth2Settings.Failure {
                throw ResolveError.invalidAuth(
                    endpoint: endpoint.id, reason: failure.description, at: auth.location ?? endpoint.location)
            }
        case .awsSigV4(let settings):
            // Signed when sent, last; an Authorization header the endpoint writes itself wins.
            guard !(endpoint.auth == nil && ownNames.contains("authorization")) else { break }
            do {
                let (signer, secrets) = try settings.signer(
                    expandingWith: expand, host: host, environment: processEnvironment)
                resolved.signing = .awsSigV4(signer)
                resolved.secrets += secrets
            } catch let failure as AWSSigV4Settings.Failure {
                throw ResolveError.invalidAuth(
                    endpoint: endpoint.id, reason: failure.description, at: auth.location ?? endpoint.location)
            }
        case .oauth1(let settings):
            guard !(endpoint.auth == nil && ownNames.contains("authorization")) else { break }
            let (signer, secrets) = try settings.signer(expandingWith: expand)
            resolved.signing = .oauth1(signer)
            resolved.secrets += secrets
        }
        return resolved
    }
}
