import Foundation
import NetworkingCore
import Terminal
import Workspace

/// Creating, saving, duplicating, renaming, moving and deleting endpoints; the collection file
/// read again; the drafts a previous session left.
///
/// A new endpoint is a draft until `S` saves it into the collection file; renaming, moving and
/// deleting a saved endpoint change the file at once (a deletion asks first, and `u` puts the
/// last one back), while doing so to a draft only changes the draft.
extension AppReducer {
    // MARK: - New and duplicate

    /// `Ctrl-N`: a new GET endpoint in the selected folder, its request line open for the path;
    /// on a gRPC environment (`grpc://`, `grpcs://`) or a gRPC endpoint with its own `server:`,
    /// that server's methods to pick one from first (`AppReducer+GRPCMethods`).
    static func newEndpoint(_ state: inout AppState) -> [AppEffect] {
        if let environment = state.activeEnvironmentValue {
            if let server = state.selectedEndpoint?.grpc?.server {
                return offerGRPCMethods(in: environment, server: server, &state)
            }
            if Endpoint.isGRPCURL(environment.baseURLTemplate) {
                return offerGRPCMethods(in: environment, server: nil, &state)
            }
        }
        newHTTPEndpoint(&state)
        return []
    }

    /// A new GET endpoint in the selected folder, its request line open for the path.
    static func newHTTPEndpoint(_ state: inout AppState) {
        let folderPath = selectedFolderPath(state)
        let name = freeName("New request", in: folderPath, state)
        let endpoint = Endpoint(name: name, folderPath: folderPath, method: .get, path: "")
        state.drafts[endpoint.id] = endpoint
        // A filter would hide the draft and leave another endpoint selected (and sent).
        state.endpointList.setFilter("")
        state.rebuildRows(selecting: endpoint.id)
        state.focus = .endpoints
        state.lastList = .endpoints
        state.input = TextInput(purpose: .requestLine(endpointID: endpoint.id), text: "GET ")
        state.message = "New endpoint \(endpoint.id): type its path or URL; Enter sends it, S saves it to the file."
        state.messageIsError = false
    }

    /// `D`: a copy of the selected endpoint (with its edits) as a new draft beside it.
    static func duplicateEndpoint(_ state: inout AppState) {
        guard var copy = state.selectedEndpoint else {
            state.message = "Select an endpoint to duplicate."
            return
        }
        copy.name = freeName(copy.name + " copy", in: copy.folderPath, state)
        state.drafts[copy.id] = copy
        state.rebuildRows(selecting: copy.id)
        state.message = "Duplicated as \(copy.id); S saves it to the file."
        state.messageIsError = false
    }

    /// The folder a new endpoint goes in: the selected folder heading, else the selected
    /// endpoint's folder, else the top level.
    static func selectedFolderPath(_ state: AppState) -> [String] {
        let visible = state.visibleEndpointRows
        guard visible.indices.contains(state.endpointList.selected) else { return [] }
        return state.endpointRows[visible[state.endpointList.selected]].folderPath
    }

    /// `base`, or `base 2`, `base 3` … : the first name no endpoint or draft in the folder has.
    static func freeName(_ base: String, in folderPath: [String], _ state: AppState, except id: String? = nil) -> String
    {
        func taken(_ name: String) -> Bool {
            let candidate = (folderPath + [name]).joined(separator: "/")
            return candidate != id
                && (state.collection?.endpoint(withID: candidate) != nil || state.drafts[candidate] != nil)
        }
        guard taken(base) else { return base }
        var counter = 2
        while taken("\(base) \(counter)") { counter += 1 }
        return "\(base) \(counter)"
    }

    // MARK: - Save

