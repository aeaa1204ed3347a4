import Terminal

/// The one place a confirmation is answered (`AppState.confirmation`, asked by the slices that
/// guard a deed: sending to a protected environment, comparing with one, saving an edit,
/// deleting an endpoint, the drafts of the last session).
///
/// A confirming key runs the deed the question names; a cancelling key, Esc and Enter give the
/// safe answer, in every confirmation alike; any other key leaves the question open.
extension AppReducer {
    /// A key while a confirmation is open: its answer closes the dialog and runs the answer's deed.
    static func answer(_ press: KeyPress, to confirmation: Confirmation, _ state: inout AppState) -> [AppEffect] {
        guard let answer = confirmation.answer(to: press) else { return [] }
        state.confirmation = nil
        return run(confirmation.deed(for: answer), &state)
    }

    /// Runs what an answer to a confirmation does.
    static func run(_ deed: Confirmation.Deed, _ state: inout AppState) -> [AppEffect] {
        switch deed {
        case .send(let endpointID, let environment):
            return sendConfirmed(endpointID, in: environment, &state)
        case .compare(let endpointID, let environment):
            return compareConfirmed(endpointID, with: environment, &state)
        case .save(let endpointID):
            return saveConfirmed(endpointID, &state)
        case .delete(let endpointID):
            return delete(endpointID, &state)
        case .restoreDrafts:
            return restoreDrafts(true, &state)
        case .discardDrafts:
            return restoreDrafts(false, &state)
        case .say(let sentence):
            state.message = sentence
            return []
        }
    }
}
