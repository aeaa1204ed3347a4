import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import NetworkingCore

/// The demo API of one environment: its data and the answers of its routes.
///
/// `router()` (in `DemoAPI+Routes.swift`) maps paths and methods to these answers. Every route
/// answers both at the root and under the `/v1` base path, so `http://127.0.0.1:P/users` and
/// `http://127.0.0.1:P/v1/users` are the same resource.
struct DemoAPI: Sendable {
    let environment: String
    let store: DemoStore
    /// Called with one line per request (method, path, status, environment) when set.
    let accessLog: (@Sendable (String) -> Void)?

    static let bearerToken = "demo-token"
    static let maxBodySize = 16 * 1024 * 1024

    init(environment: String, accessLog: (@Sendable (String) -> Void)? = nil) {
        self.environment = environment
        self.store = DemoStore(environment: environment)
        self.accessLog = accessLog
    }

    // MARK: - Fixed answers

    func serverError() -> Hummingbird.Response {
        DemoReply.text(
            DemoContent.serverErrorPage(requestID: DemoRequestID.next()),
            contentType: "text/html; charset=utf-8", status: .internalServerError)
    }

    func rateLimited(_ request: Hummingbird.Request) -> Hummingbird.Response {
        var headers = HTTPFields()
        headers[DemoReply.header("Retry-After")] = "30"
        headers[DemoReply.header("X-RateLimit-Limit")] = "60"
        headers[DemoReply.header("X-RateLimit-Remaining")] = "0"
        return DemoReply.problem(
            .tooManyRequests, type: "rate-limited", title: "Too Many Requests",
            detail: "You have sent more than 60 requests in a minute. Retry after 30 seconds.",
            instance: request.uri.path, headers: headers)
    }

    func latin1() -> Hummingbird.Response {
        DemoReply.bytes(DemoContent.latin1Text.data(using: .isoLatin1)!, contentType: "text/plain; charset=iso-8859-1")
    }

    func xml() -> Hummingbird.Response {
        DemoReply.text(
            DemoContent.xml.replacingOccurrences(of: "ENVIRONMENT", with: environment),
            contentType: "application/xml; charset=utf-8")
    }

    /// `/status/{code}`: any status from 200 to 599, with a small JSON body unless the status has none.
    func status(_ request: Hummingbird.Request, _ context: BasicRequestContext) -> Hummingbird.Response {
        let segment = context.parameters.get("code") ?? ""
        guard let code = Int(segment), (200...599).contains(code) else {
            return notFound(request.uri.path, what: "status \(segment)")
        }
        // With its reason phrase: `Status(code:)` alone has none ("HTTP/1.1 201 ").
        let status = HTTPResponse.Status(code: code, reasonPhrase: HTTPStatus(code: code).reasonPhrase)
        if code == 204 || code == 304 { return Hummingbird.Response(status: status) }
        return DemoReply.jsonObject(["status": code, "reason": status.reasonPhrase], status: status)
    }

    // MARK: - Errors

    func notFound(_ path: String, what: String) -> Hummingbird.Response {
        DemoReply.problem(
            .notFound, type: "not-found", title: "Not Found",
            detail: "There is no \(what) in the \(environment) environment.", instance: path)
    }

    func notAllowed(_ method: HTTPRequest.Method, _ path: String, allowed: [String]) -> Hummingbird.Response {
        var headers = HTTPFields()
        headers[.allow] = allowed.joined(separator: ", ")
        return DemoReply.problem(
            .methodNotAllowed, type: "method-not-allowed", title: "Method Not Allowed",
            detail: "\(method.rawValue) is not allowed on \(path); use \(allowed.joined(separator: ", ")).",
            instance: path, headers: headers)
    }

    private func validationFailed(_ path: String, _ errors: [[String: String]]) -> Hummingbird.Response {
        DemoReply.problem(
            .unprocessableContent, type: "validation-error", title: "Your request is not valid",
            detail: "\(errors.count) field\(errors.count == 1 ? " is" : "s are") invalid.",
            instance: path, extensions: ["errors": errors])
    }

