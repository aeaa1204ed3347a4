import Terminal

/// A question asked before a deed that cannot quietly be taken back (sending to a protected
/// environment, writing or deleting in the collection file, discarding drafts), answered by one key.
///
/// Every confirmation has two answers. Confirming does the deed the question names; cancelling
/// is the safe answer: it sends, writes and deletes nothing. Esc and Enter cancel in every
/// confirmation (`enterAnswer`), so that an Enter pressed once too often, or held, never
/// does the deed; the dialog names Enter beside the answer it gives.
///
/// A confirmation is open as the overlay `.confirmation`, one at a time; the reducer answers
/// it in one place (`AppReducer+Confirmation`) and `ConfirmDialog` draws it.
struct Confirmation: Sendable, Hashable {
    /// What an answer does, run by the reducer once the dialog is closed.
    enum Deed: Sendable, Hashable {
        /// Send the endpoint (its draft when it has one) in the environment.
        case send(endpointID: String, environment: String)
        /// Send the endpoint in the active environment and in this one, and compare the answers.
        case compare(endpointID: String, environment: String)
        /// Write the endpoint's edit over the file's endpoint.
        case save(endpointID: String)
        /// Delete the endpoint (or its draft); `u` brings it back.
        case delete(endpointID: String)
        /// Take back the drafts the last session left.
        case restoreDrafts
        /// Discard the drafts the last session left (the drafts file is emptied).
        case discardDrafts
        /// Nothing but this sentence in the footer (`Not sent.`).
        case say(String)
    }

    /// The two answers.
    enum Answer: Sendable, Hashable {
        case confirm
        case cancel
    }

    /// What Enter answers, the same in every confirmation: cancel, the answer that does nothing
    /// that cannot be taken back.
    static let enterAnswer = Answer.cancel

    /// The box's title.
    var title: String
    /// The question, one styled paragraph per element.
    var question: [[Span]]
    /// Whether the deed is dangerous (sending to a protected environment, deleting): the title
    /// shows as an error.
    var destructive: Bool
    /// The keys that confirm, the one the hint shows first (Enter and Esc never confirm).
    var confirmKeys: [Character]
    /// What confirming does, in the hint (`send`).
    var confirmLabel: String
    /// The keys that cancel besides Esc and Enter, the one the hint shows first.
    var cancelKeys: [Character]
    /// What cancelling does, in the hint (`keep it unsent`).
    var cancelLabel: String
    /// The deed run when the user confirms.
    var onConfirm: Deed
    /// The deed run when the user cancels.
    var onCancel: Deed

    /// The answer a key gives: a confirming key confirms; a cancelling key, Esc and Enter cancel;
    /// any other key gives none (the dialog stays open).
    func answer(to press: KeyPress) -> Answer? {
        switch press.key {
        case .enter: return Self.enterAnswer
        case .escape: return .cancel
        case .character(let character) where confirmKeys.contains(character): return .confirm
        case .character(let character) where cancelKeys.contains(character): return .cancel
        default: return nil
        }
    }

    /// The deed of an answer.
    func deed(for answer: Answer) -> Deed {
        answer == .confirm ? onConfirm : onCancel
    }

    /// The hints under the question: each answer with its keys, Enter beside the one it gives,
    /// the confirming answer first unless `y` cancels (`y send   n/Esc/Enter keep it unsent`,
    /// `y/Esc/Enter restore them   n discard them`).
    var hints: [KeyHint] {
        func keys(_ characters: [Character], _ answer: Answer) -> String {
            // Only the first key is shown: the others (`Y`, `q`) answer as it does.
            var names = characters.prefix(1).map(String.init)
            if answer == .cancel { names.append("Esc") }
            if answer == Self.enterAnswer { names.append("Enter") }
            return names.joined(separator: "/")
        }
        let confirm = KeyHint(key: keys(confirmKeys, .confirm), label: confirmLabel)
        let cancel = KeyHint(key: keys(cancelKeys, .cancel), label: cancelLabel)
        return cancelKeys.contains("y") ? [cancel, confirm] : [confirm, cancel]
    }
}

extension AppState {
    /// The confirmation waiting for an answer, if one is open (it is the overlay: one at a time,
    /// and no other modal beside it). Setting nil closes it, and only it.
    var confirmation: Confirmation? {
        get {
            guard case .confirmation(let confirmation)? = overlay else { return nil }
            return confirmation
        }
        set {
            if let newValue {
                overlay = .confirmation(newValue)
            } else if confirmation != nil {
                overlay = nil
            }
        }
    }
}
