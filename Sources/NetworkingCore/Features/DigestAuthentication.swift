import Crypto
import Foundation

/// One `Digest` challenge of a `WWW-Authenticate` header (RFC 7616 §3.3).
public struct DigestChallenge: Sendable, Hashable {
    /// The hash algorithms this library answers, strongest first.
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case sha256 = "SHA-256"
        case sha256Session = "SHA-256-sess"
        case md5 = "MD5"
        case md5Session = "MD5-sess"

        /// Whether `HA1` also hashes the nonce and cnonce (the `-sess` variants).
        var isSession: Bool { self == .sha256Session || self == .md5Session }

        /// The lowercase hex digest of a text's UTF-8 bytes.
        func hash(_ text: String) -> String {
            let data = Data(text.utf8)
            switch self {
            case .sha256, .sha256Session: return Self.hex(SHA256.hash(data: data))
            case .md5, .md5Session: return Self.hex(Insecure.MD5.hash(data: data))
            }
        }

        private static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
            let digits = Array("0123456789abcdef".utf8)
            var out: [UInt8] = []
            for byte in digest {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The protection space, shown to users and hashed into `HA1`.
    public var realm: String
    /// The server's nonce.
    public var nonce: String
    /// Data the server wants back unchanged.
    public var opaque: String?
    /// The algorithm as the server wrote it (`MD5` when it wrote none).
    public var algorithmName: String
    /// The qualities of protection offered (`auth`, `auth-int`); empty for an RFC 2069 server.
    public var qop: [String]
    /// Whether the previous answer failed only because its nonce had expired.
    public var isStale: Bool
    /// Whether the server wants the username hashed (`userhash=true`).
    public var userhash: Bool

    /// The algorithm, when this library supports it.
    public var algorithm: Algorithm? {
        Algorithm.allCases.first { $0.rawValue.caseInsensitiveEquals(algorithmName) }
    }

    /// Whether this library can answer the challenge: a supported algorithm, and `qop=auth`
    /// offered (or no qop at all, as RFC 2069 servers do).
    public var isAnswerable: Bool { algorithm != nil && (qop.isEmpty || qop.contains("auth")) }

    /// Creates a challenge.
    public init(
        realm: String, nonce: String, opaque: String? = nil, algorithm: String = "MD5", qop: [String] = ["auth"],
        isStale: Bool = false, userhash: Bool = false
    ) {
        self.realm = realm
        self.nonce = nonce
        self.opaque = opaque
        self.algorithmName = algorithm
        self.qop = qop
        self.isStale = isStale
        self.userhash = userhash
    }

    /// The digest challenges in `WWW-Authenticate` values, in the server's order; other
    /// schemes (`Basic`, `Bearer` …) and digest challenges without a realm or nonce are skipped.
    ///
    /// - Parameter values: every `WWW-Authenticate` value of a response; one value may hold
    ///   several challenges (`Basic realm="a", Digest realm="b", nonce="…"`).
    public static func parse(_ values: [String]) -> [DigestChallenge] {
        values.flatMap(AuthenticationHeader.challenges).compactMap { scheme, parameters in
            guard scheme.caseInsensitiveEquals("Digest"), let realm = parameters["realm"],
                let nonce = parameters["nonce"]
            else { return nil }
            return DigestChallenge(
                realm: realm, nonce: nonce, opaque: parameters["opaque"], algorithm: parameters["algorithm"] ?? "MD5",
                qop: (parameters["qop"] ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }.filter { !$0.isEmpty },
                isStale: parameters["stale"]?.lowercased() == "true",
                userhash: parameters["userhash"]?.lowercased() == "true")
        }
    }

    /// The challenge to answer among several: the strongest supported algorithm, then the
    /// server's order.
    public static func preferred(among challenges: [DigestChallenge]) -> DigestChallenge? {
        let answerable = challenges.filter(\.isAnswerable)
        for algorithm in Algorithm.allCases {
            if let found = answerable.first(where: { $0.algorithm == algorithm }) { return found }
        }
        return nil
    }
}

/// A user name and password answering HTTP Digest challenges (RFC 7616: MD5, SHA-256 and
/// their `-sess` variants, `qop=auth`, nonce counts). The password never goes on the wire:
/// only hashes of it mixed with the server's nonce and a fresh client nonce.
///
/// ```swift
/// let digest = DigestAuthenticator(username: "Mufasa", password: "Circle of Life")
/// let dispatcher = NetworkDispatcher(serverProvider: server, challengeHandler: digest)
/// ```
///
/// The first request goes without credentials; its 401's challenge is answered once (twice
/// when the server says the nonce was `stale`). A wrong password yields the server's 401.
/// One authenticator counts its uses of each nonce (`nc`), so it may be shared by requests.
public final class DigestAuthenticator: AuthenticationChallengeHandler, Sendable {
    /// The user name.
    public let username: String
    private let password: String
    private let makeClientNonce: @Sendable () -> String
    private let nonceCounts = Locked<[String: Int]>([:])

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - username: the user name.
    ///   - password: the password.
    ///   - clientNonce: makes the `cnonce` of each answer (random 128 bits, hex, by default).
    public init(username: String, password: String, clientNonce: (@Sendable () -> String)? = nil) {
        self.username = username
        self.password = password
        self.makeClientNonce =
            clientNonce ?? {
                var generator = SystemRandomNumberGenerator()
                return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
            }
    }