    // MARK: - Index

    func index() -> Hummingbird.Response {
        DemoReply.jsonObject([
            "name": "explorer demo API",
            "environment": environment,
            "endpoints": [
                "GET /openapi.json", "GET /users", "POST /users", "GET|PUT|PATCH|DELETE /users/{id}",
                "GET /posts", "POST /posts", "GET|PUT|PATCH|DELETE /posts/{id}",
                "ANY /echo", "GET /slow?ms=N", "GET /large?items=N", "POST /login", "GET /me",
                "GET /error", "GET /rate-limited", "GET /redirect?n=N", "GET /gzip", "GET /image.png",
                "GET /latin1", "GET /unicode", "GET /xml", "GET /escape", "GET /status/{code}",
                "GET /digest/{MD5|SHA-256} (HTTP Digest: ada / demo-digest-pass)",
                "GET /cookies", "GET /cookies/set?name=value",
                "POST /session/login (a form: user, password; 303 to /session/home with a session cookie)",
                "GET /session/home",
                "POST /oauth/token, GET /oauth/authorize, "
                    + "POST /oauth/device (OAuth2: client explorer-demo / demo-client-secret)",
            ],
        ])
    }

    // MARK: - Users and posts

    func listUsers(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        var users = await store.users
        if let role = request.uri.queryParameters.get("role") { users = users.filter { $0.role == role } }
        return paginated(users, request)
    }

    func listPosts(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        var posts = await store.posts
        if let user = request.uri.queryParameters.get("userId").flatMap({ Int($0) }) {
            posts = posts.filter { $0.userId == user }
        }
        return paginated(posts, request)
    }

    /// One page of a list, with `Link` (first/prev/next/last) and `X-Total-Count` headers.
    private func paginated<Item: Encodable & Sendable>(_ items: [Item], _ request: Hummingbird.Request)
        -> Hummingbird.Response
    {
        let query = request.uri.queryParameters
        let perPage = min(max(query.get("per_page").flatMap { Int($0) } ?? 10, 1), 100)
        let lastPage = max(1, (items.count + perPage - 1) / perPage)
        let page = max(query.get("page").flatMap { Int($0) } ?? 1, 1)
        let pageItems = Array(items.dropFirst((page - 1) * perPage).prefix(perPage))

        let host = request.head.authority ?? "127.0.0.1"
        let base = "http://\(host)\(request.uri.path)"
        func link(_ number: Int, _ rel: String) -> String {
            "<\(base)?page=\(number)&per_page=\(perPage)>; rel=\"\(rel)\""
        }
        var links = [link(1, "first")]
        if page > 1 { links.append(link(min(page - 1, lastPage), "prev")) }
        if page < lastPage { links.append(link(page + 1, "next")) }
        links.append(link(lastPage, "last"))

        var headers = HTTPFields()
        headers[DemoReply.header("Link")] = links.joined(separator: ", ")
        headers[DemoReply.header("X-Total-Count")] = String(items.count)
        return DemoReply.json(
            DemoPage(environment: environment, page: page, perPage: perPage, total: items.count, items: pageItems),
            headers: headers)
    }

    func getUser(_ id: Int, _ request: Hummingbird.Request) async -> Hummingbird.Response {
        guard let user = await store.user(id: id) else { return notFound(request.uri.path, what: "user \(id)") }
        return DemoReply.json(user)
    }

    func createUser(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let fields = try await jsonBody(request)
        let errors = userErrors(fields, partial: false)
        guard errors.isEmpty else { return validationFailed(request.uri.path, errors) }
        let name = fields["name"] as! String
        let email = fields["email"] as! String
        let user = await store.insert(
            DemoUser(
                id: 0, name: name, username: fields["username"] as? String ?? email.components(separatedBy: "@")[0],
                email: email, role: fields["role"] as? String ?? "member", createdAt: Date().formatted(.iso8601)))
        var headers = HTTPFields()
        headers[.location] = "\(request.uri.path)/\(user.id)"
        return DemoReply.json(user, status: .created, headers: headers)
    }

