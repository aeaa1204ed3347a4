import Contract
import Foundation
import HTTPTypes
import Hummingbird
import NetworkingCore
import Synchronization
import Workspace

/// How the mock rehearses a slow or failing server: a delay before every answer, and a share
/// of requests answered `500` (problem+json), chosen by a seeded generator so that a run with
/// the same seed fails the same requests (in the order they arrive).
package struct MockChaos: Sendable {
    package var latency: Duration
    /// 0 to 1.
    package var failRate: Double
    package var seed: UInt64

    package init(latency: Duration = .zero, failRate: Double = 0, seed: UInt64 = 0) {
        self.latency = latency
        self.failRate = failRate
        self.seed = seed
    }
}

/// Example answers already built, by operation, preferences and `Accept`: at most 4,096 (the
/// keys come from the requests' headers), then the oldest go.
final class MockAnswerCache: Sendable {
    struct Answer: Sendable {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var body: ByteBuffer
        var note: String

        var response: Response { Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body)) }
    }

    private static let capacity = 4_096
    private let state = Mutex<(answers: [String: Answer], order: [String])>(([:], []))

    func answer(for key: String) -> Answer? { state.withLock { $0.answers[key] } }

    func store(_ answer: Answer, key: String) {
        state.withLock { state in
            if state.answers.updateValue(answer, forKey: key) == nil { state.order.append(key) }
            if state.order.count > Self.capacity { state.answers[state.order.removeFirst()] = nil }
        }
    }
}

/// The seeded generator the server's tasks share.
final class MockRandomSource: Sendable {
    private let random: Mutex<SplitMix64>

    init(seed: UInt64) { random = Mutex(SplitMix64(seed: seed)) }

    func unit() -> Double { random.withLock { $0.unit() } }
}

