import Foundation
import TestSupport
import Testing

@testable import Workspace

/// The functions a `{{…}}` may call, with reference values from the tools people check them with.
@Suite struct TemplateFunctionTests {
    private let now = Date(timeIntervalSince1970: 1_763_890_245.678)  // 2025-11-23T09:30:45.678Z

    private func expand(_ text: String, variables: [KeyValue] = [], directory: URL? = nil) throws -> String {
        var scope = VariableScope(
            environmentVariables: variables, processEnvironment: ["HOME_DIR": "/home/ada"], uuid: "fixed-uuid", now: now
        )
        scope.directory = directory
        return try scope.expand(text).text
    }

    @Test func timeFunctions() throws {
        #expect(try expand("{{now}}") == "2025-11-23T09:30:45Z")
        #expect(try expand(#"{{now "yyyy-MM-dd HH:mm"}}"#) == "2025-11-23 09:30")
        #expect(try expand("{{timestamp}}") == "1763890245")
        #expect(try expand("{{timestamp ms}}") == "1763890245678")
        #expect(try expand("{{timestamp s}}") == "1763890245")
        #expect(try expand("{{uuid}}-{{ uuid }}") == "fixed-uuid-fixed-uuid")
    }

    @Test func randomIntStaysInItsRange() throws {
        let values = try (0..<200).map { _ in try #require(Int(try expand("{{random_int 3 7}}"))) }
        #expect(values.allSatisfy { (3...7).contains($0) })
        #expect(Set(values).count > 1)
        #expect(try expand("{{random_int 5 5}}") == "5")
    }

    @Test func encodingsAndDigestsOfTextAndOfVariables() throws {
        let variables = [KeyValue("user", "ada"), KeyValue("credentials", "{{user}}:lovelace"), KeyValue("key", "key")]
        #expect(try expand("Basic {{base64 credentials}}", variables: variables) == "Basic YWRhOmxvdmVsYWNl")
        #expect(try expand(#"{{base64_decode "YWRhOmxvdmVsYWNl"}}"#) == "ada:lovelace")
        #expect(try expand(#"{{url_encode "a b&c/é"}}"#) == "a%20b%26c%2F%C3%A9")
        // `printf abc | sha256sum`
        #expect(try expand(#"{{sha256 "abc"}}"#) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // RFC 4231 is binary keys; this pair is `printf 'The quick brown fox jumps over the lazy dog' | openssl dgst -sha256 -hmac key`
        #expect(
            try expand(#"{{hmac_sha256 key "The quick brown fox jumps over the lazy dog"}}"#, variables: variables)
                == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
    }

    @Test func fileReadsRelativeToTheCollection() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let folder = directory.url
        try "s3cr3t\n".write(to: folder.appendingPathComponent("token.txt"), atomically: true, encoding: .utf8)
        #expect(try expand("Bearer {{file token.txt}}", directory: folder) == "Bearer s3cr3t")
        #expect(try expand(#"{{file "token.txt"}}"#, directory: folder) == "s3cr3t")
    }

    @Test(arguments: [
        ("{{random_int 9 1}}", "random_int takes two whole numbers"),
        ("{{timestamp hours}}", #"timestamp counts in s or ms, not "hours""#),
        ("{{base64 missing}}", "undefined"),
        ("{{sha256}}", "sha256 takes one argument"),
        ("{{file nowhere.txt}}", "cannot be read"),
    ])
    func aWrongCallIsAClearError(_ text: String, _ reason: String) {
        do {
            _ = try expand(text, directory: URL(fileURLWithPath: "/nonexistent"))
            Issue.record("\(text) expanded")
        } catch let error as VariableScope.Failure {
            let sentence = String(describing: ResolveError(scopeFailure: error, context: "the path of endpoint \"E\""))
            #expect(sentence.contains(reason), "\(sentence)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
