import Foundation
import NetworkingCore
import Workspace

/// A resolved request as a curl command line: what `explorer export curl` prints and what the
/// TUI's `c` copies, written by Networking's one renderer (`CurlCommand`).
///
/// Secrets are masked unless the caller reveals them (a digest password too, in
/// `--digest -u`, and the proxy's in `-U`); a `file:` body is named (`--data-binary @path`) rather than spelled out.
package enum CurlExporter {
    /// The curl command for a resolved request.
    ///
    /// - Parameters:
    ///   - resolved: the request, with all variables expanded.
    ///   - revealSecrets: writes secrets as they are when `true`; masks them otherwise.
    package static func command(for resolved: ResolvedRequest, revealSecrets: Bool = false) -> String {
        let request = revealSecrets ? resolved.request : resolved.masked
        let body: CurlCommand.Body? = resolved.bodyFile.map { .file($0.path) } ?? request.httpBody.map { .data($0) }
        return CurlCommand(
            method: request.method, url: revealSecrets ? resolved.url : resolved.maskedURL,
            headers: request.headers, body: body,
            digestUser: resolved.digest.map {
                (name: $0.username, password: revealSecrets ? $0.password : SecretMasker.mask)
            },
            proxyOptions: proxyOptions(for: resolved, revealSecrets: revealSecrets)
                + signingOptions(for: resolved, revealSecrets: revealSecrets)
        ).text
    }

    /// `auth: aws_sigv4` as curl's `--aws-sigv4 aws:amz:REGION:SERVICE` and `--user KEY:SECRET`
    /// (the session token is a header curl signs with the rest); curl has no OAuth 1.0a, so an
    /// `oauth1` request is written unsigned.
    static func signingOptions(for resolved: ResolvedRequest, revealSecrets: Bool) -> [(option: String, value: String)]
    {
        guard case .awsSigV4(let signer)? = resolved.signing else { return [] }
        var options = [
            (option: "--aws-sigv4", value: "aws:amz:\(signer.region):\(signer.service)"),
            (
                option: "--user",
                value: signer.credentials.accessKeyID + ":"
                    + (revealSecrets ? signer.credentials.secretAccessKey : SecretMasker.mask)
            ),
        ]
        if let token = signer.credentials.sessionToken {
            options.append(
                (option: "-H", value: "X-Amz-Security-Token: " + (revealSecrets ? token : SecretMasker.mask)))
        }
        return options
    }

    /// The environment's `proxy:` as curl's `-x`, `-U` and `--noproxy` (`--noproxy '*'` for
    /// `proxy: none`); the password masked unless revealed. Nothing without `proxy:` (curl
    /// reads the same proxy variables).
    static func proxyOptions(for resolved: ResolvedRequest, revealSecrets: Bool) -> [(option: String, value: String)] {
        switch resolved.environment.proxy {
        case nil:
            return []
        case .none?:
            return [("--noproxy", "*")]
        case .server(let setting)?:
            func expand(_ text: String) -> String { (try? resolved.scope.expand(text).text) ?? text }
            guard var server = try? ProxyServer(parsing: expand(setting.url), source: "") else { return [] }
            if let user = setting.user { server.username = expand(user) }
            if let password = setting.password { server.password = expand(password) }
            var options = [
                (
                    option: "-x",
                    value:
                        "\(server.kind == .socks5 ? "socks5h" : "http")://"
                        + "\(server.host.contains(":") ? "[\(server.host)]" : server.host):\(server.port)"
                )
            ]
            if let user = server.username {
                let password = server.password.map { revealSecrets ? $0 : SecretMasker.mask }
                options.append(("-U", user + (password.map { ":" + $0 } ?? "")))
            }
            if let noProxy = setting.noProxy { options.append(("--noproxy", noProxy.joined(separator: ","))) }
            return options
        }
    }
}
