import Contract
import Foundation
import NetworkingCore
import Workspace

/// Where the mock takes its answers from (`--from`).
package enum MockSource: String, Sendable, CaseIterable {
    /// The OpenAPI document's examples, or examples generated from its schemas.
    case examples
    /// The last response recorded in the history for the endpoint and environment.
    case history
    /// The history's answer when there is one, else the document's example.
    case both
}

/// A response recorded in the history, as the mock replays it.
package struct MockRecordedResponse: Sendable, Hashable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data

    package init(status: Int, headers: [(name: String, value: String)], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(status)
        hasher.combine(body)
    }
}

/// One route the mock answers: a method and a path template, with the document's operation
/// and the collection's endpoint it stands for, when they are known.
package struct MockRoute: Sendable {
    package var method: String
    /// `/users/{id}`: a `{name}` segment matches any one non-empty segment.
    package var template: String
    package var operation: OpenAPIContract.Operation?
    /// The collection endpoint's id (`Users/Get user`).
    package var endpointID: String?

    /// `GET /users/{id}`.
    package var name: String { "\(method) \(template)" }
}

/// What the mock serves: its routes, the document they come from, and the recorded answers.
package struct MockPlan: Sendable {
    package var routes: [MockRoute]
    package var contract: OpenAPIContract?
    /// The last recorded response of each endpoint, by endpoint id.
    package var recorded: [String: MockRecordedResponse]
    package var source: MockSource
    /// Path prefixes a request may carry before a template (`/v1`): the environment's base
    /// path and the document's servers'.
    package var basePaths: [String]
    /// What the document asks of each operation's requests, compiled once (`nil` without a document).
    package let requestRules: MockRequestRules?

    /// The routes of a collection and of its OpenAPI document: every operation of the
    /// document, and every endpoint of the collection (joined to its operation by its
    /// `operation:`, or by its method and path template).
    ///
    /// - Parameters:
    ///   - endpoints: the collection's endpoints.
    ///   - contract: the collection's `openapi:` document, read.
    ///   - recorded: the history's last answer of each endpoint, by endpoint id.
    ///   - basePath: the path of the environment's base URL (`/v1`), or empty.
    package init(
        endpoints: [Endpoint], contract: OpenAPIContract?, recorded: [String: MockRecordedResponse] = [:],
        source: MockSource = .examples, basePath: String = ""
    ) {
        var routes = (contract?.operations ?? []).map {
            MockRoute(method: $0.method, template: $0.path, operation: $0, endpointID: nil)
        }
        for endpoint in endpoints where endpoint.webSocket == nil {
            let method = endpoint.method.rawValue.uppercased()
            let template = Self.template(of: endpoint.path)
            var operation: OpenAPIContract.Operation?
            if let contract {
                if let named = endpoint.operation {
                    operation =
                        contract.operation(id: named)
                        ?? Self.methodAndPath(named).flatMap { contract.operation(method: $0.0, template: $0.1) }
                } else {
                    // `/users/1` or `/users/{{user_id}}` is the operation of `/users/{id}`.
                    operation = contract.operation(method: method, requestPath: template)
                }
            }
            if let operation, let index = routes.firstIndex(where: { $0.operation == operation }) {
                if routes[index].endpointID == nil { routes[index].endpointID = endpoint.id }
                continue
            }
            if let index = routes.firstIndex(where: { $0.method == method && Self.sameShape($0.template, template) }) {
                if routes[index].endpointID == nil { routes[index].endpointID = endpoint.id }
                continue
            }
            routes.append(MockRoute(method: method, template: template, operation: nil, endpointID: endpoint.id))
        }
        self.routes = routes
        self.contract = contract
        self.recorded = recorded
        self.source = source
        requestRules = contract.map(MockRequestRules.init(contract:))
        let trimmed = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        var bases = trimmed.isEmpty ? [] : [trimmed]
        for server in contract?.document["servers"]?.arrayValue ?? [] {
            guard let url = server["url"]?.stringValue else { continue }
            var path = Substring(url)
            if let scheme = path.range(of: "://") {
                path = path[scheme.upperBound...]
                path = path.firstIndex(of: "/").map { path[$0...] } ?? ""
            }
            while path.hasSuffix("/") { path = path.dropLast() }
            if !path.isEmpty, !bases.contains(String(path)) { bases.append(String(path)) }
        }
        basePaths = bases
    }

    /// `GET /pets/{id}` as a method and a template.
    static func methodAndPath(_ text: String) -> (String, String)? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        return (parts[0].uppercased(), String(parts[1]))
    }

    /// A collection path as a template: `{{id}}`, `:id` and `{id}` segments become `{id}`; the
    /// query and a `{{base_url}}`-like prefix before the first `/` are dropped.
    package static func template(of path: String) -> String {
        var text = String(path.prefix { $0 != "?" && $0 != "#" })
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            text = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        if !text.hasPrefix("/") { text = text.firstIndex(of: "/").map { String(text[$0...]) } ?? "/" + text }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            if segment.hasPrefix(":") { return "{\(segment.dropFirst())}" }
            if segment.contains("{{") {
                let name = segment.replacingOccurrences(of: "{{", with: "").replacingOccurrences(of: "}}", with: "")
                    .trimmingCharacters(in: .whitespaces)
                return "{\(name)}"
            }
            return String(segment)
        }
        return segments.joined(separator: "/")
    }

    /// Whether two templates match the same paths (parameters named differently).
    static func sameShape(_ a: String, _ b: String) -> Bool {
        let left = a.split(separator: "/", omittingEmptySubsequences: false)
        let right = b.split(separator: "/", omittingEmptySubsequences: false)
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { isParameter($0) && isParameter($1) || $0 == $1 }
    }

    static func isParameter(_ segment: Substring) -> Bool { segment.hasPrefix("{") && segment.hasSuffix("}") }

    /// The number of literal segments when the path fits the template, else `nil` (the
    /// contract's own matching, so the mock and the validation agree on every route).
    static func literals(template: String, path: String) -> Int? {
        OpenAPIContract.match(
            template: template, segments: path.split(separator: "/", omittingEmptySubsequences: false))
    }

    /// What a request's method and path meet.
    package enum Match {
        case route(MockRoute)
        /// The path is served, not with this method: the methods it takes.
        case methodNotAllowed([String])
        /// No route: the templates closest to the path.
        case notFound(near: [String])
    }

    /// The route of a request: templates matched segment by segment, with or without a base
    /// path; the one with the most literal segments wins.
    package func match(method: String, path rawPath: String) -> Match {
        let path = String(rawPath.prefix { $0 != "?" && $0 != "#" })
        var candidates = [path]
        for base in basePaths where path.hasPrefix(base) {
            let rest = String(path.dropFirst(base.count))
            candidates.append(rest.isEmpty ? "/" : rest)
        }
        let method = method.uppercased()
        var best: (MockRoute, Int)?
        var allowed: [String] = []
        for candidate in candidates {
            for route in routes {
                guard let literals = Self.literals(template: route.template, path: candidate) else { continue }
                if route.method == method || (method == "HEAD" && route.method == "GET") {
                    if best == nil || literals > best!.1 || (literals == best!.1 && route.method == method) {
                        best = (route, literals)
                    }
                } else if !allowed.contains(route.method) {
                    allowed.append(route.method)
                }
            }
        }
        if let best { return .route(best.0) }
        if !allowed.isEmpty {
            if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
            return .methodNotAllowed(allowed)
        }
        let names = routes.map(\.template)
        var near = Suggestions.closest(to: candidates.last ?? path, in: names)
        if near.isEmpty {
            // The templates that share the first segment.
            let first = (candidates.last ?? path).split(separator: "/").first
            near = Array(Set(names.filter { $0.split(separator: "/").first == first })).sorted().prefix(3).map { $0 }
        }
        return .notFound(
            near: near.map { template in
                let methods = routes.filter { $0.template == template }.map(\.method)
                return "\(methods.joined(separator: "|")) \(template)"
            })
    }
}

/// A failure of the mock, as a sentence.
package struct MockError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
