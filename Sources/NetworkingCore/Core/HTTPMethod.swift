/// An HTTP request method, as the spec names it.
///
/// Any token is allowed (`HTTPMethod(rawValue: "PROPFIND")`); the common ones are constants.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method token: upper-cased, or exactly as written when made with `init(exactly:)`.
    public let rawValue: String

    /// Creates a method from its token; the token is upper-cased.
    ///
    /// - Parameter rawValue: the method token, e.g. `"get"` or `"PATCH"`.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// Creates a method from its token exactly as written (`wHat` stays `wHat`).
    ///
    /// Methods are case-sensitive (RFC 9110 §9.1): this is what a collection or a curl
    /// command line asks for, where `-X wHat` sends `wHat`.
    /// - Parameter token: the method token.
    public init(exactly token: String) { self.rawValue = token }

    /// Creates a method from a string literal, upper-cased.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"
    public static let trace: HTTPMethod = "TRACE"
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, .trace: return true
        default: return false
        }
    }
}
