import Foundation
import Testing

@testable import Workspace

/// `{{prompt "Label"}}`: the value a person types, asked by whoever can ask (the CLI on its
/// terminal), given with `--var "Label=…"` where nobody can, and masked when it is a secret.
@Suite struct PromptFunctionTests {
    /// Answers from a table, counting the questions.
    final class TableAnswers: TemplatePrompter, @unchecked Sendable {
        let table: [String: String]
        private(set) var asked: [String] = []
        init(_ table: [String: String]) { self.table = table }
        func answer(_ label: String) throws -> String {
            asked.append(label)
            guard let value = table[label] else { throw Unanswered() }
            return value
        }
        var secretAnswers: [String] { table.filter { $0.key.lowercased().contains("password") }.map(\.value) }
        struct Unanswered: Error, CustomStringConvertible { var description: String { "nobody answered" } }
    }

    private let collection = """
        name: Prompt
        environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
        endpoints:
          - name: Login
            method: POST
            path: /login
            query: { code: '{{prompt "One-time code"}}' }
            headers: { X-Password: '{{prompt "Password"}}' }
        """

    @Test func thePrompterAnswersAndASecretAnswerIsMasked() throws {
        let loaded = try CollectionLoader.parse(collection, file: "prompt.yaml")
        var resolver = RequestResolver(processEnvironment: [:])
        let answers = TableAnswers(["One-time code": "123456", "Password": "hunter2"])
        resolver.prompter = answers
        let resolved = try resolver.resolve(try loaded.endpoint(named: "Login"), in: loaded)
        #expect(resolved.url.hasSuffix("/login?code=123456"))
        #expect(resolved.request.headers["X-Password"] == "hunter2")
        #expect(resolved.maskedHeaders["X-Password"] == SecretMasker.mask)
        #expect(answers.asked == ["One-time code", "Password"])
    }

    @Test func withoutAPrompterTheAnswerComesFromVarOrItIsAClearError() throws {
        let loaded = try CollectionLoader.parse(collection, file: "prompt.yaml")
        let endpoint = try loaded.endpoint(named: "Login")
        let given = try RequestResolver(processEnvironment: [:]).resolve(
            endpoint, in: loaded, overrides: ["One-time code": "42", "Password": "p"])
        #expect(given.url.hasSuffix("code=42"))
        do {
            _ = try RequestResolver(processEnvironment: [:]).resolve(endpoint, in: loaded)
            Issue.record("resolved without an answer")
        } catch {
            #expect(
                String(describing: error).contains(
                    #"prompt "One-time code" cannot ask here; --var "One-time code=…" gives the answer"#), "\(error)")
        }
    }

    // MARK: - Answers collected by a screen (the TUI)

    @Test func collectedAnswersStopAtTheFirstUnansweredPromptAndNameIt() throws {
        let loaded = try CollectionLoader.parse(collection, file: "prompt.yaml")
        let endpoint = try loaded.endpoint(named: "Login")
        var resolver = RequestResolver(processEnvironment: [:])
        resolver.prompter = PromptAnswers(["One-time code": "123456"])
        do {
            _ = try resolver.resolve(endpoint, in: loaded)
            Issue.record("resolved without the password")
        } catch {
            let prompt = try #require(UnansweredPrompt(stoppedAt: error))
            #expect(prompt.label == "Password")
            #expect(prompt.isSecret)
            #expect(
                String(describing: error).hasPrefix("prompt.yaml:"), "the sentence points at the collection: \(error)")
        }
        resolver.prompter = PromptAnswers(["One-time code": "123456", "Password": "hunter2"])
        let resolved = try resolver.resolve(endpoint, in: loaded)
        #expect(resolved.request.headers["X-Password"] == "hunter2")
        #expect(resolved.maskedHeaders["X-Password"] == SecretMasker.mask, "a secret answer is masked")
        #expect(!resolved.maskedURL.contains("hunter2"))
    }

    @Test func thePromptsOfSeveralEndpointsAreListedOnceInOrderWithoutTheAnsweredOnes() throws {
        let loaded = try CollectionLoader.parse(
            """
            name: Prompts
            environments: [{ name: local, base_url: "http://127.0.0.1:1", variables: { pin: '{{prompt "PIN"}}' } }]
            endpoints:
              - name: A
                path: /a/{{prompt "Account"}}
                headers: { X-Pin: "{{pin}}" }
              - name: B
                path: /b
                query: { account: '{{prompt "Account"}}', region: '{{prompt "Region"}}' }
              - name: C
                path: /c/{{undefined_thing}}
            """, file: "prompts.yaml")
        let environment = try #require(loaded.environments.first)
        let all = loaded.unansweredPrompts(
            of: loaded.endpoints, in: environment, answers: PromptAnswers(["Region": "eu"]))
        #expect(all.map(\.label) == ["Account", "PIN"])
        #expect(all.map(\.isSecret) == [false, true])
        #expect(
            loaded.unansweredPrompts(
                of: loaded.endpoints, in: environment,
                answers: PromptAnswers(["Account": "7", "PIN": "1", "Region": "eu"])
            ).isEmpty)
    }

    @Test func aPreviewShowsAnUnansweredPromptAsWritten() throws {
        let loaded = try CollectionLoader.parse(collection, file: "prompt.yaml")
        var resolver = RequestResolver(processEnvironment: [:])
        resolver.prompter = PromptAnswers([:], placeholder: true)
        let resolved = try resolver.resolve(try loaded.endpoint(named: "Login"), in: loaded)
        #expect(resolved.request.headers["X-Password"] == #"{{prompt "Password"}}"#)
        #expect(resolved.functionOutputs.map(\.expression) == [#"prompt "One-time code""#, #"prompt "Password""#])
    }
}
