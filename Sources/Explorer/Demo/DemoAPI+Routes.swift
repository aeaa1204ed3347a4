import Foundation
import HTTPTypes
import Hummingbird

/// One route of the demo API: a path (with `:parameters` or a `**` catch-all) and what each
/// method does there.
///
/// A route either takes every method with one handler, or takes a few, listed in the order an
/// `Allow` header names them (GET, HEAD, POST, PUT, PATCH, DELETE); GET answers HEAD too. Any
/// other method gets `405 Method Not Allowed` with that `Allow` list.
struct DemoRoute: Sendable {
    typealias Handler = @Sendable (Hummingbird.Request, BasicRequestContext) async throws -> Hummingbird.Response

    let path: RouterPath
    /// The handler of every method, or `nil` when only `methods` are taken.
    let anyMethod: Handler?
    /// The methods taken, in `Allow` order, with their handlers.
    let methods: [(method: HTTPRequest.Method, handler: Handler)]

    /// A route that answers every method the same way.
    static func any(_ path: RouterPath, _ handler: @escaping Handler) -> DemoRoute {
        DemoRoute(path: path, anyMethod: handler, methods: [])
    }

    /// A route that takes only the methods given a handler.
    init(
        _ path: RouterPath,
        get: Handler? = nil, post: Handler? = nil, put: Handler? = nil, patch: Handler? = nil, delete: Handler? = nil
    ) {
        let listed: [(HTTPRequest.Method, Handler?)] = [
            (.get, get), (.head, get), (.post, post), (.put, put), (.patch, patch), (.delete, delete),
        ]
        self.init(
            path: path, anyMethod: nil, methods: listed.compactMap { method, handler in handler.map { (method, $0) } })
    }

    private init(path: RouterPath, anyMethod: Handler?, methods: [(method: HTTPRequest.Method, handler: Handler)]) {
        self.path = path
        self.anyMethod = anyMethod
        self.methods = methods
    }

    /// Every method the HTTP/1 parser lets through to the server (llhttp's `HTTP_METHOD_MAP`;
    /// anything else is refused with 400 before routing).
    ///
    /// The router matches a method exactly, so a route is registered under each of these: that
    /// is how a route that takes any method gets all of them, and how a method a route does not
    /// take gets 405 rather than the router's 404.
    static let parsableMethods: [HTTPRequest.Method] = """
        GET HEAD POST PUT DELETE CONNECT OPTIONS TRACE PATCH COPY LOCK MKCOL MOVE PROPFIND PROPPATCH
        SEARCH UNLOCK BIND REBIND UNBIND ACL REPORT MKACTIVITY CHECKOUT MERGE M-SEARCH NOTIFY SUBSCRIBE
        UNSUBSCRIBE PURGE MKCALENDAR LINK UNLINK SOURCE QUERY
        """.split(whereSeparator: \.isWhitespace).map { HTTPRequest.Method(String($0))! }
}

