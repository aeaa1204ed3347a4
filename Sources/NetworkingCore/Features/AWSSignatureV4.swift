import Crypto
import Foundation

/// AWS credentials: an access key, and a session token for temporary ones.
public struct AWSCredentials: Sendable, Hashable {
    /// The access key id (`AKID…`).
    public var accessKeyID: String
    /// The secret access key; it never goes on the wire.
    public var secretAccessKey: String
    /// The session token of temporary credentials, sent as `X-Amz-Security-Token`.
    public var sessionToken: String?

    /// Creates credentials.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// AWS Signature Version 4 (header and query signing), as AWS's signers compute it.
///
/// ```swift
/// let signer = AWSSignatureV4(
///     credentials: AWSCredentials(accessKeyID: "AKID…", secretAccessKey: "…"),
///     region: "us-east-1", service: "execute-api")
/// let dispatcher = NetworkDispatcher(serverProvider: server, requestAdapters: [signer])
/// ```
///
/// As a `RequestAdapter` it signs each request just before it is sent (put it last, after
/// the adapters that add headers). The signing time is the request's own `X-Amz-Date` when it
/// has one, else now. `signature(…)` gives the intermediate texts (`Signing`) too.
public struct AWSSignatureV4: RequestAdapter, Sendable, Hashable {
    /// The credentials.
    public var credentials: AWSCredentials
    /// The region (`us-east-1`).
    public var region: String
    /// The service's signing name (`s3`, `execute-api`).
    public var service: String
    /// Whether the path's dot segments and empty segments are removed before signing (not for S3).
    public var normalizesPath: Bool
    /// Whether each path segment is percent-encoded again (every service but S3).
    public var encodesPathTwice: Bool
    /// Whether `x-amz-content-sha256` is added and signed (S3 needs it).
    public var signsPayload: Bool
    /// Whether the session token is part of what is signed; when `false` it is added after
    /// signing (as some services want for STS-issued tokens).
    public var signsSessionToken: Bool

    /// The headers never signed: a proxy or the transport may change them on the way.
    public static let unsignedHeaders: Set<String> = [
        "x-amzn-trace-id", "user-agent", "connection", "expect", "sec-websocket-key", "sec-websocket-protocol",
        "sec-websocket-version", "upgrade", "transfer-encoding",
    ]
    /// The payload hash of a body that is not hashed (a streamed one).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The longest a presigned URL may live, as AWS allows: seven days.
    public static let maximumExpiry = 604_800

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - credentials: the access key.
    ///   - region: the region.
    ///   - service: the service's signing name.
    ///   - normalizesPath: whether the path is normalised; `nil`: yes, except for service `s3`.
    ///   - signsPayload: whether `x-amz-content-sha256` is added; `nil`: only for service `s3`.
    ///   - signsSessionToken: whether the session token is signed.
    public init(
        credentials: AWSCredentials, region: String, service: String, normalizesPath: Bool? = nil,
        signsPayload: Bool? = nil, signsSessionToken: Bool = true
    ) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.normalizesPath = normalizesPath ?? (service != "s3")
        self.encodesPathTwice = service != "s3"
        self.signsPayload = signsPayload ?? (service == "s3")
        self.signsSessionToken = signsSessionToken
    }

    // MARK: - Region and service from the host

    /// The region and service an `*.amazonaws.com` host names, as curl guesses them for
    /// `--aws-sigv4` without them: `service.region.amazonaws.com`
    /// (`bucket.s3.us-west-2.amazonaws.com` too), `service.amazonaws.com` in `us-east-1`.
    ///
    /// - Returns: `nil` for a host outside `amazonaws.com`.
    public static func scope(forHost host: String) -> (region: String, service: String)? {
        let host = host.lowercased()
        guard let suffix = [".amazonaws.com", ".amazonaws.com.cn"].first(where: { host.hasSuffix($0) }) else {
            return nil
        }
        let labels = host.dropLast(suffix.count).split(separator: ".").map(String.init)
        guard let last = labels.last else { return nil }
        func isRegion(_ label: String) -> Bool {
            label.contains("-") && label.last?.isNumber == true && label.split(separator: "-").count >= 3
        }
        if isRegion(last), labels.count >= 2 { return (last, labels[labels.count - 2]) }
        return ("us-east-1", last)
    }