    func updateUser(_ id: Int, _ request: Hummingbird.Request, partial: Bool) async throws -> Hummingbird.Response {
        let fields = try await jsonBody(request)
        guard var user = await store.user(id: id) else { return notFound(request.uri.path, what: "user \(id)") }
        let errors = userErrors(fields, partial: partial)
        guard errors.isEmpty else { return validationFailed(request.uri.path, errors) }
        if let name = fields["name"] as? String { user.name = name }
        if let email = fields["email"] as? String { user.email = email }
        if let username = fields["username"] as? String { user.username = username }
        if let role = fields["role"] as? String { user.role = role }
        _ = await store.update(user)
        return DemoReply.json(user)
    }

    func deleteUser(_ id: Int, _ request: Hummingbird.Request) async -> Hummingbird.Response {
        await store.deleteUser(id: id)
            ? Hummingbird.Response(status: .noContent) : notFound(request.uri.path, what: "user \(id)")
    }

    func getPost(_ id: Int, _ request: Hummingbird.Request) async -> Hummingbird.Response {
        guard let post = await store.post(id: id) else { return notFound(request.uri.path, what: "post \(id)") }
        return DemoReply.json(post)
    }

    func deletePost(_ id: Int, _ request: Hummingbird.Request) async -> Hummingbird.Response {
        await store.deletePost(id: id)
            ? Hummingbird.Response(status: .noContent) : notFound(request.uri.path, what: "post \(id)")
    }

    private func userErrors(_ fields: [String: Any], partial: Bool) -> [[String: String]] {
        var errors: [[String: String]] = []
        if !partial || fields["name"] != nil {
            if (fields["name"] as? String)?.trimmingCharacters(in: .whitespaces).isEmpty ?? true {
                errors.append(["field": "name", "pointer": "/name", "message": "must be a non-empty string"])
            }
        }
        if !partial || fields["email"] != nil {
            let email = fields["email"] as? String ?? ""
            if !email.contains("@") || email.hasPrefix("@") || email.hasSuffix("@") {
                errors.append([
                    "field": "email", "pointer": "/email", "message": "must be an email address like ada@example.com",
                ])
            }
        }
        if let role = fields["role"], !["admin", "editor", "member"].contains(role as? String ?? "") {
            errors.append(["field": "role", "pointer": "/role", "message": "must be one of admin, editor, member"])
        }
        return errors
    }

    func createPost(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let fields = try await jsonBody(request)
        let errors = await postErrors(fields, partial: false)
        guard errors.isEmpty else { return validationFailed(request.uri.path, errors) }
        let post = await store.insert(
            DemoPost(
                id: 0, userId: fields["userId"] as! Int, title: fields["title"] as! String,
                body: fields["body"] as? String ?? "", tags: fields["tags"] as? [String] ?? [],
                published: fields["published"] as? Bool ?? false))
        var headers = HTTPFields()
        headers[.location] = "\(request.uri.path)/\(post.id)"
        return DemoReply.json(post, status: .created, headers: headers)
    }

    func updatePost(_ id: Int, _ request: Hummingbird.Request, partial: Bool) async throws -> Hummingbird.Response {
        let fields = try await jsonBody(request)
        guard var post = await store.post(id: id) else { return notFound(request.uri.path, what: "post \(id)") }
        let errors = await postErrors(fields, partial: partial)
        guard errors.isEmpty else { return validationFailed(request.uri.path, errors) }
        if let title = fields["title"] as? String { post.title = title }
        if let body = fields["body"] as? String { post.body = body }
        if let userId = fields["userId"] as? Int { post.userId = userId }
        if let tags = fields["tags"] as? [String] { post.tags = tags }
        if let published = fields["published"] as? Bool { post.published = published }
        _ = await store.update(post)
        return DemoReply.json(post)
    }

