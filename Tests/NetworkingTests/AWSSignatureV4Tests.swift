import Foundation
import Networking
import Testing

/// `AWSSignatureV4` against the AWS signing test suite (`Tests/Fixtures/aws-sigv4/`, from
/// awslabs/aws-c-auth): every case, signed in its headers and in its query, checked at each step
/// (canonical request, string to sign, signature) and in the `Authorization` header sent.
@Suite struct AWSSignatureV4Tests {
    /// One case of the suite: its request as written (path and query as on the wire) and its
    /// `context.json`.
    struct SuiteCase: CustomTestStringConvertible, Sendable {
        var name: String
        var folder: URL
        var method: String
        var path: String
        var query: String
        var headers: HTTPHeaders
        var body: Data
        var signer: AWSSignatureV4
        var date: Date
        var expires: Int

        var testDescription: String { name }

        func expected(_ file: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
    }

    static let suiteFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/aws-sigv4")

    static func suiteCases() throws -> [SuiteCase] {
        let names = try FileManager.default.contentsOfDirectory(atPath: suiteFolder.path).filter {
            FileManager.default.fileExists(atPath: suiteFolder.appendingPathComponent("\($0)/request.txt").path)
        }.sorted()
        return try names.map { name in try suiteCase(name) }
    }

    struct Context: Decodable {
        struct Credentials: Decodable {
            var access_key_id: String
            var secret_access_key: String
            var token: String?
        }
        var credentials: Credentials
        var expiration_in_seconds: Int
        var normalize: Bool
        var region: String
        var service: String
        var sign_body: Bool
        var timestamp: String
        var omit_session_token: Bool?
    }