    // MARK: - Signing

    /// What was signed and how: the texts AWS's documentation names, for tests and for
    /// showing a user why a server refused a signature.
    public struct Signing: Sendable, Hashable {
        /// The signing time as `YYYYMMDDTHHMMSSZ`.
        public var timestamp: String
        /// `date/region/service/aws4_request`.
        public var credentialScope: String
        /// The signed header names, lowercase, `;`-separated.
        public var signedHeaders: String
        /// The canonical request.
        public var canonicalRequest: String
        /// The string to sign.
        public var stringToSign: String
        /// The signature, lowercase hex.
        public var signature: String
    }

    /// What the payload hash is made of.
    public enum Payload: Sendable, Hashable {
        /// A body in memory (empty for none): its SHA-256.
        case data(Data)
        /// A body that is streamed: `UNSIGNED-PAYLOAD`.
        case unsigned
        /// A hash given as it is (`UNSIGNED-PAYLOAD`, `STREAMING-…`, a precomputed one).
        case hash(String)

        var hash: String {
            switch self {
            case .data(let data): AWSSignatureV4.hex(SHA256.hash(data: data))
            case .unsigned: AWSSignatureV4.unsignedPayload
            case .hash(let hash): hash
            }
        }
    }

    /// Signs a request in its `Authorization` header: adds `X-Amz-Date`, `X-Amz-Security-Token`
    /// (with a session token) and `x-amz-content-sha256` (when `signsPayload`), replacing any of
    /// them the request had; then `Authorization`.
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - path: the path as it goes on the wire (percent-encoded), without the query.
    ///   - query: the query as it goes on the wire, without `?` (empty for none).
    ///   - headers: the headers that will be sent, `Host` among them.
    ///   - payload: the body.
    ///   - date: the signing time.
    /// - Returns: the headers to send, and what was signed.
    public func signedHeaders(
        method: String, path: String, query: String, headers: HTTPHeaders, payload: Payload, date: Date
    ) -> (headers: HTTPHeaders, signing: Signing) {
        var headers = headers
        for name in ["Authorization", "X-Amz-Date", "X-Amz-Security-Token", "x-amz-content-sha256"] {
            headers.remove(name: name)
        }
        let timestamp = Self.timestamp(date)
        headers.add(name: "X-Amz-Date", value: timestamp)
        if let token = credentials.sessionToken, signsSessionToken {
            headers.add(name: "X-Amz-Security-Token", value: token)
        }
        if signsPayload { headers.add(name: "x-amz-content-sha256", value: payload.hash) }
        let signing = sign(
            method: method, path: path, query: Self.queryPairs(query), headers: headers, payloadHash: payload.hash,
            timestamp: timestamp)
        if let token = credentials.sessionToken, !signsSessionToken {
            headers.add(name: "X-Amz-Security-Token", value: token)
        }
        headers.add(
            name: "Authorization",
            value: "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(signing.credentialScope), "
                + "SignedHeaders=\(signing.signedHeaders), Signature=\(signing.signature)")
        return (headers, signing)
    }

