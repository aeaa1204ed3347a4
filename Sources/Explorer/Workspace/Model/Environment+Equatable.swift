/// Two environments are equal when they are configured alike: every setting, its variables and
/// the collection's it sees, and the `.env` values. Where it is written (`location`,
/// `baseURLLocation`) and the `--var` overrides set on it now are not part of equality.
extension Environment: Equatable {
    package static func == (lhs: Environment, rhs: Environment) -> Bool {
        if lhs === rhs { return true }
        guard lhs.name == rhs.name, lhs.baseURLTemplate == rhs.baseURLTemplate, lhs.isProtected == rhs.isProtected,
            lhs.variables == rhs.variables, lhs.headers == rhs.headers, lhs.secrets == rhs.secrets,
            lhs.collectionVariables == rhs.collectionVariables, lhs.dotEnv == rhs.dotEnv,
            lhs.summary == rhs.summary, lhs.auth == rhs.auth, lhs.keepsCookies == rhs.keepsCookies,
            lhs.tls == rhs.tls, lhs.proxy == rhs.proxy, lhs.insecureRedirects == rhs.insecureRedirects,
            lhs.collectionAllowsInsecureRedirects == rhs.collectionAllowsInsecureRedirects,
            lhs.followRedirects == rhs.followRedirects, lhs.resolve == rhs.resolve,
            lhs.proxyTunnel == rhs.proxyTunnel
        else { return false }
        return true
    }
}
