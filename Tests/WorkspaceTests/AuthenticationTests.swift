import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// `auth:` in the collection format: read with errors at file:line:column, written back as
/// written, resolved nearest-first into headers, query items or digest credentials, masked.
@Suite struct AuthenticationTests {
    let yaml = """
        name: auth
        variables: { user: ada, password: "s3cret-pass" }
        auth: { type: bearer, token: "{{token}}" }
        environments:
          - name: local
            base_url: http://127.0.0.1:9/api
            variables: { token: collection-wide-token }
            secrets: [password]
          - name: keyed
            base_url: http://127.0.0.1:9/api
            variables: { key: "k-123456" }
            auth: { type: api_key, name: X-Key, value: "{{key}}", in: header }
        endpoints:
          - name: inherits
            path: /a
          - name: basic
            path: /b
            auth:
              type: basic
              username: "{{user}}"
              password: "{{password}}"
          - name: off
            path: /c
            auth: none
          - folder: Admin
            auth: { type: digest, username: "{{user}}", password: "{{password}}" }
            endpoints:
              - name: in folder
                path: /d
              - folder: Keys
                auth: { type: api_key, name: api_key, value: "qk-{{password}}", in: query }
                endpoints:
                  - name: deepest
                    path: /e
                    query: { page: "1" }
        """

    func resolve(_ name: String, environment: String = "local", _ text: String? = nil) throws -> ResolvedRequest {
        let collection = try CollectionLoader.parse(text ?? yaml, file: "auth.yaml")
        return try RequestResolver(processEnvironment: [:]).resolve(
            try collection.endpoint(named: name), in: collection,
            environment: collection.environment(named: environment))
    }

    @Test func theCollectionsAuthReachesAnEndpointWithoutOne() throws {
        let resolved = try resolve("inherits")
        #expect(resolved.request.headers["Authorization"] == "Bearer collection-wide-token")
        #expect(resolved.maskedHeaders["Authorization"] == "Bearer ••••••")
        #expect(resolved.digest == nil && resolved.oauth2 == nil)
    }

    @Test func theEnvironmentsAuthWinsOverTheCollections() throws {
        let resolved = try resolve("inherits", environment: "keyed")
        #expect(resolved.request.headers["X-Key"] == "k-123456")
        #expect(resolved.request.headers["Authorization"] == nil)
        #expect(resolved.maskedHeaders["X-Key"] == SecretMasker.mask)
    }