    private func postErrors(_ fields: [String: Any], partial: Bool) async -> [[String: String]] {
        var errors: [[String: String]] = []
        if !partial || fields["title"] != nil {
            if (fields["title"] as? String)?.trimmingCharacters(in: .whitespaces).isEmpty ?? true {
                errors.append(["field": "title", "pointer": "/title", "message": "must be a non-empty string"])
            }
        }
        if !partial || fields["userId"] != nil {
            if let userId = fields["userId"] as? Int {
                if await store.user(id: userId) == nil {
                    errors.append(["field": "userId", "pointer": "/userId", "message": "no user has id \(userId)"])
                }
            } else {
                errors.append(["field": "userId", "pointer": "/userId", "message": "must be the id of a user"])
            }
        }
        return errors
    }

    /// The request body as a JSON object; an empty body is an empty object.
    private func jsonBody(_ request: Hummingbird.Request) async throws -> [String: Any] {
        var request = request
        let buffer = try await request.collectBody(upTo: Self.maxBodySize)
        guard buffer.readableBytes > 0 else { return [:] }
        let data = Data(buffer.readableBytesView)
        guard let object = try? JSONSerialization.jsonObject(with: data) else {
            throw DemoBadRequest(detail: "The body is not valid JSON.")
        }
        guard let fields = object as? [String: Any] else {
            throw DemoBadRequest(detail: "The body must be a JSON object.")
        }
        return fields
    }

    // MARK: - Auth

    /// The demo's account: `POST /login` with these gives a token that expires.
    static let demoUser = (user: "ada", password: "lovelace")

    /// `POST /login` with `{"user": "ada", "password": "lovelace"}`: a fresh bearer token
    /// that `/me` accepts for `DemoTokens.lifetime` (60 s), with an `X-Request-Id`.
    func login(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let fields = try await jsonBody(request)
        guard fields["user"] as? String == Self.demoUser.user, fields["password"] as? String == Self.demoUser.password
        else {
            return DemoReply.problem(
                .unauthorized, type: "bad-credentials", title: "Unauthorized",
                detail:
                    "The user or the password is wrong; "
                    + "the demo account is \(Self.demoUser.user) / \(Self.demoUser.password).",
                instance: request.uri.path)
        }
        let issued = await store.tokens.issue()
        var headers = HTTPFields()
        headers[DemoRequestID.header] = DemoRequestID.next()
        return DemoReply.jsonObject(
            [
                "token": issued.token, "token_type": "Bearer", "expires_in": Int(DemoTokens.lifetime),
                "user": Self.demoUser.user, "roles": ["admin", "reader"],
            ], headers: headers)
    }

    /// `GET /me`: needs `Bearer demo-token`, or a token from `POST /login` that has not expired.
    func me(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        let authorization = request.headers[.authorization]
        let token = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        var state = DemoTokens.State.valid
        if token != Self.bearerToken { state = await store.tokens.state(of: token ?? "") }
        guard state == .valid else {
            var headers = HTTPFields()
            let invalid = authorization == nil ? "" : ", error=\"invalid_token\""
            headers[.wwwAuthenticate] = "Bearer realm=\"explorer-demo\"\(invalid)"
            let detail: String
            switch (authorization, state) {
            case (nil, _):
                detail =
                    "This endpoint needs an Authorization header: send 'Authorization: Bearer \(Self.bearerToken)', "
                    + "or a token from POST /login."
            case (_, .expired):
                detail =
                    "The bearer token expired (tokens from POST /login last \(Int(DemoTokens.lifetime)) s); "
                    + "log in again."
            default:
                detail =
                    "The bearer token is not valid; the demo accepts '\(Self.bearerToken)' or a token from POST /login."
            }
            return DemoReply.problem(
                .unauthorized, type: "unauthorized", title: "Unauthorized", detail: detail,
                instance: request.uri.path, headers: headers)
        }
        return DemoReply.jsonObject([
            "id": 1, "username": "ada", "environment": environment, "scopes": ["read", "write"],
        ])
    }