    public func answer(_ challenge: ResponseHead, to request: PreparedRequest) throws -> PreparedRequest? {
        guard challenge.status.code == 401,
            let chosen = DigestChallenge.preferred(
                among: DigestChallenge.parse(challenge.headers.values(for: "WWW-Authenticate")))
        else { return nil }
        // Credentials already sent and refused: the password is wrong, unless only the nonce aged.
        let alreadyAnswered = request.headers["Authorization"].map { $0.lowercased().hasPrefix("digest ") } ?? false
        if alreadyAnswered && !chosen.isStale { return nil }
        let count = nonceCounts.withLock { counts -> Int in
            counts[chosen.nonce, default: 0] += 1
            return counts[chosen.nonce]!
        }
        var answered = request
        answered.headers["Authorization"] = authorization(
            for: chosen, method: request.method.rawValue, uri: Self.requestTarget(of: request.url),
            nonceCount: count, clientNonce: makeClientNonce())
        return answered
    }

    /// The `Authorization` value answering a challenge (RFC 7616 §3.4).
    ///
    /// - Parameters:
    ///   - challenge: the server's challenge; its algorithm must be supported.
    ///   - method: the request method.
    ///   - uri: the request target (`/path?query`), as sent on the request line.
    ///   - nonceCount: how many times this nonce has been used, this time included.
    ///   - clientNonce: the client's nonce.
    /// - Returns: `Digest username="…", realm="…", …, response="…"`.
    public func authorization(
        for challenge: DigestChallenge, method: String, uri: String, nonceCount: Int, clientNonce: String
    ) -> String {
        let algorithm = challenge.algorithm ?? .md5
        let hash = algorithm.hash
        var ha1 = hash("\(username):\(challenge.realm):\(password)")
        if algorithm.isSession { ha1 = hash("\(ha1):\(challenge.nonce):\(clientNonce)") }
        let ha2 = hash("\(method):\(uri)")
        let nc = String(nonceCount, radix: 16).leftPadded(to: 8)
        let usesQop = !challenge.qop.isEmpty
        let response =
            usesQop
            ? hash("\(ha1):\(challenge.nonce):\(nc):\(clientNonce):auth:\(ha2)")
            : hash("\(ha1):\(challenge.nonce):\(ha2)")
        let user = challenge.userhash ? hash("\(username):\(challenge.realm)") : username
        var parts = [
            "username=\(Self.quoted(user))", "realm=\(Self.quoted(challenge.realm))", "uri=\(Self.quoted(uri))",
            "algorithm=\(challenge.algorithmName)", "nonce=\(Self.quoted(challenge.nonce))",
        ]
        if usesQop { parts += ["nc=\(nc)", "cnonce=\(Self.quoted(clientNonce))", "qop=auth"] }
        parts.append("response=\(Self.quoted(response))")
        if let opaque = challenge.opaque { parts.append("opaque=\(Self.quoted(opaque))") }
        if challenge.userhash { parts.append("userhash=true") }
        return "Digest " + parts.joined(separator: ", ")
    }

    /// The request target of a URL as it goes on the request line: the percent-encoded path
    /// (`/` when empty) and query.
    static func requestTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// Reads the `auth-scheme` and `auth-param` syntax of `WWW-Authenticate` and `Authorization`
/// values (RFC 9110 §11): a scheme, then `name=token` or `name="quoted string"` parameters;
/// a `WWW-Authenticate` value may hold several challenges separated by commas.
package enum AuthenticationHeader {
    /// The schemes of a value, each with its parameters (names lowercased, quotes removed).
    ///
    /// - Parameter value: a `WWW-Authenticate` or `Authorization` value.
    /// - Returns: `[("Digest", ["realm": "…", "nonce": "…"])]`, in order.
    package static func challenges(in value: String) -> [(scheme: String, parameters: [String: String])] {
        var out: [(scheme: String, parameters: [String: String])] = []
        var characters = Substring(value)
        func skip(_ set: Set<Character>) {
            while let first = characters.first, set.contains(first) { characters.removeFirst() }
        }
        func token() -> String {
            let end = characters.firstIndex { $0 == " " || $0 == "\t" || $0 == "," || $0 == "=" } ?? characters.endIndex
            defer { characters = characters[end...] }
            return String(characters[..<end])
        }
        while !characters.isEmpty {
            skip([" ", "\t", ","])
            let name = token()
            guard !name.isEmpty else {
                if !characters.isEmpty { characters.removeFirst() }
                continue
            }
            skip([" ", "\t"])
            guard characters.first == "=", !out.isEmpty else {
                out.append((name, [:]))
                continue
            }
            characters.removeFirst()
            skip([" ", "\t"])
            var value = ""
            if characters.first == "\"" {
                characters.removeFirst()
                while let next = characters.first {
                    characters.removeFirst()
                    if next == "\"" { break }
                    if next == "\\", let escaped = characters.first {
                        characters.removeFirst()
                        value.append(escaped)
                    } else {
                        value.append(next)
                    }
                }
            } else {
                let end = characters.firstIndex { $0 == "," || $0 == " " || $0 == "\t" } ?? characters.endIndex
                value = String(characters[..<end])
                characters = characters[end...]
            }
            out[out.count - 1].parameters[name.lowercased()] = value
        }
        return out
    }
}

extension String {
    /// The text with `0`s in front up to `width` characters.
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
