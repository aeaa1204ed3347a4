import NetworkingCore

/// One request of a collection: a method, a path relative to the environment's base URL,
/// query items, headers and a body, all of which may hold `{{variable}}` templates.
package struct Endpoint: Sendable, Hashable, Identifiable {
    /// The endpoint's name, unique within its folder.
    package var name: String
    /// The folders it is in, outermost first (empty at the top level).
    package var folderPath: [String]
    /// The method (when the file leaves it out: POST for a `graphql:` endpoint, else GET).
    package var method: HTTPMethod
    /// The path, appended to the base URL's own path.
    package var path: String
    /// Query items, in order.
    package var query: [KeyValue]
    /// Header fields, in order.
    package var headers: [KeyValue]
    /// The body, if any.
    package var body: EndpointBody?
    /// Rows switched off in the editors (`disabled:` in the file): kept, never sent.
    package var disabled = DisabledRows()
    /// Variables set from the response (`capture:`), in file order.
    package var captures: [Capture] = []
    /// What the response must satisfy (`assert:`), in file order.
    package var assertions: [Assertion] = []
    /// Sending again until every assertion passes (`retry:`).
    package var retry: CheckRetry?
    /// Endpoints sent first when what they capture is missing (`requires:`).
    package var requirements: [Requirement] = []
    /// Its own `auth:`, winning over its folders', environment's and collection's; `nil`
    /// inherits.
    package var auth: Authentication?
    /// Its `graphql:` operation, sent as the body (POST) or the query (GET) instead of a body.
    package var graphql: GraphQLOperation?
    /// Its `operation:` in the collection's `openapi:` document: an `operationId`, or a method
    /// and path template (`GET /pets/{petId}`).
    package var operation: String?
    /// Its `follow_redirects:`, winning over the environment's; `nil` leaves it to the
    /// environment (default: follow).
    package var followRedirects: Bool?
    /// Set when the endpoint opens a WebSocket (`websocket:`, `messages:`); see `WebSocketSettings`.
    package var webSocket: WebSocketSettings?
    /// Set when the endpoint is a gRPC call (`grpc:`, `message:`, `messages:`, `metadata:`,
    /// `server:`); see `GRPCSettings`.
    package var grpc: GRPCSettings?
    /// Its own `tags:` (`smoke`, `users`), in file order; its folders' apply too
    /// (`APICollection.tags(of:)`), and `explorer run --tag` selects by them.
    package var tags: [String] = []
    /// Its own `trace:`: whether it sends a W3C `traceparent` header, or `nil` to leave it to the
    /// environment and the collection.
    package var traces: Bool?
    /// Where the endpoint is written, when it came from a file.
    var location: FileLocation?
    /// The line the endpoint is written on, when it came from a file (a report points at it).
    package var sourceLine: Int? { location?.line }
    /// The `description:` the user wrote, kept so rewriting the file does not lose it.
    package var description: String?
    /// Where each part is written (`path`, `method`, `query[0]`, `headers[1]`, `body` ...),
    /// so an error about a part names the line and column to fix. Not part of equality.
    var locations: [String: FileLocation] = [:]

    /// Creates an endpoint.
    package init(
        name: String,
        folderPath: [String] = [],
        method: HTTPMethod = .get,
        path: String,
        query: [KeyValue] = [],
        headers: [KeyValue] = [],
        body: EndpointBody? = nil,
        location: FileLocation? = nil,
        description: String? = nil
    ) {
        self.description = description
        self.name = name
        self.folderPath = folderPath
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.location = location
    }

    /// Whether the endpoint checks or captures anything, so its body must be read whole.
    package var hasChecks: Bool { !captures.isEmpty || !assertions.isEmpty }

    /// The address a user types: `Folder/Sub/Name`, or `Name` at the top level.
    package var id: String { (folderPath + [name]).joined(separator: "/") }

    package static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        lhs.name == rhs.name && lhs.folderPath == rhs.folderPath && lhs.method == rhs.method
            && lhs.path == rhs.path && lhs.query == rhs.query && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.description == rhs.description && lhs.disabled == rhs.disabled && lhs.captures == rhs.captures
            && lhs.assertions == rhs.assertions && lhs.retry == rhs.retry && lhs.requirements == rhs.requirements
            && lhs.auth == rhs.auth && lhs.graphql == rhs.graphql && lhs.webSocket == rhs.webSocket
            && lhs.grpc == rhs.grpc
            && lhs.operation == rhs.operation && lhs.followRedirects == rhs.followRedirects && lhs.tags == rhs.tags
            && lhs.traces == rhs.traces
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(method)
        hasher.combine(path)
    }
}

/// The rows of an endpoint that are switched off: written under `disabled:` so that a row a
/// user turned off for a while is neither sent nor lost (in the file and in drafts alike).
package struct DisabledRows: Sendable, Codable, Hashable {
    /// Query items switched off.
    package var query: [KeyValue] = []
    /// Header fields switched off.
    package var headers: [KeyValue] = []
    /// Fields of a `form:` body switched off.
    package var form: [KeyValue] = []
    /// Parts of a `multipart:` body switched off.
    package var multipart: [MultipartField] = []

    /// Creates a set of switched-off rows.
    package init(
        query: [KeyValue] = [], headers: [KeyValue] = [], form: [KeyValue] = [], multipart: [MultipartField] = []
    ) {
        self.query = query
        self.headers = headers
        self.form = form
        self.multipart = multipart
    }

    /// Whether no row is switched off.
    package var isEmpty: Bool { query.isEmpty && headers.isEmpty && form.isEmpty && multipart.isEmpty }
}
