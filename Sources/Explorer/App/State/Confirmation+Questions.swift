import Terminal
import Workspace

/// The explorer's five confirmations, each asked in the words of what it guards.
extension AppState {
    /// Before sending to a protected environment: `y` sends, `n` keeps it unsent.
    func confirmationToSend(_ endpointID: String, in environment: String) -> Confirmation {
        Confirmation(
            title: "Protected environment",
            question: [
                [Span("Send to "), Span(environment, Style(.protectedBadge, .bold)), Span("?")],
                [Span(endpointID, role: .dim)],
                [Span("\(environment) is a protected environment.", role: .warning)],
            ],
            destructive: true,
            confirmKeys: ["y", "Y"], confirmLabel: "send",
            cancelKeys: ["n", "N", "q"], cancelLabel: "keep it unsent",
            onConfirm: .send(endpointID: endpointID, environment: environment), onCancel: .say("Not sent."))
    }

    /// Before comparing in two environments, one of them protected: `y` sends both.
    func confirmationToCompare(_ endpointID: String, with environment: String) -> Confirmation {
        Confirmation(
            title: "Protected environment",
            question: [
                [
                    Span("Compare "), Span(endpointID, Style(.title, .bold)), Span(" in "),
                    Span(activeEnvironmentValue?.name ?? "", role: .environment), Span(" and "),
                    Span(environment, Style(.protectedBadge, .bold)), Span("?"),
                ],
                [Span("Both are sent; a protected environment is among them.", role: .warning)],
            ],
            destructive: true,
            confirmKeys: ["y", "Y"], confirmLabel: "send both",
            cancelKeys: ["n", "N", "q"], cancelLabel: "keep them unsent",
            onConfirm: .compare(endpointID: endpointID, environment: environment), onCancel: .say("Not sent."))
    }

    /// Before an edit replaces the file's endpoint: `y` saves, `n` keeps the edit as a draft.
    func confirmationToSave(_ endpointID: String) -> Confirmation {
        var question: [[Span]] = [
            [Span("Save the edit of "), Span(endpointID, Style(.title, .bold)), Span(" to \(collectionFileName)?")]
        ]
        if let draft = drafts[endpointID] {
            question.append([Span(draft.requestLine, role: .dim)])
        }
        if collection?.sourceHasComments == true {
            question.append([Span("The file's comments stay; comments inside this endpoint are replaced.", role: .dim)])
        }
        return Confirmation(
            title: "Save to the collection", question: question, destructive: false,
            confirmKeys: ["y", "Y"], confirmLabel: "save",
            cancelKeys: ["n", "N", "q"], cancelLabel: "keep it unsaved",
            onConfirm: .save(endpointID: endpointID), onCancel: .say("Not saved; the edit stays in this session."))
    }

    /// Before a deletion: `y` deletes (`u` brings it back), `n` keeps it.
    func confirmationToDelete(_ endpointID: String) -> Confirmation {
        var question: [[Span]] = [
            [
                Span("Delete "), Span(endpointID, Style(.title, .bold)),
                Span(isNewDraft(endpointID) ? " (a draft never saved)?" : " from \(collectionFileName)?"),
            ]
        ]
        if let endpoint = endpoint(withID: endpointID) {
            question.append([Span(endpoint.requestLine, role: .dim)])
        }
        question.append([Span("u brings it back in this session.", role: .dim)])
        return Confirmation(
            title: "Delete endpoint", question: question, destructive: true,
            confirmKeys: ["y", "Y"], confirmLabel: "delete",
            cancelKeys: ["n", "N", "q"], cancelLabel: "keep it",
            onConfirm: .delete(endpointID: endpointID), onCancel: .say("Not deleted."))
    }

    /// The drafts the last session left: `y` restores them, `n` discards them. Discarding is the
    /// deed that cannot be taken back, so it is the one `n` confirms; restoring is the safe answer,
    /// which `y`, Esc and Enter give.
    func confirmationToRestore(_ drafts: [Endpoint]) -> Confirmation {
        var question: [[Span]] = [
            [Span("The last session left \(drafts.count) unsaved draft\(drafts.count == 1 ? "" : "s"):")]
        ]
        question += drafts.prefix(5).map {
            [Span("  " + $0.id, Style(.title, .bold)), Span("  " + $0.requestLine, role: .dim)]
        }
        if drafts.count > 5 { question.append([Span("  and \(drafts.count - 5) more", role: .dim)]) }
        return Confirmation(
            title: "Unsaved drafts", question: question, destructive: false,
            confirmKeys: ["n", "N"], confirmLabel: "discard them",
            cancelKeys: ["y", "Y"], cancelLabel: "restore them",
            onConfirm: .discardDrafts, onCancel: .restoreDrafts)
    }
}
