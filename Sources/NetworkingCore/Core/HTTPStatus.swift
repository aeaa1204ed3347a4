/// An HTTP status code with its reason phrase, as RFC 9110 names it.
///
/// Any code is allowed (`HTTPStatus(code: 599)`); the common ones are constants such as
/// `HTTPStatus.notFound`. Two statuses are equal when their codes are.
public struct HTTPStatus: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The three-digit status code.
    public let code: Int

    /// Creates a status from its code.
    ///
    /// - Parameter code: the status code, e.g. `404`.
    public init(code: Int) { self.code = code }

    /// Creates a status from an integer literal.
    public init(integerLiteral value: Int) { self.init(code: value) }

    /// The reason phrase RFC 9110 gives this code, or a generic one for its class.
    public var reasonPhrase: String {
        if let phrase = Self.phrases[code] { return phrase }
        switch kind {
        case .informational: return "Informational"
        case .success: return "Success"
        case .redirection: return "Redirection"
        case .clientError: return "Client Error"
        case .serverError: return "Server Error"
        case .unknown: return "Unknown Status"
        }
    }

    /// The reason phrase an RFC gives this code, or `nil` for a code none names (`reasonPhrase`
    /// then gives its class, or "Unknown Status"): what a client that cannot read the server's
    /// own phrase can show without inventing one.
    public var namedReasonPhrase: String? { Self.phrases[code] }

    /// The class of a status code, from its first digit.
    public enum Kind: Sendable, Hashable {
        /// 1xx.
        case informational
        /// 2xx.
        case success
        /// 3xx.
        case redirection
        /// 4xx.
        case clientError
        /// 5xx.
        case serverError
        /// Anything outside 100...599.
        case unknown
    }

    /// The class of this status.
    public var kind: Kind {
        switch code {
        case 100..<200: return .informational
        case 200..<300: return .success
        case 300..<400: return .redirection
        case 400..<500: return .clientError
        case 500..<600: return .serverError
        default: return .unknown
        }
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { kind == .success }

    /// The code and reason phrase, e.g. `404 Not Found`.
    public var description: String { "\(code) \(reasonPhrase)" }

    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static let `continue`: HTTPStatus = 100
    public static let switchingProtocols: HTTPStatus = 101
    public static let ok: HTTPStatus = 200
    public static let created: HTTPStatus = 201
    public static let accepted: HTTPStatus = 202
    public static let noContent: HTTPStatus = 204
    public static let partialContent: HTTPStatus = 206
    public static let movedPermanently: HTTPStatus = 301
    public static let found: HTTPStatus = 302
    public static let seeOther: HTTPStatus = 303
    public static let notModified: HTTPStatus = 304
    public static let temporaryRedirect: HTTPStatus = 307
    public static let permanentRedirect: HTTPStatus = 308
    public static let badRequest: HTTPStatus = 400
    public static let unauthorized: HTTPStatus = 401
    public static let forbidden: HTTPStatus = 403
    public static let notFound: HTTPStatus = 404
    public static let methodNotAllowed: HTTPStatus = 405
    public static let notAcceptable: HTTPStatus = 406
    public static let requestTimeout: HTTPStatus = 408
    public static let conflict: HTTPStatus = 409
    public static let gone: HTTPStatus = 410
    public static let contentTooLarge: HTTPStatus = 413
    public static let unsupportedMediaType: HTTPStatus = 415
    public static let unprocessableContent: HTTPStatus = 422
    public static let tooManyRequests: HTTPStatus = 429
    public static let internalServerError: HTTPStatus = 500
    public static let notImplemented: HTTPStatus = 501
    public static let badGateway: HTTPStatus = 502
    public static let serviceUnavailable: HTTPStatus = 503
    public static let gatewayTimeout: HTTPStatus = 504

    private static let phrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
        204: "No Content", 205: "Reset Content", 206: "Partial Content", 207: "Multi-Status",
        208: "Already Reported", 226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
        404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable",
        407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 418: "I'm a teapot", 421: "Misdirected Request",
        422: "Unprocessable Content", 423: "Locked", 424: "Failed Dependency", 425: "Too Early",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway",
        503: "Service Unavailable", 504: "Gateway Timeout", 505: "HTTP Version Not Supported",
        506: "Variant Also Negotiates", 507: "Insufficient Storage", 508: "Loop Detected",
        510: "Not Extended", 511: "Network Authentication Required",
    ]
}
