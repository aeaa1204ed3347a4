import Foundation
import Networking

/// A resolved request as a curl command line: what `explorer export curl` prints and what the
/// TUI's `c` copies, written by Networking's one renderer (`CurlCommand`).
///
/// Secrets are masked unless the caller reveals them (a digest password too, in
/// `--digest -u`); a `file:` body is named (`--data-binary @path`) rather than spelled out.
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
            digestUser: resolved.digest.map { (name: $0.username, password: revealSecrets ? $0.password : SecretMasker.mask) }
        ).text
    }
}
