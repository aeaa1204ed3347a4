import Workspace

/// What waits for `{{prompt "Label"}}` answers: a send (its exchange) or a folder run.
package enum PromptTarget: Sendable {
    case exchange(Int)
    case run(Int, RunPlan)
}

/// Prompts being asked, one at a time in the footer, before a send or a run goes on.
struct PendingPrompts: Sendable {
    /// What goes on once every prompt is answered.
    var target: PromptTarget
    /// The prompts still to answer; the first is being asked.
    var prompts: [UnansweredPrompt]
}