    // MARK: - Timing and size

    func slow(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let milliseconds = min(max(request.uri.queryParameters.get("ms").flatMap { Int($0) } ?? 2000, 0), 120_000)
        try await Task.sleep(for: .milliseconds(milliseconds))
        return DemoReply.jsonObject(["sleptMs": milliseconds, "environment": environment])
    }

    /// A JSON array of `items` objects, written in chunks as it is generated.
    func large(_ request: Hummingbird.Request) -> Hummingbird.Response {
        let count = min(max(request.uri.queryParameters.get("items").flatMap { Int($0) } ?? 10_000, 0), 10_000_000)
        let environment = self.environment
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[DemoReply.header("X-Item-Count")] = String(count)
        let body = ResponseBody { writer in
            var chunk = ByteBuffer()
            chunk.writeString("[\n")
            let statuses = ["open", "closed", "pending"]
            for index in 0..<count {
                let separator = index + 1 < count ? ",\n" : "\n"
                chunk.writeString(
                    #"  {"id": \#(index + 1), "name": "item \#(index + 1)", "status": "\#(statuses[index % 3])", "#
                        + #""environment": "\#(environment)", "score": \#(Double(index % 1000) / 10), "#
                        + #""tags": ["t\#(index % 7)", "t\#(index % 11)"]}"#
                        + separator)
                if chunk.readableBytes >= 64 * 1024 {
                    try await writer.write(chunk)
                    chunk.clear()
                }
            }
            chunk.writeString("]\n")
            try await writer.write(chunk)
            try await writer.finish(nil)
        }
        return Hummingbird.Response(status: .ok, headers: headers, body: body)
    }

    // MARK: - Redirects and encodings

    func redirect(_ request: Hummingbird.Request) -> Hummingbird.Response {
        let remaining = min(max(request.uri.queryParameters.get("n").flatMap { Int($0) } ?? 3, 0), 50)
        guard remaining > 0 else {
            return DemoReply.jsonObject([
                "message": "You reached the end of the redirect chain.", "environment": environment,
            ])
        }
        var headers = HTTPFields()
        headers[.location] = "\(request.uri.path)?n=\(remaining - 1)"
        return DemoReply.text(
            "Redirecting: \(remaining - 1) more hop\(remaining == 2 ? "" : "s") to go.\n", status: .found
        )
        .with(headers: headers)
    }

    func gzip() throws -> Hummingbird.Response {
        var plain = ByteBuffer(
            bytes: (try? JSONSerialization.data(
                withJSONObject: [
                    "compressed": true, "environment": environment,
                    "message": String(repeating: "This JSON body was sent gzip-encoded. ", count: 20),
                ],
                options: [.prettyPrinted, .sortedKeys])) ?? Data())
        let compressed = try plain.compress(with: .gzip())
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentEncoding] = "gzip"
        return Hummingbird.Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: compressed))
    }

    // MARK: - Echo

    /// Answers with what was received: method, path, query arguments, headers and body.
    func echo(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        var request = request
        let buffer = try await request.collectBody(upTo: Self.maxBodySize)
        let body = Data(buffer.readableBytesView)
        let echoed = DemoEcho(request: request, body: body, environment: environment)
        return DemoReply.jsonObject(echoed.object)
    }
}

/// A list response: one page of items and where it is in the whole.
struct DemoPage<Item: Encodable & Sendable>: Encodable, Sendable {
    let environment: String
    let page: Int
    let perPage: Int
    let total: Int
    let items: [Item]

    enum CodingKeys: String, CodingKey {
        case environment, page
        case perPage = "per_page"
        case total, items
    }
}

/// A request the demo cannot read (a body that is not JSON): answered with 400.
struct DemoBadRequest: Error {
    let detail: String
}

extension Hummingbird.Response {
    fileprivate func with(headers extra: HTTPFields) -> Hummingbird.Response {
        var response = self
        for field in extra { response.headers[field.name] = field.value }
        return response
    }
}
