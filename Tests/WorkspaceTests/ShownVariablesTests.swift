import Foundation
import Testing

@testable import Workspace

/// The variables an environment offers, as the variables view lists them: captured values
/// first (they win over the file's), each with where it came from, secrets masked.
@Suite struct ShownVariablesTests {
    private let collection = """
        name: Shop
        variables: { page_size: "20", greeting: "hello {{user}}" }
        environments:
          - name: local
            base_url: http://127.0.0.1:8080
            variables: { user: ada, token: from-the-file, auth: "Bearer {{token}}" }
        endpoints:
          - name: Ping
            path: /ping
        """

    @Test func capturedValuesComeFirstWithTheirEndpointAndTimeAndHideTheFilesValue() throws {
        let environment = try #require(
            try CollectionLoader.parse(collection, file: "shop.yaml").environment(named: "local"))
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let shown = environment.shownVariables(
            captured: [
                "token": CapturedVariable(value: "tok-123", endpoint: "Auth/Login", capturedAt: at, isSecret: true),
                "order": CapturedVariable(value: "42", endpoint: "Orders/Create", capturedAt: at, isSecret: false),
            ], processEnvironment: [:])
        #expect(shown.map(\.name) == ["order", "token", "user", "auth", "page_size", "greeting"])
        #expect(shown[0].value == "42" && shown[0].origin == .captured(endpoint: "Orders/Create", at: at))
        #expect(shown[1].value == SecretMasker.mask && shown[1].isSecret, "a secret capture is masked")
        #expect(shown.first { $0.name == "user" }?.origin == .environment)
        #expect(shown.first { $0.name == "page_size" }?.origin == .collection)
        #expect(shown.first { $0.name == "greeting" }?.value == "hello ada")
        let auth = try #require(shown.first { $0.name == "auth" })
        #expect(auth.value == SecretMasker.mask, "a value holding a captured secret is masked too")
        #expect(!shown.map(\.value).contains { $0.contains("tok-123") || $0.contains("from-the-file") })
    }

    /// A captured token stays with the server that gave it: after the environment's
    /// `base_url` moves to another server, the request says so instead of sending it there.
    @Test func aCapturedValueIsNotSentToAnotherServerThanTheOneItWasCapturedFrom() throws {
        let yaml = """
            name: Shop
            environments: [{ name: local, base_url: "http://127.0.0.1:8080" }]
            endpoints:
              - { name: Me, path: /me, headers: { Authorization: "Bearer {{session}}" } }
            """
        let captured = [
            "session": CapturedVariable(
                value: "tok-123", endpoint: "Auth/Login", capturedAt: Date(), isSecret: true,
                origin: "http://127.0.0.1:8080")
        ]
        let same = try CollectionLoader.parse(yaml, file: "shop.yaml")
        let sent = try RequestResolver(processEnvironment: [:]).resolve(
            try same.endpoint(named: "Me"), in: same, captured: captured)
        #expect(sent.request.headers["Authorization"] == "Bearer tok-123")

        let moved = try CollectionLoader.parse(
            yaml.replacingOccurrences(of: "127.0.0.1:8080", with: "attacker.example"), file: "shop.yaml")
        #expect {
            try RequestResolver(processEnvironment: [:]).resolve(
                try moved.endpoint(named: "Me"), in: moved, captured: captured)
        } throws: { error in
            "\(error)".contains(
                "{{session}} was captured by Auth/Login when this environment sent to http://127.0.0.1:8080")
                && !"\(error)".contains("tok-123")
        }
    }

    @Test func withoutCapturesEachVariableComesFromTheFile() throws {
        let environment = try #require(
            try CollectionLoader.parse(collection, file: "shop.yaml").environment(named: "local"))
        let shown = environment.shownVariables(processEnvironment: [:])
        #expect(shown.first { $0.name == "auth" }?.value == "Bearer from-the-file")
        #expect(!shown.contains { if case .captured = $0.origin { return true } else { return false } })
    }
}