extension DemoAPI {
    /// The router of this environment: every route at the root and again under `/v1`, with
    /// the headers, the access log and the problem answers every response shares.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        // Added first, so that it wraps every route and the router's own "not found".
        router.add(middleware: DemoEnvelope(api: self))
        let routes = self.routes
        for base in [router.group(), router.group("v1")] {
            for route in routes { add(route, to: base) }
        }
        return router
    }

    private func add(_ route: DemoRoute, to group: RouterGroup<BasicRequestContext>) {
        let allowed = route.methods.map(\.method.rawValue)
        for method in DemoRoute.parsableMethods {
            let handler: DemoRoute.Handler =
                route.anyMethod ?? route.methods.first { $0.method == method }?.handler
                ?? { @Sendable request, _ in notAllowed(request.method, request.uri.path, allowed: allowed) }
            group.on(route.path, method: method) { request, context in try await handler(request, context) }
        }
    }

    /// The demo's routes, relative to the base path they are mounted at.
    private var routes: [DemoRoute] {
        [
            DemoRoute("/", get: { _, _ in index() }),
            DemoRoute(
                "/openapi.json",
                get: { _, _ in DemoReply.bytes(Data(DemoOpenAPI.json.utf8), contentType: "application/json") }),
            DemoRoute(
                "/users", get: { request, _ in await listUsers(request) },
                post: { request, _ in try await createUser(request) }),
            itemRoute("/users/:id", "user", get: getUser, update: updateUser, delete: deleteUser),
            DemoRoute(
                "/posts", get: { request, _ in await listPosts(request) },
                post: { request, _ in try await createPost(request) }),
            itemRoute("/posts/:id", "post", get: getPost, update: updatePost, delete: deletePost),
            DemoRoute("/me", get: { request, _ in await me(request) }),
            DemoRoute("/login", post: { request, _ in try await login(request) }),
            .any("/digest/:algorithm") { request, context in digest(request, context) },
            .any("/cookies") { request, _ in cookies(request) },
            .any("/cookies/set") { request, _ in setCookies(request) },
            DemoRoute("/session/login", post: { request, _ in try await sessionLogin(request) }),
            DemoRoute("/session/home", get: { request, _ in await sessionHome(request) }),
            DemoRoute("/oauth/token", post: { request, _ in try await oauthToken(request) }),
            DemoRoute("/oauth/authorize", get: { request, _ in await oauthAuthorize(request) }),
            DemoRoute("/oauth/device", post: { request, _ in try await oauthDevice(request) }),
            DemoRoute("/oauth/device/approve", get: { request, _ in await oauthApprove(request) }),
            DemoRoute("/large", get: { request, _ in large(request) }),
            .any("/echo") { request, _ in try await echo(request) },
            .any("/echo/**") { request, _ in try await echo(request) },
            .any("/slow") { request, _ in try await slow(request) },
            .any("/error") { _, _ in serverError() },
            .any("/rate-limited") { request, _ in rateLimited(request) },
            .any("/redirect") { request, _ in redirect(request) },
            .any("/gzip") { _, _ in try gzip() },
            .any("/image.png") { _, _ in DemoReply.bytes(DemoContent.png, contentType: "image/png") },
            .any("/latin1") { _, _ in latin1() },
            .any("/unicode") { _, _ in DemoReply.jsonObject(DemoContent.unicodeJSON) },
            .any("/xml") { _, _ in xml() },
            .any("/escape") { _, _ in DemoReply.text(DemoContent.escapeText) },
            .any("/status/:code") { request, context in status(request, context) },
            DemoRoute("/stream/events", get: { request, _ in events(request) }),
            DemoRoute("/stream/ndjson", get: { request, _ in ndjson(request) }),
            DemoRoute("/stream/endless", get: { request, _ in endless(request) }),
            DemoRoute("/stream/bytes", get: { request, _ in bytes(request) }),
            DemoRoute("/stream/bomb", get: { _, _ in try bomb() }),
            DemoRoute(
                "/graphql", get: { request, _ in try await graphQL(request) },
                post: { request, _ in try await graphQL(request) }),
            .any("/ws/**") { request, _ in webSocketOnly(request) },
        ]
    }

    /// `/<collection>/:id`: GET, PUT (whole), PATCH (partial) and DELETE of one item. An `:id`
    /// that is not a number is a 404 naming it, like an id that names no item.
    private func itemRoute(
        _ path: RouterPath, _ item: String,
        get: @escaping @Sendable (Int, Hummingbird.Request) async -> Hummingbird.Response,
        update: @escaping @Sendable (Int, Hummingbird.Request, _ partial: Bool) async throws -> Hummingbird.Response,
        delete: @escaping @Sendable (Int, Hummingbird.Request) async -> Hummingbird.Response
    ) -> DemoRoute {
        @Sendable func withID(
            _ answer: @escaping @Sendable (Int, Hummingbird.Request) async throws -> Hummingbird.Response
        ) -> DemoRoute.Handler {
            { request, context in
                let segment = context.parameters.get("id") ?? ""
                guard let id = Int(segment) else { return notFound(request.uri.path, what: "\(item) \(segment)") }
                return try await answer(id, request)
            }
        }
        return DemoRoute(
            path,
            get: withID(get),
            put: withID { try await update($0, $1, false) },
            patch: withID { try await update($0, $1, true) },
            delete: withID(delete))
    }
}

/// What every demo response shares, whichever route answered: the environment and request id
/// headers, no body for HEAD, one access-log line, and problem+json for a body the demo cannot
/// read (400) and for a path no route takes (404).
private struct DemoEnvelope: RouterMiddleware {
    typealias Context = BasicRequestContext
    private static let environmentHeader = DemoReply.header("X-Demo-Environment")

    let api: DemoAPI

    func handle(
        _ request: Hummingbird.Request, context: Context,
        next: (Hummingbird.Request, Context) async throws -> Hummingbird.Response
    ) async throws -> Hummingbird.Response {
        var response: Hummingbird.Response
        do {
            response = try await next(request, context)
        } catch let error as DemoBadRequest {
            response = DemoReply.problem(
                .badRequest, type: "bad-request", title: "Bad Request", detail: error.detail,
                instance: request.uri.path)
        } catch let error as HTTPError where error.status == .notFound {
            // Only the router throws this (the routes answer their own 404s): no route took the path.
            response = api.notFound(request.uri.path, what: "route \(request.uri.path)")
        }
        response.headers[Self.environmentHeader] = api.environment
        response.headers[DemoRequestID.header] = DemoRequestID.next()
        if request.method == .head { response.body = ResponseBody() }
        api.accessLog?(
            "\(api.environment.padding(toLength: 10, withPad: " ", startingAt: 0)) \(request.method.rawValue) "
                + "\(request.uri.string) → \(response.status.code)"
        )
        return response
    }
}
