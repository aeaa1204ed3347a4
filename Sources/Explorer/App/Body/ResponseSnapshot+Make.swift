import Foundation
import GraphQLSupport
import History
import NetworkingCore
import Workspace

extension ResponseSnapshot {
    /// Prepares a response for display (off the main queue: the body is decoded and indexed,
    /// unless its `document` was made as it arrived).
    ///
    /// - Parameters:
    ///   - response: the response.
    ///   - document: its body, made as it arrived, if it was.
    ///   - followsRedirects: whether the request followed redirects, when known: a redirect
    ///     not followed because of where it points is then said above the body
    ///     (`ResponseNotes`), as a body in a coding the explorer cannot decode always is.
    static func make(_ response: Response<Data?>, document: BodyDocument? = nil, followsRedirects: Bool = false)
        -> ResponseSnapshot
    {
        let document =
            document ?? BodyDocument.make(response.body ?? Data(), contentType: response.headers["Content-Type"])
        let timings = response.timings
        let notes = ResponseNotes.notes(
            status: response.statusCode, headers: response.headers, url: response.url,
            followsRedirects: followsRedirects, hasBody: !(response.body ?? Data()).isEmpty)
        return ResponseSnapshot(
            status: response.statusCode.code,
            reason: response.statusCode.reasonPhrase,
            headers: response.headers,
            httpVersion: response.httpVersion,
            document: document,
            headMilliseconds: timings.timeToHead.map { $0 * 1000 },
            totalMilliseconds: (timings.total ?? Date().timeIntervalSince(timings.started)) * 1000,
            redirects: HistoryRedirect.chain(timings.redirects).map(redirectLine),
            errorSummary: notes + errorSummary(status: response.statusCode.code, document: document))
    }

    /// Rebuilds a stored exchange's response for display.
    static func make(entry: HistoryEntry, status: Int) -> ResponseSnapshot {
        // A copy cut at the history's cap is still pretty-printed as far as it goes.
        let document = BodyDocument.make(
            entry.responseBody ?? Data(), contentType: entry.contentType, isCut: entry.isResponseBodyTruncated)
        var summary = errorSummary(status: status, document: document)
        if entry.responseBodySize > (entry.responseBody?.count ?? 0) {
            summary.append(
                "Stored body truncated: \(entry.responseBody?.count ?? 0) of \(entry.responseBodySize) bytes kept.")
        }
        return ResponseSnapshot(
            status: status,
            reason: entry.reason ?? HTTPStatus(code: status).reasonPhrase,
            headers: entry.responseHeaders,
            httpVersion: entry.httpVersion ?? "HTTP/1.1",
            document: document,
            headMilliseconds: entry.timings.headMilliseconds,
            totalMilliseconds: entry.timings.totalMilliseconds,
            redirects: entry.timings.redirects.map(redirectLine),
            errorSummary: summary)
    }

    /// One hop of the redirect chain as the Timing tab lists it: the status, the hop's time,
    /// the URL that answered and its `Location` as written (`302  4 ms  http://h/login → /home`).
    static func redirectLine(_ hop: HistoryRedirect) -> String {
        let time = hop.milliseconds.map { AppState.duration($0) } ?? "–"
        return
            "\(hop.status)  \(time.padding(toLength: max(6, time.count), withPad: " ", startingAt: 0))  \(hop.url) → \(hop.location)"
    }

