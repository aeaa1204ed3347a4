import Foundation
import HTTPTypes
import Hummingbird

/// `/cookies` and `/cookies/set?name=value…`, as httpbin has them: the cookies the request
/// carried, and a `Set-Cookie` (path `/`, an hour, `HttpOnly`, `SameSite=Lax`) for each query
/// item.
extension DemoAPI {
    func cookies(_ request: Hummingbird.Request) -> Hummingbird.Response {
        DemoReply.jsonObject(["cookies": Self.receivedCookies(request)])
    }

    func setCookies(_ request: Hummingbird.Request) -> Hummingbird.Response {
        var headers = HTTPFields()
        var set: [String: String] = [:]
        for (name, value) in request.uri.queryParameters {
            headers.append(HTTPField(name: .setCookie, value: "\(name)=\(value); Path=/; Max-Age=3600; HttpOnly; SameSite=Lax"))
            set[String(name)] = String(value)
        }
        return DemoReply.jsonObject(["set": set, "cookies": Self.receivedCookies(request)], headers: headers)
    }

    /// The cookies a request carries, by name.
    static func receivedCookies(_ request: Hummingbird.Request) -> [String: String] {
        var received: [String: String] = [:]
        for pair in (request.headers[.cookie] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { received[parts[0]] = parts[1] }
        }
        return received
    }
}