    static func suiteCase(_ name: String) throws -> SuiteCase {
        let folder = suiteFolder.appendingPathComponent(name)
        let context = try JSONDecoder().decode(
            Context.self, from: Data(contentsOf: folder.appendingPathComponent("context.json")))
        let text = try String(contentsOf: folder.appendingPathComponent("request.txt"), encoding: .utf8)
        let (head, body) =
            text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) }
            ?? (text, "")
        var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst()
        let method = String(requestLine.prefix { $0 != " " })
        let target = String(requestLine.dropFirst(method.count + 1).dropLast(" HTTP/1.1".count))
        let (path, query) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, "")
        var fields: [(String, String)] = []
        for line in lines where !line.isEmpty {
            if line.first == " " || line.first == "\t", !fields.isEmpty {
                fields[fields.count - 1].1 += "\n" + line
            } else if let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let signer = AWSSignatureV4(
            credentials: AWSCredentials(
                accessKeyID: context.credentials.access_key_id,
                secretAccessKey: context.credentials.secret_access_key, sessionToken: context.credentials.token),
            region: context.region, service: context.service, normalizesPath: context.normalize,
            signsPayload: context.sign_body, signsSessionToken: !(context.omit_session_token ?? false))
        let date = try #require(ISO8601DateFormatter().date(from: context.timestamp))
        return SuiteCase(
            name: name, folder: folder, method: method, path: path, query: query, headers: HTTPHeaders(fields),
            body: Data(body.utf8), signer: signer, date: date, expires: context.expiration_in_seconds)
    }

    @Test func theSuiteHasItsThirtyEightCases() throws {
        #expect(try Self.suiteCases().count == 38)
    }

    @Test(arguments: try suiteCases())
    func headerSigningGivesTheSuitesCanonicalRequestStringToSignAndSignature(_ suite: SuiteCase) throws {
        let (headers, signing) = suite.signer.signedHeaders(
            method: suite.method, path: suite.path, query: suite.query, headers: suite.headers,
            payload: .data(suite.body), date: suite.date)
        #expect(signing.canonicalRequest == (try suite.expected("header-canonical-request.txt")))
        #expect(signing.stringToSign == (try suite.expected("header-string-to-sign.txt")))
        #expect(signing.signature == (try suite.expected("header-signature.txt")))
        let signedRequest = try suite.expected("header-signed-request.txt")
        let authorization = signedRequest.split(separator: "\n").first { $0.hasPrefix("Authorization:") }
        #expect(authorization.map { String($0.dropFirst("Authorization:".count)) } == headers["Authorization"])
    }

    @Test(arguments: try suiteCases())
    func querySigningGivesTheSuitesCanonicalRequestStringToSignAndSignature(_ suite: SuiteCase) throws {
        let (query, signing) = suite.signer.presignedQuery(
            method: suite.method, path: suite.path, query: suite.query, headers: suite.headers,
            payload: .data(suite.body), date: suite.date, expires: suite.expires)
        #expect(signing.canonicalRequest == (try suite.expected("query-canonical-request.txt")))
        #expect(signing.stringToSign == (try suite.expected("query-string-to-sign.txt")))
        #expect(signing.signature == (try suite.expected("query-signature.txt")))
        // The signed request's query holds the same items (the suite orders them its own way).
        let signedLine = try suite.expected("query-signed-request.txt").split(separator: "\n")[0]
        let method = signedLine.prefix { $0 != " " }
        let target = signedLine.dropFirst(method.count + 1).dropLast(" HTTP/1.1".count)
        let expectedItems = target.split(separator: "?", maxSplits: 1).last.map {
            Set($0.split(separator: "&").map(String.init))
        }
        #expect(Set(query.split(separator: "&").map(String.init)) == expectedItems)
    }

    // MARK: - Prepared requests

    static let vanilla = AWSSignatureV4(
        credentials: AWSCredentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")

    @Test func aRequestIsSignedAtItsOwnXAmzDate() throws {
        let request = PreparedRequest(
            url: URL(string: "https://example.amazonaws.com/")!, headers: ["X-Amz-Date": "20150830T123600Z"])
        let signed = try Self.vanilla.signed(request, payload: .data(Data()), now: Date(timeIntervalSince1970: 0))
        #expect(
            signed.headers["Authorization"]
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=host;x-amz-date, "
                + "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31")
        #expect(signed.headers.values(for: "X-Amz-Date") == ["20150830T123600Z"])
        #expect(signed.originBoundHeaders.contains("X-Amz-Date"))
    }

    @Test func aRequestWithoutXAmzDateIsSignedNow() throws {
        let request = PreparedRequest(url: URL(string: "https://example.amazonaws.com/")!)
        let now = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
        let signed = try Self.vanilla.signed(request, payload: .data(Data()), now: now)
        #expect(signed.headers["X-Amz-Date"] == "20150830T123600Z")
        #expect(
            signed.headers["Authorization"]?.hasSuffix(
                "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31") == true)
    }

    @Test func s3SignsThePayloadAndKeepsThePathAsWritten() throws {
        let signer = AWSSignatureV4(
            credentials: AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret"), region: "eu-west-1",
            service: "s3")
        #expect(!signer.normalizesPath && signer.signsPayload && !signer.encodesPathTwice)
        let (headers, signing) = signer.signedHeaders(
            method: "PUT", path: "/bucket//a/../key%20name", query: "", headers: ["Host": "s3.amazonaws.com"],
            payload: .unsigned, date: Date(timeIntervalSince1970: 0))
        #expect(headers["x-amz-content-sha256"] == "UNSIGNED-PAYLOAD")
        #expect(signing.canonicalRequest.split(separator: "\n")[1] == "/bucket//a/../key%20name")
        #expect(signing.signedHeaders == "host;x-amz-content-sha256;x-amz-date")
    }

    @Test func aPresignedURLCarriesTheExpiryAndTheSignatureLast() throws {
        let request = PreparedRequest(
            url: URL(string: "https://example.amazonaws.com/?a=b")!, headers: ["X-Amz-Date": "20150830T123600Z"])
        let url = try Self.vanilla.presignedURL(for: request, expires: 600)
        let query = try #require(url.query)
        #expect(query.hasPrefix("a=b&X-Amz-Algorithm=AWS4-HMAC-SHA256&"))
        #expect(query.contains("X-Amz-Expires=600"))
        #expect(query.contains("X-Amz-Date=20150830T123600Z"))
        #expect(query.split(separator: "&").last?.hasPrefix("X-Amz-Signature=") == true)
        let tooLong = try Self.vanilla.presignedURL(for: request, expires: 10_000_000)
        #expect(tooLong.query?.contains("X-Amz-Expires=604800") == true)
    }

    /// A signed request reaches a real server with the signature the server can check (the
    /// server's view of the request signed again gives the same `Authorization`), and a
    /// redirect to another origin (another port) carries no signature and no session token.
    @Test func aSignedRequestArrivesAndARedirectToAnotherOriginCarriesNoSignature() async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        defer {
            Task {
                await first.stop()
                await second.stop()
            }
        }
        var signer = Self.vanilla
        signer.credentials.sessionToken = "session-token"
        let dispatcher = NetworkDispatcher(
            serverProvider: first.environment, transport: sharedTransport, requestAdapters: [signer])

        let direct = try await dispatcher.future(
            from: BasicRequest(
                method: .post, path: "/echo", headers: ["X-Amz-Date": "20150830T123600Z"], httpBody: Data("hi".utf8))
        ).ensureValidResponse().value
        let echo = try JSONDecoder().decode(Echo.self, from: try #require(direct.body))
        let host = try #require(echo.header("Host"))
        let (expected, _) = signer.signedHeaders(
            method: "POST", path: "/echo", query: "",
            headers: ["Host": host, "X-Amz-Date": "20150830T123600Z"], payload: .data(Data("hi".utf8)),
            date: try #require(AWSSignatureV4.date(parsing: "20150830T123600Z")))
        #expect(echo.header("Authorization") == expected["Authorization"])
        #expect(echo.header("X-Amz-Security-Token") == "session-token")

        let redirected = try await dispatcher.future(
            from: BasicRequest(
                path: "/redirect-to",
                queryItems: [
                    URLQueryItem(name: "url", value: second.baseURL.appendingPathComponent("echo").absoluteString)
                ])
        ).ensureValidResponse().value
        let elsewhere = try JSONDecoder().decode(Echo.self, from: try #require(redirected.body))
        #expect(redirected.url.port == second.port)
        #expect(elsewhere.header("Host") == "127.0.0.1:\(second.port)")
        for name in ["Authorization", "X-Amz-Security-Token", "X-Amz-Date"] {
            #expect(elsewhere.header(name) == nil, "\(name) reached the other origin")
        }
    }

    @Test func regionAndServiceAreGuessedFromAnAmazonawsHost() {
        #expect(AWSSignatureV4.scope(forHost: "sqs.eu-west-2.amazonaws.com")! == ("eu-west-2", "sqs"))
        #expect(AWSSignatureV4.scope(forHost: "bucket.s3.us-west-2.amazonaws.com")! == ("us-west-2", "s3"))
        #expect(
            AWSSignatureV4.scope(forHost: "abc123.execute-api.ap-south-1.amazonaws.com")! == (
                "ap-south-1", "execute-api"
            ))
        #expect(AWSSignatureV4.scope(forHost: "iam.amazonaws.com")! == ("us-east-1", "iam"))
        #expect(AWSSignatureV4.scope(forHost: "bucket.s3.amazonaws.com")! == ("us-east-1", "s3"))
        #expect(AWSSignatureV4.scope(forHost: "example.com") == nil)
    }

    @Test func anXAmzDateIsReadOnlyInItsOwnForm() {
        #expect(AWSSignatureV4.date(parsing: "20150830T123600Z") == Date(timeIntervalSince1970: 1_440_938_160))
        #expect(AWSSignatureV4.date(parsing: "2015-08-30T12:36:00Z") == nil)
        #expect(AWSSignatureV4.date(parsing: "20151330T123600Z") == nil)
    }
}
