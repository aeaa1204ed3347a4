import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird

/// The routes of the demo API for one environment.
///
/// Every route answers both at the root and under the `/v1` base path, so
/// `http://127.0.0.1:P/users` and `http://127.0.0.1:P/v1/users` are the same resource.
package struct DemoAPI: Sendable {
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

    /// Answers one request, adding the headers every demo response carries.
    func respond(to request: Hummingbird.Request) async throws -> Hummingbird.Response {
        var response: Hummingbird.Response
        do {
            response = try await route(request)
        } catch let error as DemoBadRequest {
            response = DemoReply.problem(
                .badRequest, type: "bad-request", title: "Bad Request", detail: error.detail,
                instance: request.uri.path)
        }
        response.headers[DemoReply.header("X-Demo-Environment")] = environment
        response.headers[DemoReply.header("X-Request-Id")] = UUID().uuidString.lowercased()
        if request.method == .head { response.body = ResponseBody() }
        accessLog?("\(environment.padding(toLength: 10, withPad: " ", startingAt: 0)) \(request.method.rawValue) \(request.uri.string) → \(response.status.code)")
        return response
    }

    private func route(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let fullPath = request.uri.path
        var path = fullPath
        if path == "/v1" || path.hasPrefix("/v1/") { path = String(path.dropFirst(3)) }
        if path.isEmpty { path = "/" }
        if path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        let segments = path.split(separator: "/").map(String.init)
        let method = request.method

        if segments.first == "echo" { return try await echo(request) }

        switch (segments.first ?? "", segments.count) {
        case ("", _):
            return try only([.get], method, fullPath) { index(request) }
        case ("users", 1):
            switch method {
            case .get, .head: return await listUsers(request)
            case .post: return try await createUser(request)
            default: return notAllowed(method, fullPath, allowed: ["GET", "HEAD", "POST"])
            }
        case ("users", 2):
            guard let id = Int(segments[1]) else { return notFound(fullPath, what: "user \(segments[1])") }
            switch method {
            case .get, .head: return await getUser(id, fullPath)
            case .put, .patch: return try await updateUser(id, request, partial: method == .patch)
            case .delete: return await deleteUser(id, fullPath)
            default: return notAllowed(method, fullPath, allowed: ["GET", "HEAD", "PUT", "PATCH", "DELETE"])
            }
        case ("posts", 1):
            switch method {
            case .get, .head: return await listPosts(request)
            case .post: return try await createPost(request)
            default: return notAllowed(method, fullPath, allowed: ["GET", "HEAD", "POST"])
            }
        case ("posts", 2):
            guard let id = Int(segments[1]) else { return notFound(fullPath, what: "post \(segments[1])") }
            switch method {
            case .get, .head:
                guard let post = await store.post(id: id) else { return notFound(fullPath, what: "post \(id)") }
                return DemoReply.json(post)
            case .put, .patch: return try await updatePost(id, request, partial: method == .patch)
            case .delete:
                return await store.deletePost(id: id)
                    ? Hummingbird.Response(status: .noContent) : notFound(fullPath, what: "post \(id)")
            default: return notAllowed(method, fullPath, allowed: ["GET", "HEAD", "PUT", "PATCH", "DELETE"])
            }
        case ("me", 1):
            return try only([.get], method, fullPath) { me(request) }
        case ("slow", 1):
            return try await slow(request)
        case ("large", 1):
            return try only([.get], method, fullPath) { large(request) }
        case ("error", 1):
            return DemoReply.text(
                DemoContent.serverErrorPage(requestID: UUID().uuidString.lowercased()),
                contentType: "text/html; charset=utf-8", status: .internalServerError)
        case ("rate-limited", 1):
            var headers = HTTPFields()
            headers[DemoReply.header("Retry-After")] = "30"
            headers[DemoReply.header("X-RateLimit-Limit")] = "60"
            headers[DemoReply.header("X-RateLimit-Remaining")] = "0"
            return DemoReply.problem(
                .tooManyRequests, type: "rate-limited", title: "Too Many Requests",
                detail: "You have sent more than 60 requests in a minute. Retry after 30 seconds.",
                instance: fullPath, headers: headers)
        case ("redirect", 1):
            return redirect(request)
        case ("gzip", 1):
            return try gzip()
        case ("image.png", 1):
            return DemoReply.bytes(DemoContent.png, contentType: "image/png")
        case ("latin1", 1):
            return DemoReply.bytes(
                DemoContent.latin1Text.data(using: .isoLatin1)!, contentType: "text/plain; charset=iso-8859-1")
        case ("unicode", 1):
            return DemoReply.jsonObject(DemoContent.unicodeJSON)
        case ("xml", 1):
            return DemoReply.text(
                DemoContent.xml.replacingOccurrences(of: "ENVIRONMENT", with: environment),
                contentType: "application/xml; charset=utf-8")
        case ("escape", 1):
            return DemoReply.text(DemoContent.escapeText)
        case ("status", 2):
            guard let code = Int(segments[1]), (200...599).contains(code) else {
                return notFound(fullPath, what: "status \(segments[1])")
            }
            let status = HTTPResponse.Status(code: code)
            if code == 204 || code == 304 { return Hummingbird.Response(status: status) }
            return DemoReply.jsonObject(["status": code, "reason": status.reasonPhrase], status: status)
        default:
            return notFound(fullPath, what: "route \(fullPath)")
        }
    }

    // MARK: - Errors

    private func notFound(_ path: String, what: String) -> Hummingbird.Response {
        DemoReply.problem(
            .notFound, type: "not-found", title: "Not Found",
            detail: "There is no \(what) in the \(environment) environment.", instance: path)
    }

    private func notAllowed(_ method: HTTPRequest.Method, _ path: String, allowed: [String]) -> Hummingbird.Response {
        var headers = HTTPFields()
        headers[.allow] = allowed.joined(separator: ", ")
        return DemoReply.problem(
            .methodNotAllowed, type: "method-not-allowed", title: "Method Not Allowed",
            detail: "\(method.rawValue) is not allowed on \(path); use \(allowed.joined(separator: ", ")).",
            instance: path, headers: headers)
    }

    private func only(
        _ methods: [HTTPRequest.Method], _ method: HTTPRequest.Method, _ path: String,
        _ answer: () throws -> Hummingbird.Response
    ) throws -> Hummingbird.Response {
        var allowed = methods
        if allowed.contains(.get) { allowed.append(.head) }
        guard allowed.contains(method) else { return notAllowed(method, path, allowed: allowed.map(\.rawValue)) }
        return try answer()
    }

    private func validationFailed(_ path: String, _ errors: [[String: String]]) -> Hummingbird.Response {
        DemoReply.problem(
            .unprocessableContent, type: "validation-error", title: "Your request is not valid",
            detail: "\(errors.count) field\(errors.count == 1 ? " is" : "s are") invalid.",
            instance: path, extensions: ["errors": errors])
    }

    // MARK: - Index

    private func index(_ request: Hummingbird.Request) -> Hummingbird.Response {
        DemoReply.jsonObject([
            "name": "explorer demo API",
            "environment": environment,
            "endpoints": [
                "GET /users", "POST /users", "GET|PUT|PATCH|DELETE /users/{id}",
                "GET /posts", "POST /posts", "GET|PUT|PATCH|DELETE /posts/{id}",
                "ANY /echo", "GET /slow?ms=N", "GET /large?items=N", "GET /me",
                "GET /error", "GET /rate-limited", "GET /redirect?n=N", "GET /gzip", "GET /image.png",
                "GET /latin1", "GET /unicode", "GET /xml", "GET /escape", "GET /status/{code}",
            ],
        ])
    }

    // MARK: - Users and posts

    private func listUsers(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        var users = await store.users
        if let role = request.uri.queryParameters.get("role") { users = users.filter { $0.role == role } }
        return paginated(users, request)
    }

    private func listPosts(_ request: Hummingbird.Request) async -> Hummingbird.Response {
        var posts = await store.posts
        if let user = request.uri.queryParameters.get("userId").flatMap({ Int($0) }) {
            posts = posts.filter { $0.userId == user }
        }
        return paginated(posts, request)
    }

    /// One page of a list, with `Link` (first/prev/next/last) and `X-Total-Count` headers.
    private func paginated<Item: Encodable & Sendable>(_ items: [Item], _ request: Hummingbird.Request) -> Hummingbird.Response {
        let query = request.uri.queryParameters
        let perPage = min(max(query.get("per_page").flatMap { Int($0) } ?? 10, 1), 100)
        let lastPage = max(1, (items.count + perPage - 1) / perPage)
        let page = max(query.get("page").flatMap { Int($0) } ?? 1, 1)
        let pageItems = Array(items.dropFirst((page - 1) * perPage).prefix(perPage))

        let host = request.head.authority ?? "127.0.0.1"
        let base = "http://\(host)\(request.uri.path)"
        func link(_ number: Int, _ rel: String) -> String { "<\(base)?page=\(number)&per_page=\(perPage)>; rel=\"\(rel)\"" }
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

    private func getUser(_ id: Int, _ path: String) async -> Hummingbird.Response {
        guard let user = await store.user(id: id) else { return notFound(path, what: "user \(id)") }
        return DemoReply.json(user)
    }

    private func createUser(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let fields = try await jsonBody(request)
        let errors = userErrors(fields, partial: false)
        guard errors.isEmpty else { return validationFailed(request.uri.path, errors) }
        let name = fields["name"] as! String
        let email = fields["email"] as! String
        let user = await store.insert(DemoUser(
            id: 0, name: name, username: fields["username"] as? String ?? email.components(separatedBy: "@")[0],
            email: email, role: fields["role"] as? String ?? "member", createdAt: Date().formatted(.iso8601)))
        var headers = HTTPFields()
        headers[.location] = "\(request.uri.path)/\(user.id)"
        return DemoReply.json(user, status: .created, headers: headers)
    }

    private func updateUser(_ id: Int, _ request: Hummingbird.Request, partial: Bool) async throws -> Hummingbird.Response {
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

    private func deleteUser(_ id: Int, _ path: String) async -> Hummingbird.Response {
        await store.deleteUser(id: id) ? Hummingbird.Response(status: .noContent) : notFound(path, what: "user \(id)")
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
                errors.append(["field": "email", "pointer": "/email", "message": "must be an email address like ada@example.com"])
            }
        }
        if let role = fields["role"], !["admin", "editor", "member"].contains(role as? String ?? "") {
            errors.append(["field": "role", "pointer": "/role", "message": "must be one of admin, editor, member"])
        }
        return errors
    }

    private func createPost(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let fields = try await jsonBody(request)
        let errors = await postErrors(fields, partial: false)
        guard errors.isEmpty else { return validationFailed(request.uri.path, errors) }
        let post = await store.insert(DemoPost(
            id: 0, userId: fields["userId"] as! Int, title: fields["title"] as! String,
            body: fields["body"] as? String ?? "", tags: fields["tags"] as? [String] ?? [],
            published: fields["published"] as? Bool ?? false))
        var headers = HTTPFields()
        headers[.location] = "\(request.uri.path)/\(post.id)"
        return DemoReply.json(post, status: .created, headers: headers)
    }

    private func updatePost(_ id: Int, _ request: Hummingbird.Request, partial: Bool) async throws -> Hummingbird.Response {
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

    private func me(_ request: Hummingbird.Request) -> Hummingbird.Response {
        let authorization = request.headers[.authorization]
        guard authorization == "Bearer \(Self.bearerToken)" else {
            var headers = HTTPFields()
            let invalid = authorization == nil ? "" : ", error=\"invalid_token\""
            headers[.wwwAuthenticate] = "Bearer realm=\"explorer-demo\"\(invalid)"
            return DemoReply.problem(
                .unauthorized, type: "unauthorized", title: "Unauthorized",
                detail: authorization == nil
                    ? "This endpoint needs an Authorization header: send 'Authorization: Bearer \(Self.bearerToken)'."
                    : "The bearer token is not valid; the demo accepts '\(Self.bearerToken)'.",
                instance: request.uri.path, headers: headers)
        }
        return DemoReply.jsonObject([
            "id": 1, "username": "ada", "environment": environment, "scopes": ["read", "write"],
        ])
    }

    // MARK: - Timing and size

    private func slow(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        let milliseconds = min(max(request.uri.queryParameters.get("ms").flatMap { Int($0) } ?? 2000, 0), 120_000)
        try await Task.sleep(for: .milliseconds(milliseconds))
        return DemoReply.jsonObject(["sleptMs": milliseconds, "environment": environment])
    }

    /// A JSON array of `items` objects, written in chunks as it is generated.
    private func large(_ request: Hummingbird.Request) -> Hummingbird.Response {
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
                    #"  {"id": \#(index + 1), "name": "item \#(index + 1)", "status": "\#(statuses[index % 3])", "environment": "\#(environment)", "score": \#(Double(index % 1000) / 10), "tags": ["t\#(index % 7)", "t\#(index % 11)"]}"#
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

    private func redirect(_ request: Hummingbird.Request) -> Hummingbird.Response {
        let remaining = min(max(request.uri.queryParameters.get("n").flatMap { Int($0) } ?? 3, 0), 50)
        guard remaining > 0 else {
            return DemoReply.jsonObject(["message": "You reached the end of the redirect chain.", "environment": environment])
        }
        var headers = HTTPFields()
        headers[.location] = "\(request.uri.path)?n=\(remaining - 1)"
        return DemoReply.text(
            "Redirecting: \(remaining - 1) more hop\(remaining == 2 ? "" : "s") to go.\n", status: .found)
            .with(headers: headers)
    }

    private func gzip() throws -> Hummingbird.Response {
        var plain = ByteBuffer(bytes: (try? JSONSerialization.data(
            withJSONObject: ["compressed": true, "environment": environment,
                             "message": String(repeating: "This JSON body was sent gzip-encoded. ", count: 20)],
            options: [.prettyPrinted, .sortedKeys])) ?? Data())
        let compressed = try plain.compress(with: .gzip())
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentEncoding] = "gzip"
        return Hummingbird.Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: compressed))
    }

    // MARK: - Echo

    /// Answers with what was received: method, path, query arguments, headers and body.
    private func echo(_ request: Hummingbird.Request) async throws -> Hummingbird.Response {
        var request = request
        let buffer = try await request.collectBody(upTo: Self.maxBodySize)
        let body = Data(buffer.readableBytesView)
        let echoed = DemoEcho(request: request, body: body, environment: environment)
        return DemoReply.jsonObject(echoed.object)
    }
}

/// A list response: one page of items and where it is in the whole.
package struct DemoPage<Item: Encodable & Sendable>: Encodable, Sendable {
    let environment: String
    let page: Int
    let perPage: Int
    let total: Int
    let items: [Item]

    enum CodingKeys: String, CodingKey {
        case environment, page, perPage = "per_page", total, items
    }
}

/// A request the demo cannot read (a body that is not JSON): answered with 400.
package struct DemoBadRequest: Error {
    let detail: String
}

extension Hummingbird.Response {
    fileprivate func with(headers extra: HTTPFields) -> Hummingbird.Response {
        var response = self
        for field in extra { response.headers[field.name] = field.value }
        return response
    }
}
