import Foundation
import Testing

@testable import NetworkingCore

/// `OAuth2Client`'s interactive grants against a real authorization server on 127.0.0.1
/// (`TestServer+OAuth2`): the library's own test of what the explorer's `auth: oauth2` uses.
@Suite struct OAuth2ClientTests {
    /// A browser: opens the URL the client asks for and follows its redirects, as far as the
    /// client's redirect listener.
    static func browser(_ prompt: OAuth2Prompt) {
        guard case .openURL(let url) = prompt else { return }
        Task {
            let request = PreparedRequest(method: .get, url: url, headers: [:], body: nil)
            _ = try? await sharedTransport.send(request, options: TransferOptions()) { _ in }
        }
    }

    func client(_ server: TestServer, _ grant: OAuth2Configuration.Grant, scope: String? = nil) -> OAuth2Client {
        let configuration = OAuth2Configuration(
            grant: grant, tokenURL: server.baseURL.appendingPathComponent("oauth/token"), clientID: "explorer",
            scope: scope)
        return OAuth2Client(configuration: configuration, transport: sharedTransport, interactionTimeout: .seconds(30))
    }

    @Test func theAuthorizationCodeGrantSendsAVerifierTheServerChecksAgainstItsChallenge() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let authorize = server.baseURL.appendingPathComponent("oauth/authorize")
        let token = try await client(server, .authorizationCode(authorizationURL: authorize, redirectPort: nil))
            .obtainToken(prompt: Self.browser)
        #expect(token.accessToken == "code-token")
        #expect(token.refreshToken == "refresh-1")
        #expect(token.isFresh())
        #expect(server.hits("/oauth/authorize") == 1)
    }

    @Test func aRefusalAndAForgedStateAreErrorsThatSaySo() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let denied = URL(string: server.baseURL.absoluteString + "/oauth/authorize?deny=1")!
        let refusal = await #expect(throws: OAuth2Error.self) {
            try await client(server, .authorizationCode(authorizationURL: denied, redirectPort: nil)).obtainToken(
                prompt: Self.browser)
        }
        #expect(refusal?.kind == .authorizationDenied(code: "access_denied", description: "the user said no"))

        let forged = URL(string: server.baseURL.absoluteString + "/oauth/authorize?forge=1")!
        let mismatch = await #expect(throws: OAuth2Error.self) {
            try await client(server, .authorizationCode(authorizationURL: forged, redirectPort: nil)).obtainToken(
                prompt: Self.browser)
        }
        #expect(mismatch?.kind == .stateMismatch)
        #expect(server.hits("/oauth/token") == 0)
    }

    @Test func theDeviceGrantShowsTheCodeThenPollsUntilTheUserHasSignedIn() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let shown = Counter()
        let device = server.baseURL.appendingPathComponent("oauth/device")
        let token = try await client(server, .deviceCode(deviceAuthorizationURL: device)).obtainToken { prompt in
            if case .enterCode(let userCode, let verification, _, _) = prompt, userCode == "ABCD-EFGH",
                verification.path == "/oauth/verify"
            {
                shown.add("codes", 1)
            }
        }
        #expect(token.accessToken == "device-token")
        #expect(shown.value("codes") == 1)
        // The first poll was told to wait; the second got the token.
        #expect(server.hits("/oauth/token") == 2)

        let refused = await #expect(throws: OAuth2Error.self) {
            try await client(server, .deviceCode(deviceAuthorizationURL: device), scope: "deny").obtainToken { _ in }
        }
        guard case .server(400, "access_denied", _)? = refused?.kind else {
            Issue.record("expected access_denied, got \(String(describing: refused))")
            return
        }
    }
}
