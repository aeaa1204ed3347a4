extension Environment {
    /// The environment that sends to a mock of `mocked` served at `baseURL` (`explorer mock`'s
    /// `--collection-out`, the TUI's `mock`): the mocked environment's variables, headers,
    /// secrets and auth, so that its requests resolve as they do there; never protected, without
    /// its TLS and `resolve:` settings, which are the real server's, and reached directly
    /// (`proxy: none`), as a server on 127.0.0.1 is.
    ///
    /// - Parameters:
    ///   - mocked: the environment the mock serves, or `nil` for a collection without one.
    ///   - collection: the collection (its variables, when there is no environment).
    ///   - name: the new environment's name (`mock`).
    ///   - baseURL: where the mock listens, with the base path (`http://127.0.0.1:8080/v1`).
    package static func mock(
        of mocked: Environment?, in collection: APICollection, named name: String, at baseURL: String
    ) -> Environment {
        Environment(
            name: name, baseURLTemplate: baseURL, variables: mocked?.variables ?? [], headers: mocked?.headers ?? [],
            secrets: mocked?.secrets ?? [], collectionVariables: mocked?.collectionVariables ?? collection.variables,
            dotEnv: mocked?.dotEnv ?? [:], summary: "explorer mock of \(mocked?.name ?? "the collection")",
            auth: mocked?.auth,
            keepsCookies: mocked?.keepsCookies ?? true, proxy: ProxySetting.none)
    }
}
