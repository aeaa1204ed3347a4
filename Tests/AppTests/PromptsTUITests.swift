import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// `{{prompt "Label"}}` in the TUI: the footer asks before anything goes out (a secret typed
/// as dots), the answer is kept for the session, Esc sends nothing; a folder run asks every
/// prompt before its first request.
@Suite struct PromptsTUITests {
    private static let yaml = """
        name: Bank
        environments:
          - name: local
            base_url: http://127.0.0.1:1
        endpoints:
          - name: Login
            method: POST
            path: /login/{{prompt "Account"}}
            headers: { X-Password: '{{prompt "Password"}}' }
          - name: Balance
            path: /balance/{{prompt "Account"}}
        """

    private func state() throws -> AppState {
        let collection = try CollectionLoader.parse(Self.yaml, file: "bank.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/bank.yaml")
        state.size = Size(width: 140, height: 30)
        tuiReduce(&state, .input(.tick, at: tuiNow))
        return state
    }

    /// Enter on the selected endpoint: the exchange and its send effect.
    private func send(_ state: inout AppState) throws -> (id: Int, plan: RequestPlan) {
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .send(let id, let plan)? = effects.first else { throw Unexpected(effects: "\(effects)") }
        return (id, plan)
    }

    private struct Unexpected: Error { var effects: String }

    @Test func theFooterAsksEachPromptInTurnASecretAsDotsThenTheSendGoesOn() throws {
        var state = try state()
        let (id, _) = try send(&state)
        tuiReduce(
            &state,
            .promptsNeeded(.exchange(id), [UnansweredPrompt(label: "Account"), UnansweredPrompt(label: "Password")]))
        #expect(screenText(state).contains(" Account: "))
        #expect(tuiType(&state, "acct-7").isEmpty)
        #expect(screenText(state).contains("acct-7"), "a plain answer is shown as typed")
        #expect(tuiPress(&state, KeyPress(.enter)).isEmpty, "the next prompt is asked before anything is sent")
        #expect(screenText(state).contains(" Password: "))
        tuiType(&state, "hunter2")
        let screen = screenText(state)
        #expect(screen.contains("•••••••"))
        #expect(!screen.contains("hunter2"), "a secret is never drawn")
        let resumed = tuiPress(&state, KeyPress(.enter))
        guard case .send(let again, let plan)? = resumed.first else {
            Issue.record("the send goes on once answered, got \(resumed)")
            return
        }
        #expect(again == id, "the same exchange goes on")
        #expect(plan.answers.answers == ["Account": "acct-7", "Password": "hunter2"])
        let resolved = try plan.resolve()
        #expect(resolved.url.hasSuffix("/login/acct-7"))
        #expect(resolved.maskedHeaders["X-Password"] == SecretMasker.mask)
        #expect(state.input == nil)
        #expect(state.exchanges[id]?.isInFlight == true)
        // The request pane's preview shows the answers now, the secret one masked.
        let preview = screenText(state)
        #expect(preview.contains("POST http://127.0.0.1:1/login/acct-7"), "\(preview)")
        #expect(preview.contains(#"ƒ prompt "Account" acct-7 · prompt "Password" ••••••"#), "\(preview)")
        #expect(!preview.contains("hunter2"))
    }

    @Test func anAnswerIsKeptForTheSessionSoTheLabelIsAskedOnce() throws {
        var state = try state()
        let (id, _) = try send(&state)
        tuiReduce(&state, .promptsNeeded(.exchange(id), [UnansweredPrompt(label: "Account")]))
        tuiType(&state, "acct-7")
        tuiPress(&state, KeyPress(.enter))
        tuiPress(&state, KeyPress(.down))
        let (_, plan) = try send(&state)
        #expect(plan.endpoint.name == "Balance")
        #expect(try plan.resolve().url.hasSuffix("/balance/acct-7"), "the plan carries the session's answers")
        // An answered label asked again (a stale report) opens nothing.
        #expect(tuiReduce(&state, .promptsNeeded(.exchange(99), [UnansweredPrompt(label: "Account")])).isEmpty)
        #expect(state.input == nil)
    }

    @Test func escapeOnAPromptSendsNothingAndSaysWhy() throws {
        var state = try state()
        let (id, _) = try send(&state)
        tuiReduce(&state, .promptsNeeded(.exchange(id), [UnansweredPrompt(label: "Password")]))
        tuiType(&state, "hun")
        #expect(tuiPress(&state, KeyPress(.escape)).isEmpty)
        #expect(state.input == nil)
        #expect(state.promptAnswers.isEmpty, "a cancelled answer is not kept")
        guard case .failed(let failure)? = state.exchanges[id]?.phase else {
            Issue.record("the exchange is not sent: \(String(describing: state.exchanges[id]?.phase))")
            return
        }
        #expect(failure.message == #"Not sent: the prompt "Password" was not answered."#)
        #expect(state.message == failure.message)
    }

    @Test func thePreviewNamesTheFunctionsAndMarksWhatIsAskedOnSend() throws {
        let state = try state()
        let screen = screenText(state)
        #expect(
            screen.contains(#"POST http://127.0.0.1:1/login/{{prompt "Account"}}"#),
            "a call left for the send reads as written: \(screen)")
        #expect(
            screen.contains(#"ƒ prompt "Account" asked when sent · prompt "Password" asked when sent"#), "\(screen)")
    }

    @Test func aSendWithAnUnansweredPromptAsksBeforeAnythingGoesOut() throws {
        let collection = try CollectionLoader.parse(Self.yaml, file: "bank.yaml")
        let environment = try #require(collection.environments.first)
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        let reported = Collected<AppAction>()
        let login = try collection.endpoint(named: "Login")
        program.perform(
            .send(
                exchange: 1, RequestPlan(endpoint: login, collection: collection, environment: environment, revision: 1)
            ),
            send: { reported.append($0) })
        let actions = reported.all
        #expect(actions.count == 1, "only the question, nothing sent: \(actions)")
        guard case .promptsNeeded(.exchange(1), let prompts)? = actions.first else {
            Issue.record("expected the prompts, got \(actions)")
            return
        }
        #expect(prompts.map(\.label) == ["Account", "Password"])
    }
}