    @Test func anEndpointsBasicAuthIsExpandedAndMasked() throws {
        let resolved = try resolve("basic")
        #expect(
            resolved.request.headers["Authorization"] == "Basic " + Data("ada:s3cret-pass".utf8).base64EncodedString())
        #expect(resolved.masker.mask("echo s3cret-pass") == "echo ••••••")
        #expect(CurlExporter.command(for: resolved).contains("s3cret-pass") == false)
        #expect(
            CurlExporter.command(for: resolved).contains(Data("ada:s3cret-pass".utf8).base64EncodedString()) == false)
    }

    @Test func authNoneTurnsTheInheritedAuthOff() throws {
        let resolved = try resolve("off")
        #expect(resolved.request.headers["Authorization"] == nil)
        #expect(resolved.digest == nil && resolved.oauth2 == nil)
    }

    @Test func aFoldersDigestAuthGivesCredentialsForTheChallengeNotAHeader() throws {
        let resolved = try resolve("Admin/in folder")
        #expect(resolved.request.headers["Authorization"] == nil)
        #expect(resolved.digest == DigestCredentials(username: "ada", password: "s3cret-pass"))
        let curl = CurlExporter.command(for: resolved)
        #expect(curl.contains("--digest -u 'ada:••••••'"))
        #expect(CurlExporter.command(for: resolved, revealSecrets: true).contains("--digest -u ada:s3cret-pass"))
    }

    @Test func theInnermostFolderWinsAndAQueryKeyIsMaskedInTheURL() throws {
        let resolved = try resolve("Admin/Keys/deepest")
        #expect(resolved.url == "http://127.0.0.1:9/api/e?page=1&api_key=qk-s3cret-pass")
        #expect(resolved.request.queryItems.last == URLQueryItem(name: "api_key", value: "qk-s3cret-pass"))
        #expect(resolved.maskedURL == "http://127.0.0.1:9/api/e?page=1&api_key=••••••")
        #expect(resolved.digest == nil)
    }

    @Test func anEndpointHeaderWinsOverAnInheritedAuthButNotOverItsOwn() throws {
        let text = """
            name: h
            auth: { type: bearer, token: inherited }
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - { name: own header, path: /, headers: { Authorization: "Token mine" } }
              - { name: own auth, path: /, headers: { Authorization: "Token mine" }, auth: { type: bearer, token: "explicit" } }
            """
        #expect(try resolve("own header", environment: "e", text).request.headers["Authorization"] == "Token mine")
        #expect(try resolve("own auth", environment: "e", text).request.headers["Authorization"] == "Bearer explicit")
    }

    @Test func anUndefinedVariableInAuthNamesTheAuthsLine() throws {
        let text = """
            name: u
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: p
                path: /
                auth: { type: bearer, token: "{{missing}}" }
            """
        #expect {
            try resolve("p", environment: "e", text)
        } throws: { error in
            let sentence = String(describing: error)
            return sentence.contains("auth.yaml:6:") && sentence.contains("missing")
        }
    }

    @Test(arguments: [
        (
            "auth: { type: magic }", "auth.yaml:5:",
            "one of basic, bearer, digest, api_key, oauth2, aws_sigv4, oauth1, none (not \"magic\")"
        ),
        (
            "auth: { type: oauth2, grant: client_credential, token_url: t, client_id: c }", "auth.yaml:5:",
            "did you mean \"client_credentials\"?"
        ),
        ("auth: { type: oauth2, client_id: c, client_secret: s }", "auth.yaml:5:", "has no \"token_url\""),
        (
            "auth: { type: oauth2, grant: device_code, token_url: t, client_id: c }", "auth.yaml:5:",
            "has no \"device_authorization_url\""
        ),
        (
            "auth: { type: oauth2, grant: password, token_url: t, client_id: c, username: u }", "auth.yaml:5:",
            "has no \"password\""
        ),
        (
            "auth: { type: oauth2, token_url: t, client_id: c, client_secret: s, client_auth: header }", "auth.yaml:5:",
            "basic or body (not \"header\")"
        ),
        ("auth: { type: bearr, token: t }", "auth.yaml:5:", "did you mean \"bearer\"?"),
        ("auth: { type: basic }", "auth.yaml:5:", "has no \"username\""),
        ("auth: { type: digest, username: u }", "auth.yaml:5:", "has no \"password\""),
        ("auth: { type: api_key, name: k, value: v, in: cookie }", "auth.yaml:5:", "header or query (not \"cookie\")"),
        ("auth: [basic]", "auth.yaml:5:", "none, or a mapping with type"),
        ("auth: { token: t }", "auth.yaml:5:", "has no \"type\""),
    ])
    func malformedAuthIsAnErrorAtItsLineAndColumn(line: String, place: String, message: String) {
        let text = """
            name: bad
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: p
                \(line)
                path: /
            """
        #expect {
            try CollectionLoader.parse(text, file: "auth.yaml")
        } throws: { error in
            let sentence = String(describing: error)
            return sentence.hasPrefix(place) && sentence.contains(message)
        }
    }

    @Test func anUnknownKeyInAuthIsAWarningNamingIt() throws {
        let collection = try CollectionLoader.parse(
            """
            name: w
            auth: { type: bearer, token: t, tokn: x }
            endpoints: []
            """, file: "auth.yaml")
        #expect(
            collection.warnings.map(\.message).contains {
                $0.contains("unknown key \"tokn\" in the bearer auth of the collection")
            })
    }

    @Test func authIsWrittenBackAsWrittenAtEveryLevel() throws {
        let collection = try CollectionLoader.parse(yaml, file: "auth.yaml")
        let written = try CollectionWriter.yaml(for: collection)
        let reread = try CollectionLoader.parse(written, file: "again.yaml")

        #expect(reread == collection)
        #expect(written.contains("password: \"{{password}}\"") || written.contains("password: '{{password}}'"))
    }

    @Test func oauth2SettingsAreReadWrittenBackAndResolvedWithTheirSecretsMasked() throws {
        let text = """
            name: o
            # the client secret is a secret of the environment
            environments: [{ name: e, base_url: "http://127.0.0.1:9", variables: { secret: "client-s3cret" }, secrets: [secret] }]
            endpoints:
              - name: p
                path: /p
                auth:
                  type: oauth2
                  grant: authorization_code
                  token_url: "http://127.0.0.1:9/token"
                  authorization_url: "http://127.0.0.1:9/authorize"
                  redirect_port: "8765"
                  client_id: app
                  client_secret: "{{secret}}"
                  scope: read write
            """
        let collection = try CollectionLoader.parse(text, file: "o.yaml")
        let reread = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: "again.yaml")
        #expect(reread == collection)
        // Postman gets its own oauth2 auth, templates kept; the .http file has no OAuth2 to give.
        let postman = PostmanExporter.json(for: collection)
        #expect(postman.contains("\"authorization_code_with_pkce\"") && postman.contains("\"accessTokenUrl\""))
        #expect(postman.contains("{{secret}}") && !postman.contains("client-s3cret"))
        #expect(!HTTPFileExporter.text(for: collection, environment: nil).contains("client-s3cret"))
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            try collection.endpoint(named: "p"), in: collection)
        let configuration = try #require(resolved.oauth2)
        #expect(
            configuration.grant
                == .authorizationCode(
                    authorizationURL: URL(string: "http://127.0.0.1:9/authorize")!, redirectPort: 8765))
        #expect(configuration.clientSecret == "client-s3cret")
        #expect(configuration.scope == "read write")
        #expect(resolved.masker.mask("client-s3cret") == SecretMasker.mask)

        let badURL = try CollectionLoader.parse(
            text.replacingOccurrences(of: "http://127.0.0.1:9/token", with: "not a url"), file: "o.yaml")
        #expect(throws: (any Error).self) {
            try RequestResolver(processEnvironment: [:]).resolve(try badURL.endpoint(named: "p"), in: badURL)
        }
        do {
            _ = try RequestResolver(processEnvironment: [:]).resolve(try badURL.endpoint(named: "p"), in: badURL)
        } catch {
            #expect("\(error)".hasPrefix("o.yaml:8:"))
            #expect("\(error)".contains("token_url \"not a url\" is not an http(s) URL"))
        }
    }
}