    /// What an error body says, in a few lines: a GraphQL response's `errors` (whatever the
    /// status: GraphQL answers 200 with them), problem+json's title, detail, instance and
    /// field errors; an HTML page's text; the start of any other body.
    static func errorSummary(status: Int, document: BodyDocument) -> [String] {
        if document.kind == .json {
            let graphQL = GraphQLResponseError.summary(of: GraphQLResponseError.errors(in: document.raw))
            if !graphQL.isEmpty { return graphQL }
        }
        guard status >= 400 else { return [] }
        let raw = document.raw.prefix(256 * 1024)
        // The one problem-details parser (Networking's), for any JSON body that reads as one.
        if document.contentType.contains("json"),
            let problem = try? JSONDecoder().decode(ProblemDetails.self, from: raw),
            problem.title != nil || problem.detail != nil
        {
            var lines: [String] = []
            lines.append([problem.title ?? "", problem.detail ?? ""].filter { !$0.isEmpty }.joined(separator: " — "))
            if let instance = problem.instance { lines.append("instance: \(instance)") }
            func text(_ value: NetworkingCore.JSONValue?) -> String? { value.map { $0.stringValue ?? $0.description } }
            if let errors = problem.extensions["errors"]?.arrayValue, errors.allSatisfy({ $0.objectValue != nil }) {
                for error in errors.prefix(8) {
                    let field = text(error["field"] ?? error["pointer"] ?? error["name"]) ?? "?"
                    let message = text(error["message"] ?? error["detail"]) ?? ""
                    lines.append("• \(field): \(message)")
                }
            }
            return lines
        }
        if document.kind == .html {
            let text = HTMLText.readable(String(decoding: raw, as: UTF8.self))
            return text.isEmpty ? [] : [String(text.prefix(300))]
        }
        if document.kind == .text || document.kind == .json {
            let first =
                String(decoding: raw.prefix(200), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(
                    String.init) ?? ""
            return first.isEmpty ? [] : [first]
        }
        return []
    }
}

extension TransportFailure {
    /// Reads a transport error as a category and a hint a person can act on.
    init(_ error: any Error) {
        guard let transport = error as? TransportError else {
            self.init(category: "error", message: sentence(describing: error), hint: nil)
            return
        }
        // The library's sentence in the collection's words (its TLS settings as tls: keys).
        let message = sentence(describing: transport)
        switch transport {
        case .connectionRefused(let host, let port):
            self.init(
                category: "connection refused", message: message,
                hint: "connection refused by \(host):\(port) — is the server running?")
        case .dnsFailure(let host):
            self.init(
                category: "DNS failure", message: message,
                hint: "\(host) does not resolve — check the base URL of the environment.")
        case .timedOut:
            self.init(
                category: "timed out", message: message,
                hint: "the server did not answer in time — is it overloaded, or is the URL right?")
        case .tlsFailure(let host, _):
            self.init(
                category: "TLS failure", message: message,
                hint: "\(host)'s certificate was not accepted — check the scheme (http/https) and the certificate.")
        case .notConnected:
            self.init(category: "not connected", message: message, hint: "check the network and the base URL.")
        case .invalidURL, .missingBaseURL, .serverProviderReleased:
            self.init(
                category: "invalid URL", message: message,
                hint: "check the environment's base_url and the endpoint's path.")
        case .cancelled:
            self.init(category: "cancelled", message: message, hint: nil)
        case .tooManyRedirects:
            self.init(category: "too many redirects", message: message, hint: "the server redirects in a loop.")
        case .insecureRedirect:
            self.init(category: "insecure redirect", message: message, hint: nil)
        case .bodyTooLarge:
            self.init(category: "body too large", message: message, hint: nil)
        case .connectionClosed:
            self.init(
                category: "connection closed", message: message,
                hint: "the server closed the connection before the response was complete.")
        case .decompressionFailed:
            self.init(
                category: "decompression failed", message: message,
                hint: "the body is not valid for its Content-Encoding.")
        case .malformedResponse:
            self.init(
                category: "malformed response", message: message,
                hint: "the server's reply is not valid HTTP/1.1 — the server, or a proxy in between, needs fixing.")
        case .proxyAuthenticationRequired:
            self.init(
                category: "proxy authentication", message: message,
                hint: "the proxy wants a user and password — see the environment's proxy: or the proxy variables.")
        case .proxyUnreachable, .proxyFailed, .invalidProxy:
            self.init(
                category: "proxy failure", message: message,
                hint: "check the environment's proxy: or HTTP_PROXY/HTTPS_PROXY/NO_PROXY; proxy: none goes without one."
            )
        case .other:
            self.init(category: "transport error", message: message, hint: nil)
        }
    }
}

/// The readable text of an HTML page: tags, scripts and styles dropped, whitespace folded.
enum HTMLText {
    static func readable(_ html: String) -> String {
        var text = html
        for block in ["script", "style", "head"] {
            while let start = text.range(of: "<\(block)", options: .caseInsensitive),
                let end = text.range(
                    of: "</\(block)>", options: .caseInsensitive, range: start.upperBound..<text.endIndex)
            {
                text.removeSubrange(start.lowerBound..<end.upperBound)
            }
        }
        var result = ""
        var inTag = false
        for character in text {
            if character == "<" {
                inTag = true
                result.append(" ")
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                result.append(character)
            }
        }
        // In order, `&amp;` last, so `&amp;lt;` becomes `&lt;` and is not decoded twice.
        let entities = [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&amp;", "&"),
        ]
        for (entity, value) in entities { result = result.replacingOccurrences(of: entity, with: value) }
        return result.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
