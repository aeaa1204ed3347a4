import AsyncHTTPClient
import Foundation
import NIOHTTP1

/// Redirects followed by the transport itself, one hop at a time: async-http-client follows a
/// redirect on the client that sent the first request, so a hop from http to https, or to a
/// host of `NO_PROXY`, would keep the first hop's proxy, and nothing could keep a hop's
/// `Set-Cookie` for the next. Each hop here chooses its own proxy, and the request's
/// `RedirectHandler` shapes the next request. The rules are async-http-client's: 301, 302, 303, 307 and 308 with a
/// `Location` on http(s); 303 (and a POST answered 301 or 302) becomes a GET without a body;
/// `Origin`, `Cookie`, `Authorization` and `Proxy-Authorization` are not sent to another origin;
/// more than `maximumRedirects` hops (the request's, else the configuration's) is an error, as
/// in curl: a URL seen before is followed again, since it may answer differently now.
extension AsyncHTTPClientTransport {
    /// Where a response redirects to, or `nil` when it is not a redirect to follow.
    static func redirectTarget(of response: HTTPClientResponse, from url: URL) -> URL? {
        guard [301, 302, 303, 307, 308].contains(response.status.code),
            let location = response.headers.first(name: "location"),
            let target = URL(string: location, relativeTo: url)?.absoluteURL,
            ["http", "https"].contains(target.scheme?.lowercased() ?? ""), target.host != nil
        else { return nil }
        return target
    }

    /// The request of the next hop.
    static func redirected(_ request: PreparedRequest, to target: URL, status: HTTPStatus) -> PreparedRequest {
        var next = request
        next.url = target
        let toGet =
            (status == .seeOther && request.method != .head)
            || ((status == .movedPermanently || status == .found) && request.method == .post)
        if toGet {
            next.method = .get
            next.body = nil
            next.headers.remove(name: "Content-Length")
            next.headers.remove(name: "Content-Type")
        }
        if !sameOrigin(request.url, target) {
            for name in ["Origin", "Cookie", "Authorization", "Proxy-Authorization"] { next.headers.remove(name: name) }
        }
        return next
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func port(_ url: URL) -> Int { url.port ?? NoProxyList.defaultPort(of: url) }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && port(a) == port(b)
    }
}
