import Foundation
import NetworkingCore
import Workspace

/// The answers to `{{prompt "Label"}}`: asked one at a time in the footer before a send or a
/// folder run goes on.
extension AppReducer {
    /// Starts asking the prompts a send or a run needs; their answers are kept for the
    /// session, so each label is asked once.
    static func promptsNeeded(_ target: PromptTarget, _ prompts: [UnansweredPrompt], _ state: inout AppState)
        -> [AppEffect]
    {
        var unique: [UnansweredPrompt] = []
        for prompt in prompts where state.promptAnswers[prompt.label] == nil && !unique.contains(prompt) {
            unique.append(prompt)
        }
        state.pendingPrompts = PendingPrompts(target: target, prompts: unique)
        return askNextPrompt(&state)
    }

    /// Keeps the answer typed for the prompt being asked, then asks the next or goes on.
    static func promptAnswered(_ label: String, _ answer: String, _ state: inout AppState) -> [AppEffect] {
        state.promptAnswers[label] = answer
        state.pendingPrompts?.prompts.removeAll { $0.label == label }
        return askNextPrompt(&state)
    }

    /// Esc on a prompt: nothing is sent, and the exchange or the run says why.
    static func promptCancelled(_ label: String, _ state: inout AppState) {
        guard let pending = state.pendingPrompts else { return }
        state.pendingPrompts = nil
        let sentence = "Not sent: the prompt \"\(label)\" was not answered."
        switch pending.target {
        case .exchange(let id):
            if state.exchanges[id]?.isInFlight == true {
                state.exchanges[id]?.phase = .failed(
                    TransportFailure(category: "not sent", message: sentence, hint: nil))
            }
        case .run(let id, _):
            if state.folderRun?.id == id { state.folderRun = nil }
        }
        state.message = sentence
        state.messageIsError = true
    }

    private static func askNextPrompt(_ state: inout AppState) -> [AppEffect] {
        guard let pending = state.pendingPrompts else { return [] }
        if let prompt = pending.prompts.first {
            state.input = TextInput(purpose: .templatePrompt(label: prompt.label, secret: prompt.isSecret))
            return []
        }
        state.pendingPrompts = nil
        let answers = PromptAnswers(state.promptAnswers)
        switch pending.target {
        case .exchange(let id):
            guard let exchange = state.exchanges[id], exchange.isInFlight,
                let endpoint = exchange.endpointID.flatMap({ state.endpoint(withID: $0) }),
                let environment = state.environments.first(where: { $0.name == exchange.environment }),
                let plan = state.plan(for: endpoint, in: environment)
            else { return [] }
            return [.send(exchange: id, plan)]
        case .run(let id, var plan):
            guard state.folderRun?.id == id else { return [] }
            plan.answers = answers
            return [.runFolder(run: id, plan)]
        }
    }
}
