import Foundation
import NetworkingCore
import Workspace

/// Writes resolved requests as an HTTP Archive (HAR 1.2) that browsers' developer tools and
/// HAR viewers open: one entry per request, with its method, URL, headers, query and body.
///
/// The requests have not been sent, so each entry's response is empty (status 0), as HAR
/// writes a request that got no answer. Secrets are masked unless revealed.
package enum HARExporter {
    /// The HAR document for requests.
    ///
    /// - Parameters:
    ///   - requests: the resolved requests, in order.
    ///   - revealSecrets: writes secrets as they are when `true`; masks them otherwise.
    ///   - date: the `startedDateTime` written (now by default).
    package static func json(for requests: [ResolvedRequest], revealSecrets: Bool = false, date: Date = Date())
        -> String
    {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let started = formatter.string(from: date)
        let entries: [JSONValue] = requests.map { resolved in
            let request = revealSecrets ? resolved.request : resolved.masked
            let url = revealSecrets ? resolved.url : resolved.maskedURL
            let headers = request.headers.map {
                JSONValue.object([("name", .string($0.name)), ("value", .string($0.value))])
            }
            let query = (URLComponents(string: url)?.queryItems ?? []).map {
                JSONValue.object([("name", .string($0.name)), ("value", .string($0.value ?? ""))])
            }
            var harRequest: [(key: String, value: JSONValue)] = [
                ("method", .string(request.method.rawValue)),
                ("url", .string(url)),
                ("httpVersion", .string("HTTP/1.1")),
                ("cookies", .array([])),
                ("headers", .array(headers)),
                ("queryString", .array(query)),
            ]
            if let body = request.httpBody {
                let mimeType = request.headers["Content-Type"] ?? "application/octet-stream"
                var postData: [(key: String, value: JSONValue)] = [("mimeType", .string(mimeType))]
                if let text = String(data: body, encoding: .utf8) {
                    postData.append(("text", .string(text)))
                } else {
                    postData += [("text", .string(body.base64EncodedString())), ("encoding", .string("base64"))]
                }
                harRequest.append(("postData", .object(postData)))
            }
            harRequest += [("headersSize", .number("-1")), ("bodySize", .number("\(request.httpBody?.count ?? 0)"))]
            let response: JSONValue = .object([
                ("status", .number("0")), ("statusText", .string("")), ("httpVersion", .string("")),
                ("cookies", .array([])), ("headers", .array([])),
                ("content", .object([("size", .number("0")), ("mimeType", .string(""))])),
                ("redirectURL", .string("")), ("headersSize", .number("-1")), ("bodySize", .number("-1")),
            ])
            return .object([
                ("startedDateTime", .string(started)),
                ("time", .number("0")),
                ("request", .object(harRequest)),
                ("response", response),
                ("cache", .object([])),
                ("timings", .object([("send", .number("0")), ("wait", .number("0")), ("receive", .number("0"))])),
                ("comment", .string(resolved.endpoint.id)),
            ])
        }
        let log: JSONValue = .object([
            (
                "log",
                .object([
                    ("version", .string("1.2")),
                    ("creator", .object([("name", .string("explorer")), ("version", .string("1"))])),
                    ("entries", .array(entries)),
                ])
            )
        ])
        // DEL and the C1 controls as JSON escapes too: the file reads back the same, and none is raw.
        return JSONControlEscapes.escaping(log.serialized(pretty: true)) + "\n"
    }
}