    /// `S`: a new draft asks for its name (one proposed from its method and path); an edited
    /// endpoint asks before it replaces the file's.
    static func saveEdits(_ state: inout AppState) {
        guard let endpoint = state.selectedEndpoint, state.drafts[endpoint.id] != nil else {
            state.message = "This endpoint has no edits to save (i edits its request line, Ctrl-N makes a new one)."
            return
        }
        guard state.isNewDraft(endpoint.id) else {
            state.confirmation = state.confirmationToSave(endpoint.id)
            return
        }
        guard !endpoint.path.isEmpty else {
            state.message = "Give \(endpoint.name) a path first (i edits its request line)."
            state.messageIsError = true
            return
        }
        let proposed =
            endpoint.name.hasPrefix("New request")
            ? proposedName(followingTheEnvironment(endpoint, state)) : endpoint.name
        state.input = TextInput(
            purpose: .saveAs(endpointID: endpoint.id),
            text: freeName(proposed, in: endpoint.folderPath, state, except: endpoint.id))
    }

    /// A name from the method and the path's words: `POST /users/{{id}}/posts` → `Post users
    /// id posts`; of a whole URL, its path's (`https://cdn.example.com/v2/logo` → `Get v2 logo`).
    static func proposedName(_ endpoint: Endpoint) -> String {
        var path = Substring(endpoint.path)
        if let scheme = path.range(of: "://") {
            path = path[scheme.upperBound...].drop { $0 != "/" }
        }
        let words = path.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init)
        let method = endpoint.method.rawValue.lowercased().capitalized
        return ([method] + words).joined(separator: " ")
    }

    /// A new draft typed as a whole URL under the active environment's `base_url`, with the path
    /// relative to it, so that the saved endpoint follows the environment; any other unchanged.
    static func followingTheEnvironment(_ draft: Endpoint, _ state: AppState) -> Endpoint {
        guard let relative = state.activeEnvironmentValue?.relativePath(of: draft.path) else { return draft }
        var moved = draft
        moved.path = relative
        return moved
    }

    /// The name typed for a new draft: the draft takes it and is written to the file.
    static func saveNewDraft(_ id: String, as name: String, _ state: inout AppState) -> [AppEffect] {
        guard var draft = state.drafts[id] else { return [] }
        let name = name.trimmingCharacters(in: .whitespaces)
        guard validName(name, in: draft.folderPath, except: id, &state) else { return [] }
        state.drafts[id] = nil
        draft.name = name
        let typed = draft.path
        draft = followingTheEnvironment(draft, state)
        state.drafts[draft.id] = draft
        state.rebuildRows(selecting: draft.id)
        state.message =
            draft.path == typed
            ? "Saving \(draft.id) to \(state.collectionFileName)…"
            : "Saving \(draft.id) to \(state.collectionFileName) with the path \(draft.path), under each environment's base_url…"
        state.messageIsError = false
        return [.changeCollection(.put(draft, replacing: nil), collectionPath: state.collectionPath)]
    }

    private static func validName(_ name: String, in folderPath: [String], except id: String, _ state: inout AppState)
        -> Bool
    {
        let problem: String?
        if name.isEmpty {
            problem = "An endpoint needs a name."
        } else if name.contains("/") {
            problem = "A name cannot hold / (it separates folders); M moves an endpoint to another folder."
        } else if freeName(name, in: folderPath, state, except: id) != name {
            problem = "\((folderPath + [name]).joined(separator: "/")) exists already; choose another name."
        } else {
            problem = nil
        }
        guard let problem else { return true }
        state.message = problem
        state.messageIsError = true
        return false
    }

    /// The confirmation before an edit replaces the file's endpoint was confirmed: writes it.
    static func saveConfirmed(_ endpointID: String, _ state: inout AppState) -> [AppEffect] {
        guard let draft = state.drafts[endpointID] else { return [] }
        return [.changeCollection(.put(draft, replacing: endpointID), collectionPath: state.collectionPath)]
    }

    /// An edited endpoint was written to the file: it is no longer a draft.
    static func endpointSaved(_ id: String, _ state: inout AppState) {
        state.drafts[id] = nil
        state.message = "Saved \(id) to \(state.collectionFileName)."
        state.messageIsError = false
    }

    // MARK: - Rename and move

    /// `R`: asks for a new name.
    static func startRename(_ state: inout AppState) {
        guard let endpoint = state.selectedEndpoint else {
            state.message = "Select an endpoint to rename."
            return
        }
        state.input = TextInput(purpose: .rename(endpointID: endpoint.id), text: endpoint.name)
    }

    /// `M`: asks for the folder to move to (`Folder/Sub`, empty for the top level).
    static func startMove(_ state: inout AppState) {
        guard let endpoint = state.selectedEndpoint else {
            state.message = "Select an endpoint to move."
            return
        }
        state.input = TextInput(
            purpose: .move(endpointID: endpoint.id), text: endpoint.folderPath.joined(separator: "/"))
    }

    /// Renames or moves an endpoint: a new draft changes alone; a saved endpoint changes in
    /// the file (its unsaved edits follow it).
    static func relocate(_ id: String, name: String? = nil, folderPath: [String]? = nil, _ state: inout AppState)
        -> [AppEffect]
    {
        guard let current = state.endpoint(withID: id) else { return [] }
        var moved = current
        if let name { moved.name = name.trimmingCharacters(in: .whitespaces) }
        if let folderPath { moved.folderPath = folderPath }
        guard moved.id != id else {
            state.message = "No change."
            return []
        }
        guard validName(moved.name, in: moved.folderPath, except: id, &state) else { return [] }
        let verb = name == nil ? "Moved" : "Renamed"
        if state.isNewDraft(id) {
            state.drafts[id] = nil
            state.drafts[moved.id] = moved
            state.rebuildRows(selecting: moved.id)
            state.message = "\(verb) the draft to \(moved.id)."
            state.messageIsError = false
            return []
        }
        guard var stored = state.collection?.endpoint(withID: id) else { return [] }
        stored.name = moved.name
        stored.folderPath = moved.folderPath
        if state.drafts[id] != nil {
            state.drafts[id] = nil
            state.drafts[moved.id] = moved
        }
        state.message = "\(verb) \(id) to \(moved.id) in \(state.collectionFileName)…"
        state.messageIsError = false
        return [.changeCollection(.put(stored, replacing: id), collectionPath: state.collectionPath)]
    }

    /// The folder path typed for a move: `A/B`, spaces around parts trimmed, empty parts dropped.
    static func folderPath(from text: String) -> [String] {
        text.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    // MARK: - Delete and undo

    /// `x` on an endpoint: asks first.
    static func askToDelete(_ state: inout AppState) {
        guard let endpoint = state.selectedEndpoint else {
            state.message = "Select an endpoint to delete."
            return
        }
        state.confirmation = state.confirmationToDelete(endpoint.id)
    }

    /// Deletes a draft that was never saved, or the endpoint from the file; `u` undoes it.
    static func delete(_ id: String, _ state: inout AppState) -> [AppEffect] {
        if state.isNewDraft(id), let draft = state.drafts[id] {
            state.drafts[id] = nil
            state.compose.lastDeleted = DeletedEndpoint(endpoint: draft, draft: nil, place: nil)
            state.rebuildRows()
            state.message = "Deleted the draft \(id); u brings it back."
            state.messageIsError = false
            return []
        }
        var collection = state.collection
        guard let removed = collection?.remove(endpointWithID: id) else { return [] }
        state.compose.lastDeleted = DeletedEndpoint(
            endpoint: removed.endpoint, draft: state.drafts[id], place: removed.place)
        state.drafts[id] = nil
        state.message = "Deleting \(id) from \(state.collectionFileName)…"
        state.messageIsError = false
        return [.changeCollection(.delete(id: id), collectionPath: state.collectionPath)]
    }

    /// `u`: puts the last deleted endpoint back (in the file, where it was), with its edits.
    static func undoDelete(_ state: inout AppState) -> [AppEffect] {
        guard let deleted = state.compose.lastDeleted else {
            state.message = "Nothing deleted in this session to bring back."
            return []
        }
        state.compose.lastDeleted = nil
        let id = deleted.endpoint.id
        guard let place = deleted.place else {
            state.drafts[id] = deleted.endpoint
            state.rebuildRows(selecting: id)
            state.message = "Brought back the draft \(id)."
            state.messageIsError = false
            return []
        }
        if let draft = deleted.draft { state.drafts[id] = draft }
        state.message = "Bringing back \(id) in \(state.collectionFileName)…"
        state.messageIsError = false
        return [.changeCollection(.restore(deleted.endpoint, at: place), collectionPath: state.collectionPath)]
    }

    // MARK: - The collection file read again

    /// The collection file was read again: an edit on disk, or the explorer's own write coming
    /// back through the watcher.
    static func collectionReloaded(_ collection: APICollection, _ state: inout AppState) {
        // An edit that the file now holds is no longer a draft; one whose endpoint is gone
        // from the file stays, as a new endpoint (nothing typed is lost).
        state.drafts = state.drafts.filter { id, draft in
            collection.endpoint(withID: id).map { $0 != draft } ?? true
        }
        // The explorer's own writes come back through the watcher too: those change
        // nothing on screen, and their own message ("Deleted …, u brings it back") stays.
        let unchanged =
            state.collection.map {
                // The trees, not their endpoints gathered: a reload that reads one endpoint
                // again shares the rest of the old tree, which compares at once.
                $0.items == collection.items && $0.variables == collection.variables
                    && $0.environments.map(\.description) == collection.environments.map(\.description)
            } ?? false
        let hadLoadError = state.problems.loadError != nil
        state.setCollection(collection)
        if !unchanged || hadLoadError {
            let count = state.problems.count
            state.message =
                "Reloaded \(state.collectionFileName)"
                + (count == 0 ? "" : " with \(count) problem\(count == 1 ? "" : "s") (! lists them)")
            state.messageIsError = count > 0
        }
    }

    /// The collection file on disk no longer loads: the last version that did stays in use,
    /// and the error stays on screen until the file loads again.
    static func collectionFailed(_ error: String, _ state: inout AppState) {
        state.problems.loadError = error
        state.message =
            "\(state.collectionFileName) does not load; the last version that did stays in use (! shows why)"
        state.messageIsError = true
    }

    /// The collection file was read again and reaches beyond its folder without trust: the
    /// last version used stays in use (nothing of the new one is sent), and why stays on
    /// screen until a version that may be used is read.
    static func collectionRefused(_ refusal: String, _ state: inout AppState) {
        state.problems.loadError = refusal
        state.message =
            "\(state.collectionFileName) changed to reach beyond its folder and is not trusted for that; "
            + "the last trusted version stays in use (! shows why)"
        state.messageIsError = true
    }

    // MARK: - Drafts of a previous session

    /// Takes the drafts back (`y`) or discards them (`n`, which empties the drafts file): the
    /// answers of the question `AppState.offerDrafts` asks.
    static func restoreDrafts(_ accept: Bool, _ state: inout AppState) -> [AppEffect] {
        let drafts = state.compose.restorable
        state.compose.restorable = []
        guard accept else {
            state.message = "Discarded \(drafts.count) draft\(drafts.count == 1 ? "" : "s") of the last session."
            state.messageIsError = false
            return [.storeDrafts(Array(state.drafts.values), collectionPath: state.collectionPath)]
        }
        for draft in drafts where state.collection?.endpoint(withID: draft.id) != draft {
            state.drafts[draft.id] = draft
        }
        state.rebuildRows(selecting: drafts.first?.id)
        state.message =
            "Restored \(drafts.count) draft\(drafts.count == 1 ? "" : "s"); S saves one to the file, Ctrl-Z undoes."
        state.messageIsError = false
        return []
    }
}
