import Foundation

extension RequestResolver {
    // MARK: - Credentials stay with their origin

    /// Whether an inherited `auth:` (a folder's, the environment's, the collection's) goes with
    /// a request: its path is a path on the environment's server, or a whole URL of the same
    /// origin (scheme, host and port) as `baseURL`. An endpoint's own `auth:` always goes.
    ///
    /// The one rule the resolver applies when it sends and every exporter applies when it
    /// writes, so that an export never carries credentials where a send would not.
    ///
    /// - Parameters:
    ///   - path: the request's path, or its whole URL.
    ///   - isWholeURL: whether `path` is a whole URL, sent there and not to the environment's server.
    ///   - baseURL: the environment's base URL; `nil` when it is not known (no environment).
    /// - Returns: `true` when the inherited credentials may go.
    package static func inheritedAuthGoes(toPath path: String, isWholeURL: Bool, baseURL: URL?) -> Bool {
        guard isWholeURL, let server = server(ofAbsolute: path) else { return true }
        guard let baseURL else { return false }
        return isOrigin(server, of: baseURL)
    }

    /// The `auth:` an export writes for an endpoint: its own, or the inherited one when the
    /// endpoint goes to the environment's server (`inheritedAuthGoes`); `nil` otherwise.
    ///
    /// Exports keep templates, so the path and the base URL are compared with their
    /// variables replaced by the values the environment and the collection write (no
    /// `{{env.…}}`, no function): an origin that cannot be known so is another server, and
    /// the inherited credentials are left out.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint.
    ///   - collection: its collection.
    ///   - environment: the environment exported, or `nil`.
    /// - Returns: the authentication to write, or `nil` for none.
    package static func exportedAuthentication(
        for endpoint: Endpoint, in collection: APICollection, environment: Environment?
    ) -> Authentication? {
        guard let auth = collection.authentication(for: endpoint, in: environment) else { return nil }
        guard endpoint.auth == nil, pathIsWholeURL(endpoint.path, in: collection, environment: environment) else {
            return auth
        }
        guard let environment else { return nil }
        let baseURL = URL(
            string: environment.asWritten(environment.baseURLTemplate, in: collection).trimmingCharacters(
                in: .whitespaces))
        return inheritedAuthGoes(
            toPath: environment.asWritten(endpoint.path, in: collection), isWholeURL: true, baseURL: baseURL)
            ? auth : nil
    }
}