    /// Signs a request in its query (a presigned URL): the `X-Amz-*` query items, with
    /// `X-Amz-Expires`, then `X-Amz-Signature` last.
    ///
    /// - Parameters:
    ///   - method: the method the URL will be used with.
    ///   - path: the path as it goes on the wire, without the query.
    ///   - query: the query as it goes on the wire, without `?` (empty for none).
    ///   - headers: the headers the user of the URL will send, `Host` among them.
    ///   - payload: the body; S3 URLs are usually presigned with `.unsigned`.
    ///   - date: the signing time.
    ///   - expires: how long the URL is valid, in seconds (1 to `maximumExpiry`).
    /// - Returns: the query to send, without `?`, and what was signed.
    public func presignedQuery(
        method: String, path: String, query: String, headers: HTTPHeaders, payload: Payload, date: Date,
        expires: Int
    ) -> (query: String, signing: Signing) {
        var headers = headers
        for name in ["Authorization", "X-Amz-Date", "X-Amz-Security-Token", "x-amz-content-sha256"] {
            headers.remove(name: name)
        }
        let timestamp = Self.timestamp(date)
        let scope = credentialScope(timestamp)
        let names = canonicalHeaders(headers).map(\.name).joined(separator: ";")
        var added: [(String, String)] = [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope)"),
            ("X-Amz-Date", timestamp), ("X-Amz-SignedHeaders", names),
            ("X-Amz-Expires", String(min(max(expires, 1), Self.maximumExpiry))),
        ]
        if let token = credentials.sessionToken, signsSessionToken { added.append(("X-Amz-Security-Token", token)) }
        let forbidden: Set<String> = [
            "x-amz-signature", "x-amz-date", "x-amz-credential", "x-amz-algorithm", "x-amz-signedheaders",
            "x-amz-security-token", "x-amz-expires",
        ]
        let keptItems = query.split(separator: "&").map(String.init).filter { item in
            !forbidden.contains(String(item.prefix { $0 != "=" }).lowercased())
        }
        let kept = Self.queryPairs(keptItems.joined(separator: "&"))
        let signing = sign(
            method: method, path: path, query: kept + added, headers: headers, payloadHash: payload.hash,
            timestamp: timestamp)
        // The query's own items stay as written; the signing items are encoded.
        var pairs = added + [("X-Amz-Signature", signing.signature)]
        if let token = credentials.sessionToken, !signsSessionToken { pairs.append(("X-Amz-Security-Token", token)) }
        let text = (keptItems + pairs.map { Self.encode($0.0) + "=" + Self.encode($0.1) }).joined(separator: "&")
        return (text, signing)
    }

    /// Signs a prepared request in its headers, at its own `X-Amz-Date` or now.
    public func adapt(_ request: PreparedRequest) async throws -> PreparedRequest {
        try signed(request, payload: .data(request.body ?? Data()))
    }

    /// A prepared request signed in its headers: at its own `X-Amz-Date` when it has a valid
    /// one, else now; `Host` is its URL's. The signing headers stay with the origin on a redirect.
    ///
    /// - Throws: `AWSSignatureV4.Failure` for a URL without a host.
    public func signed(_ request: PreparedRequest, payload: Payload, now: Date = Date()) throws -> PreparedRequest {
        let (path, query, host) = try Self.parts(of: request.url)
        var headers = request.headers
        let date = headers["X-Amz-Date"].flatMap(Self.date(parsing:)) ?? now
        let addsHost = headers["Host"] == nil
        if addsHost { headers.add(name: "Host", value: host) }
        var signed = request
        signed.headers =
            signedHeaders(
                method: request.method.rawValue, path: path, query: query, headers: headers, payload: payload,
                date: date
            ).headers
        signed.originBoundHeaders.formUnion(["X-Amz-Date", "X-Amz-Security-Token", "x-amz-content-sha256"])
        // The Host signed is this origin's: another origin gets its own from the transport.
        if addsHost { signed.originBoundHeaders.insert("Host") }
        return signed
    }

    /// A presigned URL for a prepared request: valid for `expires` seconds from its own
    /// `X-Amz-Date` or now. Only `Host` (the request's own, else its URL's) and the request's
    /// headers whose names start with `x-amz-` are signed, so a browser or curl can use the URL alone.
    ///
    /// - Throws: `AWSSignatureV4.Failure` for a URL without a host.
    public func presignedURL(for request: PreparedRequest, expires: Int, now: Date = Date()) throws -> URL {
        let (path, query, host) = try Self.parts(of: request.url)
        let date = request.headers["X-Amz-Date"].flatMap(Self.date(parsing:)) ?? now
        var headers: HTTPHeaders = ["Host": request.headers["Host"] ?? host]
        for field in request.headers where field.name.lowercased().hasPrefix("x-amz-") {
            headers.add(name: field.name, value: field.value)
        }
        let payload: Payload = service == "s3" ? .unsigned : .data(request.body ?? Data())
        let signedQuery = presignedQuery(
            method: request.method.rawValue, path: path, query: query, headers: headers, payload: payload, date: date,
            expires: expires
        ).query
        guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
            throw Failure.noHost(request.url.absoluteString)
        }
        components.percentEncodedQuery = signedQuery
        guard let url = components.url else { throw Failure.noHost(request.url.absoluteString) }
        return url
    }

    /// Why a request could not be signed.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL has no host to sign.
        case noHost(String)

        public var description: String {
            switch self {
            case .noHost(let url): "\(url) has no host: an AWS signature signs the host"
            }
        }
    }

    // MARK: - The algorithm

    private func credentialScope(_ timestamp: String) -> String {
        "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
    }

    private func sign(
        method: String, path: String, query: [(String, String)], headers: HTTPHeaders, payloadHash: String,
        timestamp: String
    ) -> Signing {
        let canonical = canonicalHeaders(headers)
        let signedHeaders = canonical.map(\.name).joined(separator: ";")
        let canonicalQuery = Self.sortedPairs(
            query.map { pair -> (String, String) in
                (Self.encode(Self.decode(pair.0)), Self.encode(Self.decode(pair.1)))
            })
        let canonicalRequest = [
            method, canonicalPath(path), canonicalQuery,
            canonical.map { "\($0.name):\($0.value)\n" }.joined(), signedHeaders, payloadHash,
        ].joined(separator: "\n")
        let scope = credentialScope(timestamp)
        let stringToSign = [
            "AWS4-HMAC-SHA256", timestamp, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [String(timestamp.prefix(8)), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        let signature = Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
        return Signing(
            timestamp: timestamp, credentialScope: scope, signedHeaders: signedHeaders,
            canonicalRequest: canonicalRequest, stringToSign: stringToSign, signature: signature)
    }

    /// The signed headers: lowercase names in order, each with its values trimmed, inner runs
    /// of spaces (and folded lines) made one space, and a repeated name's values joined by `,`.
    private func canonicalHeaders(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        var values: [String: [String]] = [:]
        for field in headers {
            let name = field.name.lowercased()
            guard !Self.unsignedHeaders.contains(name) else { continue }
            let words = field.value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            values[name, default: []].append(words.joined(separator: " "))
        }
        return values.keys.sorted().map { ($0, values[$0]!.joined(separator: ",")) }
    }

    private func canonicalPath(_ path: String) -> String {
        var path = path.isEmpty ? "/" : path
        if normalizesPath {
            var segments: [Substring] = []
            for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
                if segment == "." { continue }
                if segment == ".." {
                    _ = segments.popLast()
                    continue
                }
                segments.append(segment)
            }
            let trailing = path.hasSuffix("/") && !segments.isEmpty
            path = "/" + segments.joined(separator: "/") + (trailing ? "/" : "")
        }
        guard encodesPathTwice else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { Self.encode(String($0)) }
            .joined(separator: "/")
    }

    // MARK: - Text

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// RFC 3986 percent-encoding of everything but the unreserved characters, as AWS wants.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    static func decode(_ text: String) -> String { text.removingPercentEncoding ?? text }

    /// Encoded pairs sorted by name, then value, as `name=value&…`.
    static func sortedPairs(_ pairs: [(String, String)]) -> String {
        let sorted = pairs.sorted { (lhs: (String, String), rhs: (String, String)) -> Bool in
            lhs.0 != rhs.0 ? lhs.0 < rhs.0 : lhs.1 < rhs.1
        }
        return sorted.map { pair -> String in pair.0 + "=" + pair.1 }.joined(separator: "&")
    }

    /// The query's `name=value` pairs as written (`+` is not a space here).
    static func queryPairs(_ query: String) -> [(String, String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            guard let equals = item.firstIndex(of: "=") else { return (String(item), "") }
            return (String(item[..<equals]), String(item[item.index(after: equals)...]))
        }
    }

    static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC.
    public static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
            parts.second!)
    }

    /// The time an `X-Amz-Date` value (`YYYYMMDDTHHMMSSZ`) names, or `nil` when it is not one.
    public static func date(parsing text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard components.isValidDate(in: calendar) else { return nil }
        return calendar.date(from: components)
    }

    /// A URL's path and query as they go on the wire, and its `Host` value.
    static func parts(of url: URL) throws -> (path: String, query: String, host: String) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.percentEncodedHost, !host.isEmpty
        else { throw Failure.noHost(url.absoluteString) }
        let defaultPort = components.scheme?.lowercased() == "https" ? 443 : 80
        let hostValue = components.port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host
        return (components.percentEncodedPath, components.percentEncodedQuery ?? "", hostValue)
    }
}
