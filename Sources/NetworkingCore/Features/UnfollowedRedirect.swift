import Foundation

/// A redirect that was not followed because of where it points, though redirects were being
/// followed: its `Location` is not an http or https URL (`file:`, `gopher:`, `javascript:` …)
/// or cannot be read as a URL. The redirect itself is then the response; this says why, so a
/// client can tell the person who sees a bare `302`.
///
/// The transport follows 301, 302, 303, 307 and 308 to http and https URLs with a host, as
/// async-http-client, curl and browsers do: a server must not make a client read a local file
/// or speak another protocol.
public struct UnfollowedRedirect: Sendable, Hashable, CustomStringConvertible {
    /// Why the redirect was not followed.
    public enum Reason: Sendable, Hashable {
        /// The `Location`'s scheme is not http or https.
        case unsupportedScheme(String)
        /// The `Location` is not a URL with a host.
        case unreadableLocation
    }

    /// The URL that answered with the redirect.
    public var url: URL
    /// The redirect's status.
    public var status: HTTPStatus
    /// The `Location` it named, as sent.
    public var location: String
    /// Why it was not followed.
    public var reason: Reason

    /// The redirect a response is that was not followed, or `nil` when it is not one (not a
    /// redirect status, no `Location`, or a `Location` the transport follows).
    ///
    /// - Parameters:
    ///   - status: the response's status.
    ///   - headers: its headers.
    ///   - url: the URL that answered.
    public init?(status: HTTPStatus, headers: HTTPHeaders, url: URL) {
        guard [301, 302, 303, 307, 308].contains(status.code), let location = headers["Location"] else { return nil }
        let target = URL(string: location, relativeTo: url)?.absoluteURL
        let scheme = target?.scheme?.lowercased() ?? ""
        if target != nil, !["http", "https"].contains(scheme), !scheme.isEmpty {
            reason = .unsupportedScheme(scheme)
        } else if target?.host == nil || scheme.isEmpty {
            reason = .unreadableLocation
        } else {
            return nil
        }
        self.url = url
        self.status = status
        self.location = location
    }

    /// One sentence: where it pointed and why it was not followed.
    public var description: String {
        let why =
            switch reason {
            case .unsupportedScheme(let scheme):
                "only http and https redirects are followed, and this one is to \(scheme):"
            case .unreadableLocation: "its Location is not a URL with a host"
            }
        return
            "\(url.absoluteString) redirected (\(status.code)) to \(location), "
            + "which was not followed: \(why); the redirect itself is the response."
    }
}
