import NetworkingCore
import Terminal
import Workspace

/// Editing endpoints in the session: the request line typed inline, the endpoint in `$EDITOR`,
/// and what follows every edit: an undo step (a word typed in the body editor as one), the
/// drafts kept on disk.
extension AppReducer {
    // MARK: - The request line and the editor

    /// `i`: edits the selected endpoint's request line inline.
    static func startRequestLineEdit(_ state: inout AppState) {
        guard let endpoint = state.selectedEndpoint else {
            state.message = "Select an endpoint to edit."
            return
        }
        state.input = TextInput(purpose: .requestLine(endpointID: endpoint.id), text: endpoint.requestLine)
    }

    /// Reads an edited request line back into a draft of the endpoint.
    ///
    /// - Returns: whether the line read (else the message says why).
    @discardableResult
    static func applyRequestLine(_ line: String, to id: String, _ state: inout AppState) -> Bool {
        guard var endpoint = state.endpoint(withID: id) else { return false }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        var rest = Substring(trimmed)
        if let space = trimmed.firstIndex(of: " ") {
            let word = trimmed[..<space]
            if word.allSatisfy({ $0.isLetter }) {
                endpoint.method = HTTPMethod(rawValue: String(word))
                rest = trimmed[space...].drop { $0 == " " }
            }
        }
        guard !rest.isEmpty else {
            state.message = "The request line needs a path, as in GET /users/{{user_id}}?page=1"
            state.messageIsError = true
            return false
        }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        endpoint.path = String(parts[0])
        endpoint.query =
            parts.count > 1
            ? parts[1].split(separator: "&").map { pair in
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return KeyValue(String(nameValue[0]), nameValue.count > 1 ? String(nameValue[1]) : "")
            }
            : []
        endpointEdited(endpoint, &state)
        return true
    }

    /// `E`: edits the selected endpoint in the user's editor.
    static func editInEditor(_ state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.selectedEndpoint else {
            state.message = "Select an endpoint to edit."
            return []
        }
        return [.editInEditor(endpoint)]
    }

    /// An endpoint was edited (its request line, or in the user's editor): a draft for this
    /// session, unless it is the file's again.
    static func endpointEdited(_ endpoint: Endpoint, _ state: inout AppState) {
        setDraft(endpoint, &state)
        state.message =
            state.drafts[endpoint.id] == nil
            ? "No change."
            : "Edited \(endpoint.id) for this session; Enter sends it, S saves it to the file."
        state.messageIsError = false
    }

    // MARK: - After every action

    /// The drafts before an action, to tell afterwards whether (and how) it edited them.
    struct DraftsBefore {
        /// The drafts as they were.
        let drafts: [String: Endpoint]
        /// How many undo and redo steps there were.
        let steps: (Int, Int)
        /// The endpoint whose body the action types a character into, and whether it is a space.
        let run: (id: String, isSpace: Bool)?

        init(_ action: AppAction, _ state: AppState) {
            drafts = state.drafts
            steps = (state.compose.undo.count, state.compose.redo.count)
            run = AppReducer.typingRun(action, state)
        }
    }

    /// After an action that changed the drafts: what the user did (not a reload, not an undo
    /// itself) becomes an undo step, a word typed in the body editor as one; every change is
    /// kept on disk.
    static func keepDrafts(after action: AppAction, since before: DraftsBefore, _ state: inout AppState) -> [AppEffect]
    {
        let run = before.run
        var effects: [AppEffect] = []
        if state.drafts != before.drafts {
            if isUserEdit(action), before.steps == (state.compose.undo.count, state.compose.redo.count) {
                let continues =
                    run != nil && run?.id == state.compose.typingRun
                    && !(state.compose.typedSpace && run?.isSpace == false)
                if !continues { recordUndo(before.drafts, &state) }
                state.compose.typingRun = run?.id
            }
            effects.append(.storeDrafts(Array(state.drafts.values), collectionPath: state.collectionPath))
        } else if case .input = action, run == nil {
            state.compose.typingRun = nil
        }
        if let run { state.compose.typedSpace = run.isSpace }
        return effects
    }

    /// The endpoint whose body a key types a character into (no modifier), and whether it is
    /// a space; nil for any other input.
    private static func typingRun(_ action: AppAction, _ state: AppState) -> (id: String, isSpace: Bool)? {
        guard case .input(.key(let press), _) = action, press.modifiers.isEmpty,
            case .character(let character) = press.key,
            state.compose.editor.bodyText != nil, let id = state.compose.editor.bodyEndpointID
        else { return nil }
        return (id, character.isWhitespace)
    }

    /// Whether the user made the action (a key, the editor's result), not a reload or a
    /// report of an effect.
    private static func isUserEdit(_ action: AppAction) -> Bool {
        switch action {
        case .input, .endpointEdited: return true
        default: return false
        }
    }

    // MARK: - Undo and redo

    /// Records the drafts as they were before an edit, for `Ctrl-Z`.
    static func recordUndo(_ before: [String: Endpoint], _ state: inout AppState) {
        state.compose.undo.append(before)
        if state.compose.undo.count > ComposeState.undoLimit { state.compose.undo.removeFirst() }
        state.compose.redo = []
    }

    /// `Ctrl-Z` / `Ctrl-Y`: the drafts as they were before the last edit, or after the last undo.
    static func undoDraft(redo: Bool, _ state: inout AppState) {
        guard let drafts = redo ? state.compose.redo.popLast() : state.compose.undo.popLast() else {
            state.message = redo ? "Nothing to redo." : "Nothing to undo."
            return
        }
        if redo { state.compose.undo.append(state.drafts) } else { state.compose.redo.append(state.drafts) }
        let changed = Set(drafts.keys).symmetricDifference(state.drafts.keys)
            .union(drafts.keys.filter { drafts[$0] != state.drafts[$0] })
        state.drafts = drafts
        state.rebuildRows(selecting: changed.sorted().first { drafts[$0] != nil })
        state.message =
            (redo ? "Redone" : "Undone") + (changed.isEmpty ? "." : ": " + changed.sorted().joined(separator: ", "))
        state.messageIsError = false
    }
}
