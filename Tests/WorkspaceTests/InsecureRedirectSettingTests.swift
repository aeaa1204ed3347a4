import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// `allow_insecure_redirects:` on the collection and on an environment: whether an https URL
/// may redirect to plain http (refused by default), read, checked and written back.
@Suite struct InsecureRedirectSettingTests {
    let yaml = """
        name: r
        allow_insecure_redirects: true
        environments:
          - name: inherits
            base_url: https://127.0.0.1:8443
          - name: strict
            base_url: https://127.0.0.1:8443
            allow_insecure_redirects: false
        endpoints:
          - name: Start
            path: /start
        """

    @Test func anEnvironmentInheritsTheCollectionsSettingUnlessItSaysOtherwise() throws {
        let collection = try CollectionLoader.parse(yaml)
        #expect(collection.environments.map(\.allowsInsecureRedirects) == [true, false])
        let plain = try CollectionLoader.parse(
            yaml.replacingOccurrences(of: "allow_insecure_redirects: true\n", with: ""))
        #expect(plain.environments[0].allowsInsecureRedirects == false)
    }

    @Test func theSettingReachesTheDispatcherWithTheMaskersCredentialHeaders() throws {
        let collection = try CollectionLoader.parse(yaml)
        let resolved = try RequestResolver().resolve(
            try collection.endpoint(named: "Start"), in: collection, environment: collection.environments[1])
        let policy = resolved.dispatcher(transport: AsyncHTTPClientTransport.shared, prompt: { _ in }).redirectPolicy

        #expect(policy.allowsInsecureRedirects == false)
        #expect(policy.insecureRedirectHint.contains("allow_insecure_redirects: true"))
        for name in ["Authorization", "Cookie", "X-Api-Key", "X-Auth-Token", "api-key", "X-Client-Secret"] {
            #expect(policy.isCredentialHeader(name))
        }
        #expect(!policy.isCredentialHeader("X-Trace"))
    }

    @Test func aValueOtherThanTrueOrFalseIsAnErrorNamingTheKey() {
        #expect {
            try CollectionLoader.parse(
                yaml.replacingOccurrences(
                    of: "allow_insecure_redirects: false", with: "allow_insecure_redirects: maybe"))
        } throws: { error in
            "\(error)".contains("allow_insecure_redirects") && "\(error)".contains("true or false")
        }
    }

    @Test func writingBackKeepsBothSettingsWhereTheyWereWritten() throws {
        let collection = try CollectionLoader.parse(yaml)
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.components(separatedBy: "allow_insecure_redirects").count == 3)
        let reread = try CollectionLoader.parse(written)
        #expect(reread == collection)
        #expect(reread.allowsInsecureRedirects && reread.environments.map(\.allowsInsecureRedirects) == [true, false])
    }
}
