import Foundation
import Synchronization

/// The answers given to `{{prompt "Label"}}` so far, by label: how a screen that cannot stop
/// in the middle of resolving a request (the TUI) answers prompts. A label without an answer
/// throws `UnansweredPrompt`; the screen asks, keeps the answer and resolves again.
package struct PromptAnswers: TemplatePrompter, Sendable, Hashable {
    /// The answers, by label.
    package var answers: [String: String]
    /// What an unanswered label gives instead of an error (a preview shows the call).
    package var placeholder: Bool

    /// Answers from a dictionary; unanswered labels throw, or give the call as written when
    /// `placeholder` is set.
    package init(_ answers: [String: String] = [:], placeholder: Bool = false) {
        self.answers = answers
        self.placeholder = placeholder
    }

    package func answer(_ label: String) throws -> String {
        if let answer = answers[label] { return answer }
        if placeholder { return "{{prompt \"\(label)\"}}" }
        throw UnansweredPrompt(label: label)
    }

    package var secretAnswers: [String] {
        answers.filter { Self.isSecret($0.key) }.map(\.value)
    }

    /// Whether a label asks for a credential (`Password`, `API token`, `One-time code` …): its
    /// answer is not echoed and is masked like a secret.
    package static func isSecret(_ label: String) -> Bool {
        let lowered = label.lowercased()
        return (SecretMasker.sensitiveNameWords + ["otp", "pin", "passphrase", "code"]).contains {
            lowered.contains($0)
        }
    }
}

/// A `{{prompt "Label"}}` that has no answer yet.
package struct UnansweredPrompt: Error, Sendable, Hashable {
    /// The label to ask with.
    package var label: String
    /// Whether the answer is a secret (typed without echo, masked).
    package var isSecret: Bool { PromptAnswers.isSecret(label) }
}

extension APICollection {
    /// The prompts that sending these endpoints would ask and `answers` does not answer, each
    /// once, in the order they come: asked together before anything is sent. Commands do not
    /// run to find them; an endpoint that does not resolve for another reason adds only the
    /// prompts met before that (its send then reports the reason).
    ///
    /// - Parameter captured: the environment's captured variables, when the caller has read
    ///   them already (else they are read from the store).
    package func unansweredPrompts(
        of endpoints: [Endpoint], in environment: Environment, answers: PromptAnswers,
        captured: [String: CapturedVariable]? = nil
    ) -> [UnansweredPrompt] {
        let recorder = PromptRecorder(answers)
        var resolver = RequestResolver()
        resolver.prompter = recorder
        resolver.runsCommands = false
        let captured = captured ?? CaptureStore().variables(collection: storeKey, environment: environment.name)
        for endpoint in endpoints {
            _ = try? resolver.resolve(endpoint, in: self, environment: environment, captured: captured)
        }
        return recorder.unanswered
    }
}

/// Answers prompts from the answers given, and notes the labels it had no answer for.
private final class PromptRecorder: TemplatePrompter, Sendable {
    private let answers: PromptAnswers
    private let labels = Mutex<[String]>([])

    init(_ answers: PromptAnswers) {
        self.answers = answers
    }

    func answer(_ label: String) throws -> String {
        if let answer = answers.answers[label] { return answer }
        labels.withLock { labels in if !labels.contains(label) { labels.append(label) } }
        return ""
    }

    var secretAnswers: [String] { [] }

    var unanswered: [UnansweredPrompt] { labels.withLock { $0.map { UnansweredPrompt(label: $0) } } }
}
