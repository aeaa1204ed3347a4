import Crypto
import Foundation
import _CryptoExtras

/// OAuth 1.0a request signing (RFC 5849): HMAC-SHA1, HMAC-SHA256, RSA-SHA256 and PLAINTEXT,
/// the protocol parameters in the `Authorization` header, the query or a form body.
///
/// ```swift
/// let signer = OAuth1Signer(consumerKey: "key", consumerSecret: "secret", token: "t", tokenSecret: "ts")
/// let dispatcher = NetworkDispatcher(serverProvider: server, requestAdapters: [signer])
/// ```
///
/// As a `RequestAdapter` it signs each request just before it is sent (put it last), with a
/// fresh nonce and the current time unless `nonce` and `timestamp` are fixed.
public struct OAuth1Signer: RequestAdapter, Sendable, Hashable {
    /// How the signature is made (RFC 5849 §3.4).
    public enum SignatureMethod: String, Sendable, Hashable, CaseIterable {
        case hmacSHA1 = "HMAC-SHA1"
        case hmacSHA256 = "HMAC-SHA256"
        case rsaSHA256 = "RSA-SHA256"
        case plaintext = "PLAINTEXT"
    }

    /// Where the protocol parameters go (RFC 5849 §3.5).
    public enum Placement: String, Sendable, Hashable, CaseIterable {
        /// `Authorization: OAuth …`.
        case header
        /// Query items of the URL.
        case query
        /// Fields of an `application/x-www-form-urlencoded` body.
        case body
    }

    /// The client identifier.
    public var consumerKey: String
    /// The client shared secret (empty for RSA-SHA256).
    public var consumerSecret: String
    /// The token (`oauth_token`), if any.
    public var token: String?
    /// The token shared secret.
    public var tokenSecret: String
    /// The signature method.
    public var method: SignatureMethod
    /// The PEM RSA private key of RSA-SHA256.
    public var privateKeyPEM: String?
    /// The `realm` of the `Authorization` header (not signed).
    public var realm: String?
    /// Where the protocol parameters go.
    public var placement: Placement
    /// `oauth_callback`, for a temporary-credentials request.
    public var callback: String?
    /// `oauth_verifier`, for a token request.
    public var verifier: String?
    /// A fixed `oauth_nonce` (tests); a fresh one per request when `nil`.
    public var nonce: String?
    /// A fixed `oauth_timestamp` (tests); the current time when `nil`.
    public var timestamp: String?
    /// Whether `oauth_version="1.0"` is sent (it is optional, RFC 5849 §3.1).
    public var includesVersion = true