/// Answers every request from the plan: the route's example or recorded answer, `Prefer`
/// (`code=404`, `example=name`, `dynamic=true`, as Prism reads it), 404 with the near routes,
/// 405 with `Allow`, the latency and the failures of `MockChaos`, one access-log line each.
/// A request whose `Host` names neither this machine nor a name of `MockAllowedHosts` is
/// answered 421, before anything else. A request that breaks its operation's rules
/// (`MockRequestRules`) is refused, unless `validatesRequests` is off or it asks for a status
/// with `Prefer: code=`: with the operation's documented 400 or 422 when it declares one, else
/// with a 422 problem+json that lists the violations.
package struct MockResponder: HTTPResponder {
    package typealias Context = BasicRequestContext

    let plan: MockPlan
    let chaos: MockChaos
    let accessLog: (@Sendable (String) -> Void)?
    let allowedHosts: MockAllowedHosts
    let validatesRequests: Bool
    /// The resources a stateful mock keeps (`--stateful`), or `nil` for a mock without state.
    let state: MockStateStore?
    /// The collection and item paths of the plan (empty without state).
    let resources: MockResources
    private let random: MockRandomSource
    private let answers = MockAnswerCache()

    package init(
        plan: MockPlan, chaos: MockChaos = MockChaos(), allowedHosts: MockAllowedHosts = MockAllowedHosts(),
        validatesRequests: Bool = true, state: MockStateStore? = nil, accessLog: (@Sendable (String) -> Void)? = nil
    ) {
        self.plan = plan
        self.state = state
        self.resources = state == nil ? MockResources() : MockResources(plan: plan)
        self.validatesRequests = validatesRequests
        self.chaos = chaos
        self.allowedHosts = allowedHosts
        self.accessLog = accessLog
        self.random = MockRandomSource(seed: chaos.seed)
    }

    package func respond(to request: Request, context: Context) async throws -> Response {
        let host = request.head.authority
        guard allowedHosts.allows(host) else {
            let name = MockAllowedHosts.hostName(of: host ?? "")
            var response = Self.problem(
                .init(code: 421, reasonPhrase: "Misdirected Request"), type: "misdirected",
                title: "Misdirected Request",
                detail:
                    "explorer mock answers only requests to \(MockAllowedHosts.local.joined(separator: " or ")), "
                    + "not to \(host ?? ""): start it with --allow-host \(name) to answer that name too.",
                instance: request.uri.path)
            if request.method == .head { response.body = ResponseBody() }
            accessLog?(
                "mock       \(request.method.rawValue) \(request.uri.string) → 421 (refused Host \(host ?? ""): "
                    + "--allow-host to answer it)"
            )
            return response
        }
        if chaos.latency > .zero { try await Task.sleep(for: chaos.latency) }
        var (response, note) = await answer(request)
        if chaos.failRate > 0, random.unit() < chaos.failRate {
            response = Self.problem(
                .internalServerError, type: "mock-failure", title: "Internal Server Error",
                detail:
                    "explorer mock failed this request on purpose (--fail-rate \(chaos.failRate), "
                    + "--seed \(chaos.seed)).",
                instance: request.uri.path)
            note = "failed on purpose"
        }
        if request.method == .head { response.body = ResponseBody() }
        accessLog?(
            "mock       \(request.method.rawValue) \(request.uri.string) → "
                + "\(response.status.code)\(note.isEmpty ? "" : " (\(note))")"
        )
        return response
    }

    /// The answer and a note for the log (where it came from).
    func answer(_ request: Request) async -> (Response, String) {
        let method = request.method == .head ? "GET" : request.method.rawValue
        switch plan.match(method: method, path: request.uri.path) {
        case .notFound(let near):
            let hint = near.isEmpty ? "" : " Near: \(near.joined(separator: ", "))."
            return (
                Self.problem(
                    .notFound, type: "not-found", title: "Not Found",
                    detail:
                        "No endpoint of the mock matches \(request.method.rawValue) \(request.uri.path).\(hint)"
                        + (plan.contract == nil
                            ? ""
                            : " The document declares no such path, so it declares no answer: this problem stands for one."),
                    instance: request.uri.path, extensions: [("near", .array(near.map(JSONValue.string)))]), ""
            )
        case .methodNotAllowed(let allowed):
            // The path's own 405, when one of its operations documents it.
            if let (operation, contract) = documenting("405", path: request.uri.path) {
                var (response, note) = example(
                    request, operation: operation, contract: contract, prefer: ["code": "405"])
                response.headers[.allow] = allowed.joined(separator: ", ")
                return (response, "\(note) of \(operation.name), method not allowed")
            }
            var headers = HTTPFields()
            headers[.allow] = allowed.joined(separator: ", ")
            return (
                Self.problem(
                    .methodNotAllowed, type: "method-not-allowed", title: "Method Not Allowed",
                    detail:
                        "\(request.method.rawValue) is not allowed on \(request.uri.path); "
                        + "use \(allowed.joined(separator: ", ")). "
                        + (plan.contract == nil
                            ? ""
                            : "The document declares no 405 response for this path, so this problem stands for one."),
                    instance: request.uri.path, headers: headers), ""
            )
        case .route(let route):
            return await answer(request, route: route)
        }
    }

    private func answer(_ request: Request, route: MockRoute) async -> (Response, String) {
        let prefer = Self.preferences(request.headers[.init("Prefer")!] ?? "")
        let choosing = prefer["code"] != nil || prefer["example"] != nil || prefer["dynamic"] == "true"
        let credentialed = route.operation.map { operation in
            plan.contract.map { missingCredentials(request, operation: operation, document: $0.document) == nil }
                ?? true
        }
        // The body is read once, for the checks and for the state.
        var body: Data?
        if let operation = route.operation, credentialed == true,
            (validatesRequests && prefer["code"] == nil && plan.requestRules?.readsBody(operation) == true)
                || (state != nil && !choosing && ["POST", "PUT", "PATCH"].contains(route.method))
        {
            var copy = request
            body = (try? await copy.collectBody(upTo: MockRequestRules.bodyLimit)).map { Data($0.readableBytesView) }
        }
        // Credentials first, as a server checks them (the 401 below); `Prefer: code=` asks for
        // an answer whatever the request is.
        if validatesRequests, prefer["code"] == nil, let operation = route.operation, let contract = plan.contract,
            let rules = plan.requestRules, credentialed == true
        {
            let violations = check(request, operation: operation, rules: rules, body: body)
            if !violations.isEmpty {
                return refused(request, operation: operation, contract: contract, violations: violations)
            }
        }
        if let state, !choosing, credentialed == true, let operation = route.operation, let contract = plan.contract,
            let answer = statefulAnswer(
                request, route: route, operation: operation, contract: contract, body: body, store: state)
        {
            return answer
        }
        if !choosing, plan.source != .examples, let endpointID = route.endpointID,
            let recorded = plan.recorded[endpointID]
        {
            var headers = HTTPFields()
            for header in recorded.headers {
                guard let name = HTTPField.Name(header.name), !Self.hopHeaders.contains(name.canonicalName) else {
                    continue
                }
                headers.append(HTTPField(name: name, value: header.value))
            }
            return (
                Response(
                    status: HTTPResponse.Status(code: recorded.status), headers: headers,
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: recorded.body))), "history"
            )
        }
        guard plan.source != .history || choosing, let operation = route.operation, let contract = plan.contract else {
            let what = route.endpointID.map { "the endpoint \($0)" } ?? route.name
            let how =
                plan.source == .examples
                ? "name an OpenAPI document that describes it with `openapi:` in the collection, "
                    + "or start the mock with --from history"
                : "send it once (explorer send) so that the history has an answer, "
                    + "or name an OpenAPI document with `openapi:`"
            return (
                Self.problem(
                    .notImplemented, type: "no-answer", title: "Not Implemented",
                    detail: "explorer mock has no answer for \(what): \(how).", instance: request.uri.path), ""
            )
        }
        if let scheme = missingCredentials(request, operation: operation, document: contract.document) {
            return unauthorized(request, operation: operation, contract: contract, scheme: scheme)
        }
        return example(request, operation: operation, contract: contract, prefer: prefer)
    }

    /// The violations of a request to `operation` (the body read only when the operation takes
    /// one; a body larger than `MockRequestRules.bodyLimit` is not checked).
    private func check(
        _ request: Request, operation: OpenAPIContract.Operation, rules: MockRequestRules, body: Data?
    ) -> [MockRequestViolation] {
        let path = request.uri.path
        var candidates = [path]
        for base in plan.basePaths where path.hasPrefix(base) {
            let rest = String(path.dropFirst(base.count))
            candidates.append(rest.isEmpty ? "/" : rest)
        }
        let matched =
            candidates.first { MockPlan.literals(template: operation.path, path: $0) != nil } ?? path
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let incoming = MockIncomingRequest(
            path: matched, query: MockIncomingRequest.pairs(request.uri.query ?? ""), headers: headers, body: body)
        return rules.violations(of: incoming, operation: operation)
    }

    /// The answer to a request that breaks its operation's rules: the operation's documented
    /// 400 or 422 (422 first when only the body's schema is broken, else 400; a `4XX` range or a
    /// `default` answer counts), else a 422 problem+json listing the violations.
    private func refused(
        _ request: Request, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        violations: [MockRequestViolation]
    ) -> (Response, String) {
        let declared =
            JSONPointer.resolve(operation.pointer + "/responses", in: contract.document)?.members?
            .map { $0.key.uppercased() } ?? []
        let onlyBodySchema = violations.allSatisfy { $0.location == .body && $0.schemaPointer != nil }
        let order = onlyBodySchema ? ["422", "400"] : ["400", "422"]
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        let reason = "request refused: \(violations[0])\(more)"
        if let code = order.first(where: declared.contains)
            ?? (declared.contains("4XX") || declared.contains("DEFAULT") ? order[0] : nil)
        {
            let (response, note) = example(request, operation: operation, contract: contract, prefer: ["code": code])
            return (response, "\(note), \(reason)")
        }
        let count = violations.count == 1 ? "one rule" : "\(violations.count) rules"
        return (
            Self.problem(
                Self.status(422), type: "request-invalid", title: "The request does not match the document",
                detail:
                    "\(request.method.rawValue) \(request.uri.path) breaks \(count) of \(operation.name) in the "
                    + "OpenAPI document: \(violations[0])\(more). The operation declares no 400 or 422 response, "
                    + "so this problem stands for one. Start explorer mock with --no-validate-requests to answer "
                    + "such requests.",
                instance: request.uri.path, extensions: [("violations", .array(violations.map(\.json)))]),
            reason
        )
    }

    /// The security scheme a request lacks, when the operation (or the document) requires one
    /// and no alternative is met: credentials are looked for, not checked (any bearer token does).
    private func missingCredentials(_ request: Request, operation: OpenAPIContract.Operation, document: JSONValue)
        -> String?
    {
        let operationValue = JSONPointer.resolve(operation.pointer, in: document)
        guard let requirements = (operationValue?["security"] ?? document["security"])?.arrayValue,
            !requirements.isEmpty
        else { return nil }
        let schemes = document["components"]?["securitySchemes"] ?? document["securityDefinitions"]
        var missing: String?
        for requirement in requirements {
            let names = requirement.members?.map(\.key) ?? []
            let unmet = names.first { name in
                guard let scheme = schemes?[name].map({ MockExample.dereferenced($0, in: document) }) else {
                    return false
                }
                return !Self.carries(request, scheme)
            }
            guard let unmet else { return nil }
            missing = missing ?? unmet
        }
        return missing
    }

    /// Whether a request carries what a security scheme asks for.
    static func carries(_ request: Request, _ scheme: JSONValue) -> Bool {
        let authorization = request.headers[.authorization]?.lowercased() ?? ""
        switch scheme["type"]?.stringValue {
        case "http":
            return authorization.hasPrefix((scheme["scheme"]?.stringValue ?? "").lowercased() + " ")
        case "apiKey":
            let name = scheme["name"]?.stringValue ?? ""
            switch scheme["in"]?.stringValue {
            case "query": return request.uri.queryParameters.get(name) != nil
            case "cookie":
                return (request.headers[.cookie] ?? "").split(separator: ";").contains {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + "=")
                }
            default: return HTTPField.Name(name).flatMap { request.headers[$0] } != nil
            }
        case "basic": return authorization.hasPrefix("basic ")
        default: return !authorization.isEmpty
        }
    }

    /// The answer to a request without the credentials its operation requires: the operation's
    /// documented 401, else its 403 (or a `4XX` range or `default`, as a 401), else a 401 problem
    /// that says the document declares none.
    private func unauthorized(
        _ request: Request, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        scheme: String
    ) -> (Response, String) {
        let declared =
            JSONPointer.resolve(operation.pointer + "/responses", in: contract.document)?.members?
            .map { $0.key.uppercased() } ?? []
        var (response, note): (Response, String)
        if let code = ["401", "403"].first(where: declared.contains)
            ?? (declared.contains("4XX") || declared.contains("DEFAULT") ? "401" : nil)
        {
            (response, note) = example(request, operation: operation, contract: contract, prefer: ["code": code])
        } else {
            response = Self.problem(
                .unauthorized, type: "unauthorized", title: "Unauthorized",
                detail:
                    "\(operation.name) needs credentials (\(scheme)); explorer mock looks for them and accepts any. "
                    + "The document declares no 401 or 403 response for it, so this problem stands for one.",
                instance: request.uri.path)
            note = "401"
        }
        if response.status == .unauthorized, response.headers[.wwwAuthenticate] == nil {
            response.headers[.wwwAuthenticate] = "Bearer realm=\"explorer-mock\""
        }
        return (response, "\(note), no credentials for \(scheme)")
    }

    /// The example answer of an operation, built once for each preference and `Accept` (the
    /// document does not change while the mock runs).
    func example(
        _ request: Request, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        prefer: [String: String]
    ) -> (Response, String) {
        let answer = exampleAnswer(request, operation: operation, contract: contract, prefer: prefer)
        return (answer.response, answer.note)
    }

    /// `example(…)` as the answer kept, its body readable.
    func exampleAnswer(
        _ request: Request, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        prefer: [String: String]
    ) -> MockAnswerCache.Answer {
        let key =
            operation.pointer + "\u{0}"
            + prefer.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            + "\u{0}" + (request.headers[.accept] ?? "")
        if let cached = answers.answer(for: key) { return cached }
        let answer = buildExample(request, operation: operation, contract: contract, prefer: prefer)
        answers.store(answer, key: key)
        return answer
    }

    private func buildExample(
        _ request: Request, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        prefer: [String: String]
    ) -> MockAnswerCache.Answer {
        let document = contract.document
        let responses = JSONPointer.resolve(operation.pointer + "/responses", in: document)?.members ?? []
        let chosen: (key: String, value: JSONValue)
        let status: Int
        if let wanted = prefer["code"] {
            guard let code = Int(wanted), (100...599).contains(code),
                let found = responses.first(where: { $0.key == wanted })
                    ?? responses.first(where: { $0.key.uppercased() == "\(code / 100)XX" })
                    ?? responses.first(where: { $0.key == "default" })
            else {
                return Self.problemAnswer(
                    .notFound, type: "no-such-response", title: "Not Found",
                    detail:
                        "Prefer: code=\(wanted) names no response of \(operation.name) (declared: "
                        + "\(responses.map(\.key).joined(separator: ", "))).",
                    instance: request.uri.path)
            }
            chosen = found
            status = code
        } else {
            let successes = responses.filter { $0.key.hasPrefix("2") }.sorted { $0.key < $1.key }
            guard let first = successes.first ?? responses.first(where: { $0.key == "default" }) ?? responses.first
            else {
                return Self.problemAnswer(
                    .notImplemented, type: "no-answer", title: "Not Implemented",
                    detail: "\(operation.name) declares no response.", instance: request.uri.path)
            }
            chosen = first
            status =
                Int(first.key) ?? (first.key.uppercased().hasSuffix("XX") ? (Int(first.key.prefix(1)) ?? 2) * 100 : 200)
        }
        let response = MockExample.dereferenced(chosen.value, in: document)
        var headers = HTTPFields()
        for header in response["headers"]?.members ?? [] {
            guard let name = HTTPField.Name(header.key), name != .contentType else { continue }
            let declared = MockExample.dereferenced(header.value, in: document)
            let value: JSONValue?
            if let example = declared["example"] {
                value = example
            } else if let schema = declared["schema"], declared["required"]?.boolValue == true {
                value = MockExample.generated(from: schema, document: document)
            } else {
                value = nil
            }
            if let value { headers[name] = value.stringValue ?? value.serialized() }
        }
        let contents = response["content"]?.members ?? []
        guard !contents.isEmpty, status != 204, status != 304 else {
            return MockAnswerCache.Answer(
                status: Self.status(status), headers: headers, body: ByteBuffer(), note: chosen.key)
        }
        let accept = request.headers[.accept] ?? ""
        let media =
            contents.first { member in accept.split(separator: ",").contains { Self.covers(String($0), member.key) } }
            ?? contents.first { OpenAPIContractMedia.isJSON($0.key) } ?? contents[0]
        let exampleName = prefer["dynamic"] == "true" ? nil : prefer["example"]
        let picked: (value: JSONValue, name: String?)?
        if prefer["dynamic"] == "true" {
            picked =
                media.value["schema"].map { (MockExample.generated(from: $0, document: document), nil) } ?? (.null, nil)
        } else {
            picked = MockExample.value(
                for: media.value, named: exampleName, document: document, dialect: contract.dialect)
        }
        guard let picked else {
            let names = MockExample.named(in: media.value, document: document).map(\.name)
            return Self.problemAnswer(
                .notFound, type: "no-such-example", title: "Not Found",
                detail:
                    "Prefer: example=\(exampleName ?? "") names no example of \(operation.name) \(chosen.key) "
                    + "\(media.key) (examples: \(names.isEmpty ? "none" : names.joined(separator: ", "))).",
                instance: request.uri.path)
        }
        let type = Self.contentType(for: media.key, value: picked.value)
        let body: String
        if OpenAPIContractMedia.isJSON(type) {
            body = picked.value.serialized(pretty: true)
        } else {
            body = picked.value.stringValue ?? picked.value.serialized()
        }
        headers[.contentType] = type
        let note = prefer["dynamic"] == "true" ? "generated" : (picked.name.map { "example \($0)" } ?? "example")
        return MockAnswerCache.Answer(
            status: Self.status(status), headers: headers, body: ByteBuffer(string: body), note: "\(chosen.key) \(note)"
        )
    }

    /// The `Content-Type` of an answer documented under `range`: the range itself when it names
    /// one type; for `*/*` or `application/*`, JSON when the value is not a text (xkcd's comics
    /// are documented as `*/*` objects, and a client reads them as JSON), else
    /// `application/octet-stream`.
    static func contentType(for range: String, value: JSONValue) -> String {
        guard range.contains("*") else { return range }
        let bare = BodyRule.mediaType(range)
        if bare == "*/*" || bare == "application/*", value.stringValue == nil, value != .null {
            return "application/json"
        }
        return "application/octet-stream"
    }

    /// A `Prefer` header's preferences: `code=404, example=ok; dynamic=true`.
    static func preferences(_ header: String) -> [String: String] {
        var preferences: [String: String] = [:]
        for part in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = pair.first?.lowercased(), !name.isEmpty else { continue }
            let value = pair.count > 1 ? pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : "true"
            preferences[name] = value
        }
        return preferences
    }

    /// Headers of a recorded response the mock does not replay: they describe that transfer.
    static let hopHeaders: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding", "date", "server",
    ]

    static func covers(_ range: String, _ type: String) -> Bool {
        let range = range.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        let type = type.lowercased()
        if range == type || range == "*/*" { return true }
        if range.hasSuffix("/*") { return type.hasPrefix(String(range.dropLast())) }
        return false
    }

    static func status(_ code: Int) -> HTTPResponse.Status {
        HTTPResponse.Status(code: code, reasonPhrase: HTTPStatus(code: code).reasonPhrase)
    }

    /// `problem(…)` as an answer to keep.
    static func problemAnswer(
        _ status: HTTPResponse.Status, type: String, title: String, detail: String, instance: String
    )
        -> MockAnswerCache.Answer
    {
        MockAnswerCache.Answer(
            status: status, headers: [.contentType: "application/problem+json"],
            body: problemBody(status, type: type, title: title, detail: detail, instance: instance), note: "")
    }

    static func problemBody(
        _ status: HTTPResponse.Status, type: String, title: String, detail: String, instance: String,
        extensions: [(String, JSONValue)] = []
    ) -> ByteBuffer {
        var members: [(key: String, value: JSONValue)] = [
            ("type", .string("https://explorer.example/mock/problems/\(type)")), ("title", .string(title)),
            ("status", .number(String(status.code))), ("detail", .string(detail)), ("instance", .string(instance)),
        ]
        members += extensions.map { (key: $0.0, value: $0.1) }
        return ByteBuffer(string: JSONValue.object(members).serialized(pretty: true))
    }

    /// An `application/problem+json` answer (RFC 9457), like the demo's.
    static func problem(
        _ status: HTTPResponse.Status, type: String, title: String, detail: String, instance: String,
        extensions: [(String, JSONValue)] = [], headers: HTTPFields = [:]
    ) -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        return Response(
            status: status, headers: fields,
            body: ResponseBody(
                byteBuffer: problemBody(
                    status, type: type, title: title, detail: detail, instance: instance, extensions: extensions)))
    }
}

/// Media types, as the contract reads them.
enum OpenAPIContractMedia {
    static func isJSON(_ type: String) -> Bool {
        let type = type.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        return type == "application/json" || type.hasSuffix("+json")
    }
}
