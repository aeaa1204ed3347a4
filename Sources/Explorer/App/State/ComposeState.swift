import Workspace

/// What composing endpoints in the UI keeps besides the drafts themselves: the undo and redo
/// steps of the drafts, the last deletion (for `u`), and the drafts a previous session left.
struct ComposeState: Sendable {
    /// The drafts as they were before each edit, newest last (`Ctrl-Z` goes back one).
    var undo: [[String: Endpoint]] = []
    /// The drafts undone, newest last (`Ctrl-Y` goes forward one).
    var redo: [[String: Endpoint]] = []
    /// The endpoint deleted last in this session, for `u`.
    var lastDeleted: DeletedEndpoint?
    /// Drafts a previous session left in the state folder, offered back at the start.
    var restorable: [Endpoint] = []
    /// The request pane's editors.
    var editor = RequestEditorState()
    /// The endpoint whose body is being typed in, once its undo step is recorded: a word
    /// and the spaces after it are one step, as in text editors.
    var typingRun: String?
    /// Whether the last character typed was a space (the next word is a new step).
    var typedSpace = false

    /// How many undo steps are kept.
    static let undoLimit = 200
}

extension AppState {
    /// Offers the drafts a previous session left (found at start): the screen asks whether
    /// to take them back.
    package mutating func offerDrafts(_ drafts: [Endpoint]) {
        guard !drafts.isEmpty else { return }
        compose.restorable = drafts
        confirmation = confirmationToRestore(drafts)
    }
}

/// An endpoint deleted in this session, with what it takes to put it back.
struct DeletedEndpoint: Sendable {
    /// The endpoint as the collection file had it (for a new draft: the draft).
    var endpoint: Endpoint
    /// Its unsaved edits, if it had some.
    var draft: Endpoint?
    /// Where it was in the file; nil for a draft that was never saved.
    var place: APICollection.Place?
}

/// A change to the collection file that the UI asks for; the effect reads the file as it is
/// on disk, applies the change and writes it back atomically.
package enum CollectionChange: Sendable {
    /// Writes an endpoint: in place of the one at `replacing` (an edit, a rename, a move),
    /// or as a new one when `replacing` is nil.
    case put(Endpoint, replacing: String?)
    /// Removes the endpoint at an address.
    case delete(id: String)
    /// Puts a deleted endpoint back where it was.
    case restore(Endpoint, at: APICollection.Place)
}