    /// Creates a signer.
    public init(
        consumerKey: String, consumerSecret: String = "", token: String? = nil, tokenSecret: String = "",
        method: SignatureMethod = .hmacSHA1, privateKeyPEM: String? = nil, realm: String? = nil,
        placement: Placement = .header, callback: String? = nil, verifier: String? = nil, nonce: String? = nil,
        timestamp: String? = nil
    ) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
        self.method = method
        self.privateKeyPEM = privateKeyPEM
        self.realm = realm
        self.placement = placement
        self.callback = callback
        self.verifier = verifier
        self.nonce = nonce
        self.timestamp = timestamp
    }

    /// Why a request could not be signed.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The RSA private key is missing or not a PEM RSA key.
        case invalidPrivateKey(String)
        /// `placement` is `.body` but the request has no form body.
        case notAFormBody
        /// The URL has no host.
        case noHost(String)

        public var description: String {
            switch self {
            case .invalidPrivateKey(let reason): "the RSA-SHA256 private key cannot be used: \(reason)"
            case .notAFormBody:
                "OAuth 1.0a parameters go in the body only with an application/x-www-form-urlencoded body"
            case .noHost(let url): "\(url) has no host to sign"
            }
        }
    }

    /// What was signed and how.
    public struct Signing: Sendable, Hashable {
        /// The protocol parameters sent, `oauth_signature` last.
        public var parameters: [(name: String, value: String)]
        /// The signature base string (RFC 5849 §3.4.1); empty for PLAINTEXT.
        public var baseString: String
        /// The signature.
        public var signature: String

        public static func == (lhs: Signing, rhs: Signing) -> Bool {
            lhs.baseString == rhs.baseString && lhs.signature == rhs.signature
                && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
                && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(baseString)
            hasher.combine(signature)
        }
    }

    // MARK: - Signing

    /// The protocol parameters of one request, before the signature: the fixed or fresh nonce
    /// and timestamp.
    public func protocolParameters(now: Date = Date()) -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = [("oauth_consumer_key", consumerKey)]
        if let token, !token.isEmpty { parameters.append(("oauth_token", token)) }
        parameters.append(("oauth_signature_method", method.rawValue))
        parameters.append(("oauth_timestamp", timestamp ?? String(Int(now.timeIntervalSince1970))))
        parameters.append(("oauth_nonce", nonce ?? Self.freshNonce()))
        if includesVersion { parameters.append(("oauth_version", "1.0")) }
        if let callback { parameters.append(("oauth_callback", callback)) }
        if let verifier { parameters.append(("oauth_verifier", verifier)) }
        return parameters
    }

    /// The signature base string (RFC 5849 §3.4.1): the method, the base string URI and the
    /// normalised parameters (the query's, a form body's and the protocol's), each encoded.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - url: the request URL, query included.
    ///   - formBody: an `application/x-www-form-urlencoded` body, if the request has one.
    ///   - parameters: the protocol parameters (without `oauth_signature` and `realm`).
    /// - Throws: `Failure.noHost`.
    public static func baseString(
        method: String, url: URL, formBody: String?, parameters: [(name: String, value: String)]
    ) throws -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let host = components.percentEncodedHost, !host.isEmpty
        else { throw Failure.noHost(url.absoluteString) }
        let scheme = (components.scheme ?? "http").lowercased()
        var baseURI = "\(scheme)://\(host.lowercased())"
        if let port = components.port, port != (scheme == "https" ? 443 : 80) { baseURI += ":\(port)" }
        baseURI += components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        var pairs = formPairs(components.percentEncodedQuery ?? "")
        if let formBody { pairs += formPairs(formBody) }
        pairs += parameters.map { ($0.name, $0.value) }
        let normalized = normalizedParameters(pairs)
        return [method.uppercased(), encode(baseURI), encode(normalized)].joined(separator: "&")
    }

    /// The normalised parameters of a base string (RFC 5849 §3.4.1.3.2): each name and value
    /// encoded, sorted by name then value, joined as `name=value&…`.
    ///
    /// - Parameter pairs: the decoded names and values.
    public static func normalizedParameters(_ pairs: [(String, String)]) -> String {
        AWSSignatureV4.sortedPairs(pairs.map { pair -> (String, String) in (encode(pair.0), encode(pair.1)) })
    }

    /// Signs a request: its protocol parameters, base string and signature.
    ///
    /// - Throws: `Failure`.
    public func signing(method: String, url: URL, formBody: String?, now: Date = Date()) throws -> Signing {
        let parameters = protocolParameters(now: now)
        let key = Self.encode(consumerSecret) + "&" + Self.encode(tokenSecret)
        if self.method == .plaintext {
            return Signing(parameters: parameters + [("oauth_signature", key)], baseString: "", signature: key)
        }
        let base = try Self.baseString(method: method, url: url, formBody: formBody, parameters: parameters)
        let signature = try self.signature(ofBaseString: base)
        return Signing(
            parameters: parameters + [("oauth_signature", signature)], baseString: base, signature: signature)
    }

    /// The signature of a base string with this signer's method and secrets (the key of
    /// PLAINTEXT, which signs no base string).
    ///
    /// - Throws: `Failure.invalidPrivateKey` for RSA-SHA256 without a usable key.
    public func signature(ofBaseString base: String) throws -> String {
        let key = SymmetricKey(data: Data((Self.encode(consumerSecret) + "&" + Self.encode(tokenSecret)).utf8))
        switch method {
        case .hmacSHA1:
            return Data(HMAC<Insecure.SHA1>.authenticationCode(for: Data(base.utf8), using: key)).base64EncodedString()
        case .hmacSHA256:
            return Data(HMAC<SHA256>.authenticationCode(for: Data(base.utf8), using: key)).base64EncodedString()
        case .rsaSHA256:
            guard let pem = privateKeyPEM, !pem.isEmpty else { throw Failure.invalidPrivateKey("none is given") }
            do {
                let privateKey = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
                return try privateKey.signature(for: Data(base.utf8), padding: .insecurePKCS1v1_5)
                    .rawRepresentation.base64EncodedString()
            } catch {
                throw Failure.invalidPrivateKey("it is not a PEM RSA private key of 2048 bits or more (\(error))")
            }
        case .plaintext:
            return Self.encode(consumerSecret) + "&" + Self.encode(tokenSecret)
        }
    }

    /// The `Authorization` header value of a signing: `OAuth realm="…", oauth_…="…"`.
    public func authorization(_ signing: Signing) -> String {
        var items: [String] = []
        if let realm { items.append("realm=\"\(Self.encode(realm))\"") }
        items += signing.parameters.map { "\(Self.encode($0.name))=\"\(Self.encode($0.value))\"" }
        return "OAuth " + items.joined(separator: ", ")
    }

    /// Signs a prepared request just before it is sent.
    public func adapt(_ request: PreparedRequest) async throws -> PreparedRequest {
        try signed(request)
    }

    /// A prepared request signed where `placement` says.
    ///
    /// - Throws: `Failure`.
    public func signed(_ request: PreparedRequest, now: Date = Date()) throws -> PreparedRequest {
        let isForm =
            request.headers["Content-Type"].map {
                $0.lowercased().hasPrefix("application/x-www-form-urlencoded")
            } ?? false
        let formBody = isForm ? request.body.map { String(decoding: $0, as: UTF8.self) } : nil
        if placement == .body && formBody == nil && request.body?.isEmpty == false { throw Failure.notAFormBody }
        let signing = try self.signing(method: request.method.rawValue, url: request.url, formBody: formBody, now: now)
        var signed = request
        let encoded = signing.parameters.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(
            separator: "&")
        switch placement {
        case .header:
            signed.headers.replaceOrAdd(name: "Authorization", value: authorization(signing))
        case .query:
            guard var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
                throw Failure.noHost(request.url.absoluteString)
            }
            let query = components.percentEncodedQuery ?? ""
            components.percentEncodedQuery = query.isEmpty ? encoded : query + "&" + encoded
            guard let url = components.url else { throw Failure.noHost(request.url.absoluteString) }
            signed.url = url
        case .body:
            let body = formBody ?? ""
            signed.body = Data((body.isEmpty ? encoded : body + "&" + encoded).utf8)
            if !isForm { signed.headers.replaceOrAdd(name: "Content-Type", value: "application/x-www-form-urlencoded") }
            if signed.headers["Content-Length"] != nil {
                signed.headers.replaceOrAdd(name: "Content-Length", value: String(signed.body?.count ?? 0))
            }
        }
        return signed
    }

    // MARK: - Text

    /// A form-encoded text's pairs, decoded (`+` is a space, RFC 5849 §3.4.1.3.1).
    public static func formPairs(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { item in
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            guard let equals = item.firstIndex(of: "=") else { return (decode(item), "") }
            return (decode(item[..<equals]), decode(item[item.index(after: equals)...]))
        }
    }

    /// RFC 5849 §3.6 percent-encoding: everything but the unreserved characters.
    public static func encode(_ text: String) -> String { AWSSignatureV4.encode(text) }

    private static func freshNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.joined()
    }
}
