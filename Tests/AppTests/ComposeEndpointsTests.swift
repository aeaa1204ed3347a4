import Foundation
import TestSupport
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// New endpoints, saving them under a name, duplicate, rename, move, delete and its undo,
/// undo/redo of drafts, and the drafts a previous session left.
@Suite struct ComposeEndpointsTests {
    private func changes(_ effects: [AppEffect]) -> [CollectionChange] {
        effects.compactMap { if case .changeCollection(let change, _) = $0 { return change } else { return nil } }
    }

    private func storedDrafts(_ effects: [AppEffect]) -> [Endpoint]? {
        effects.compactMap { if case .storeDrafts(let drafts, _) = $0 { return drafts } else { return nil } }.last
    }

    private func selectFolderUsers(_ state: inout AppState) {
        tuiPress(&state, KeyPress(.down))
        #expect(state.selectedEndpoint == nil, "the Users heading")
    }

    @Test func ctrlNMakesADraftInTheSelectedFolderAndOpensItsRequestLine() throws {
        var state = try tuiState()
        selectFolderUsers(&state)
        let effects = tuiPress(&state, .ctrl("n"))
        #expect(state.input?.purpose == .requestLine(endpointID: "Users/New request"))
        #expect(state.input?.text == "GET ")
        #expect(state.isNewDraft("Users/New request"))
        #expect(storedDrafts(effects)?.map(\.id) == ["Users/New request"], "kept on disk at once")
        let ids = state.endpointRows.compactMap { $0.endpoint?.id }
        #expect(ids.contains("Users/New request"))

        // Enter in the request line applies it and sends, as in a URL bar.
        let effects2 = tuiType(&state, "/users?active=true") + tuiPress(&state, KeyPress(.enter))
        let stored = storedDrafts(effects2)
        let draft = try #require(state.selectedEndpoint)
        #expect(
            draft.id == "Users/New request" && draft.path == "/users" && draft.query == [KeyValue("active", "true")])
        #expect(stored?.first?.path == "/users")
        #expect(screenText(state).contains("GET    New request new"))
        guard
            let plan = effects2.compactMap({ effect -> RequestPlan? in
                if case .send(_, let plan) = effect { return plan } else { return nil }
            }).first
        else {
            Issue.record("Enter in the request line sends the new draft, got \(effects2)")
            return
        }
        #expect(try plan.resolve().url == "http://127.0.0.1:8080/v1/users?active=true")
    }

    @Test func ctrlNWithTheFilterOnShowsTheDraftAndEnterSendsIt() throws {
        var state = try tuiState()
        tuiPress(&state, .char("/"))
        tuiType(&state, "List")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.selectedEndpoint?.id == "List posts")
        tuiPress(&state, .ctrl("n"))
        #expect(state.endpointList.filter.isEmpty, "Ctrl-N clears the filter that would hide the draft")
        tuiType(&state, "/users/9")
        let effects = tuiPress(&state, KeyPress(.enter))
        let sent = effects.compactMap { effect -> RequestPlan? in
            if case .send(_, let plan) = effect { return plan } else { return nil }
        }
        #expect(
            sent.map(\.endpoint.id) == ["New request"], "the draft is sent, not the endpoint the filter left selected")
        #expect(state.selectedEndpoint?.id == "New request")
    }

    @Test func aSecondNewEndpointGetsAFreeName() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("n"), KeyPress(.escape), .ctrl("n"), KeyPress(.escape))
        #expect(Set(state.drafts.keys) == ["New request", "New request 2"])
    }

    @Test func savingANewDraftAsksForANameProposedFromMethodAndPath() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("n"))
        tuiType(&state, "/users/{{user_id}}/posts")
        tuiPress(&state, KeyPress(.enter), .char("S"))
        #expect(state.input?.purpose == .saveAs(endpointID: "New request"))
        #expect(state.input?.text == "Get users user_id posts")
        tuiPress(&state, .ctrl("u"))
        tuiType(&state, "List posts")
        let refused = tuiPress(&state, KeyPress(.enter))
        #expect(changes(refused).isEmpty)
        #expect(state.message == "List posts exists already; choose another name.")

        tuiPress(&state, .char("S"), .ctrl("u"))
        tuiType(&state, "User posts")
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .put(let endpoint, replacing: nil)? = changes(effects).first else {
            Issue.record("expected a new endpoint written to the file, got \(effects)")
            return
        }
        #expect(endpoint.id == "User posts" && endpoint.path == "/users/{{user_id}}/posts")
        #expect(state.selectedEndpoint?.id == "User posts")
    }

    /// Types a new draft's request line, sends it, and saves it under the proposed name:
    /// the proposed name and the endpoint written.
    private func savedDraft(typed line: String, environment: String? = nil) throws -> (
        proposed: String?, saved: Endpoint?, message: String?
    ) {
        var state = try tuiState(environment: environment)
        tuiPress(&state, .ctrl("n"), .ctrl("u"))
        tuiType(&state, line)
        tuiPress(&state, KeyPress(.enter), .char("S"))
        let proposed = state.input?.text
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .put(let endpoint, replacing: nil)? = changes(effects).first else {
            return (proposed, nil, state.message)
        }
        return (proposed, endpoint, state.message)
    }

    @Test func aDraftTypedAsAURLUnderTheBaseURLIsSavedRelativeToIt() throws {
        let saved = try savedDraft(typed: "GET http://127.0.0.1:8080/v1/echo")
        #expect(saved.proposed == "Get echo")
        #expect(saved.saved?.path == "/echo", "the endpoint follows the environment")
        #expect(saved.message?.contains("with the path /echo") == true)
        // Scheme and host without case; the query stays the endpoint's.
        let upper = try savedDraft(typed: "POST HTTP://127.0.0.1:8080/v1/users/{{user_id}}/posts?page=2")
        #expect(upper.proposed == "Post users user_id posts")
        #expect(upper.saved?.path == "/users/{{user_id}}/posts" && upper.saved?.query == [KeyValue("page", "2")])
        #expect(try savedDraft(typed: "GET http://127.0.0.1:8080/v1").saved?.path == "/")
    }

    @Test func aURLElsewhereKeepsItsWholeURLAndIsNamedFromItsPath() throws {
        let cdn = try savedDraft(typed: "GET https://cdn.example.com/v2/logo")
        #expect(cdn.proposed == "Get v2 logo")
        #expect(cdn.saved?.path == "https://cdn.example.com/v2/logo")
        // The same host under another path, and another environment's base URL, are elsewhere.
        #expect(
            try savedDraft(typed: "GET http://127.0.0.1:8080/v10/echo").saved?.path == "http://127.0.0.1:8080/v10/echo")
        let local = try savedDraft(typed: "GET http://127.0.0.1:8080/v1/echo", environment: "staging")
        #expect(local.proposed == "Get v1 echo")
        #expect(local.saved?.path == "http://127.0.0.1:8080/v1/echo")
        #expect(
            try savedDraft(typed: "GET https://staging.example.com/v1/echo", environment: "staging").saved?.path
                == "/echo")
    }

    @Test func aNewDraftWithoutAPathIsNotSaved() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("n"), KeyPress(.escape), .char("S"))
        #expect(state.input == nil)
        #expect(state.message?.contains("path first") == true)
    }

    @Test func duplicateMakesANewDraftBesideTheOriginal() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down), KeyPress(.down), KeyPress(.down))
        #expect(state.selectedEndpoint?.id == "Users/Create user")
        tuiPress(&state, .char("D"))
        let copy = try #require(state.selectedEndpoint)
        #expect(copy.id == "Users/Create user copy")
        #expect(copy.body == .json(.object([(key: "name", value: .string("Ada"))])))
        #expect(state.isNewDraft(copy.id))
    }

    @Test func renamingAndMovingADraftChangeOnlyTheDraft() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("n"), KeyPress(.escape), .char("R"), .ctrl("u"))
        tuiType(&state, "Health")
        #expect(changes(tuiPress(&state, KeyPress(.enter))).isEmpty)
        #expect(state.selectedEndpoint?.id == "Health")
        tuiPress(&state, .char("M"))
        tuiType(&state, "Ops / Checks")
        #expect(changes(tuiPress(&state, KeyPress(.enter))).isEmpty)
        #expect(state.selectedEndpoint?.id == "Ops/Checks/Health")
        #expect(state.endpointRows.compactMap(\.folder).contains("Checks"))
    }

    @Test func renamingASavedEndpointChangesTheFileAndItsEditsFollow() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down), KeyPress(.down), .char("i"), KeyPress(.end))
        tuiType(&state, "?v=2")
        tuiPress(&state, KeyPress(.enter), .char("R"), .ctrl("u"))
        tuiType(&state, "Fetch user")
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .put(let renamed, replacing: "Users/Get user")? = changes(effects).first else {
            Issue.record("expected the file's endpoint renamed, got \(effects)")
            return
        }
        #expect(renamed.id == "Users/Fetch user")
        #expect(renamed.query.isEmpty, "the file gets the saved endpoint renamed, not the unsaved edit")
        #expect(state.drafts["Users/Fetch user"]?.query == [KeyValue("v", "2")], "the edit follows the new name")
        #expect(state.drafts["Users/Get user"] == nil)
    }

    @Test func deletingAsksThenChangesTheFileAndUBringsItBack() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down), KeyPress(.down), .char("x"))
        guard case .delete("Users/Get user")? = state.confirmation?.onConfirm else {
            Issue.record("expected a confirmation, got \(String(describing: state.overlay))")
            return
        }
        #expect(screenText(state).contains("Delete Users/Get user from shop.yaml?"))
        #expect(changes(tuiPress(&state, .char("n"))).isEmpty)
        #expect(state.message == "Not deleted.")

        tuiPress(&state, .char("x"))
        guard case .delete(id: "Users/Get user")? = changes(tuiPress(&state, .char("y"))).first else {
            Issue.record("expected the deletion")
            return
        }
        // The file as the effect writes it.
        var collection = try #require(state.collection)
        collection.remove(endpointWithID: "Users/Get user")
        tuiReduce(&state, .collectionReloaded(collection))
        #expect(!state.endpointRows.contains { $0.endpoint?.id == "Users/Get user" })

        guard case .restore(let endpoint, let place)? = changes(tuiPress(&state, .char("u"))).first else {
            Issue.record("expected the endpoint put back")
            return
        }
        #expect(endpoint.id == "Users/Get user")
        #expect(place == APICollection.Place(folderPath: ["Users"], index: 0))
        #expect(tuiPress(&state, .char("u")).isEmpty)
        #expect(state.message == "Nothing deleted in this session to bring back.")
    }

    @Test func deletingADraftNeedsNoFileAndComesBack() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("n"), KeyPress(.escape), .char("x"))
        #expect(screenText(state).contains("a draft never saved"))
        let effects = tuiPress(&state, .char("y"))
        #expect(changes(effects).isEmpty)
        #expect(storedDrafts(effects) == [])
        #expect(state.drafts.isEmpty)
        tuiPress(&state, .char("u"))
        #expect(state.drafts["New request"] != nil)
    }

    @Test func ctrlZAndCtrlYStepThroughDraftEdits() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down), KeyPress(.down), .char("i"), .ctrl("u"))
        tuiType(&state, "GET /users/1")
        tuiPress(&state, KeyPress(.enter), .char("i"), .ctrl("u"))
        tuiType(&state, "GET /users/2")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.selectedEndpoint?.path == "/users/2")
        tuiPress(&state, .ctrl("z"))
        #expect(state.selectedEndpoint?.path == "/users/1")
        tuiPress(&state, .ctrl("z"))
        #expect(state.drafts.isEmpty)
        #expect(state.selectedEndpoint?.path == "/users/{{user_id}}")
        tuiPress(&state, .ctrl("z"))
        #expect(state.message == "Nothing to undo.")
        tuiPress(&state, .ctrl("y"), .ctrl("y"))
        #expect(state.selectedEndpoint?.path == "/users/2")
        tuiPress(&state, .ctrl("y"))
        #expect(state.message == "Nothing to redo.")
    }

    @Test func draftsOfTheLastSessionAreOfferedAndRestoredOrDiscarded() throws {
        let left = Endpoint(name: "Draft", folderPath: ["Users"], method: .post, path: "/users/draft")
        var state = try tuiState()
        state.offerDrafts([left])
        #expect(screenText(state).contains("The last session left 1 unsaved draft"))
        tuiPress(&state, .char("y"))
        #expect(state.overlay == nil)
        #expect(state.selectedEndpoint?.id == "Users/Draft")

        var declined = try tuiState()
        declined.offerDrafts([left])
        let effects = tuiPress(&declined, .char("n"))
        #expect(declined.drafts.isEmpty)
        #expect(storedDrafts(effects) == [], "discarding empties the drafts file")
    }

    @Test func aReloadKeepsNewDraftsAndDraftsWhoseEndpointWentAway() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("n"), KeyPress(.escape))
        tuiReduce(&state, .collectionReloaded(try #require(state.collection)))
        #expect(state.drafts["New request"] != nil)
    }

    @Test func theWatchersEchoOfOurOwnWriteKeepsItsMessage() throws {
        var state = try tuiState()
        state.message = "Deleted Users/Get user from shop.yaml; u brings it back."
        tuiReduce(&state, .collectionReloaded(try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")))
        #expect(state.message == "Deleted Users/Get user from shop.yaml; u brings it back.")
    }

    @Test func aLateReloadOfAnOlderReadIsNotShownOverTheNewerOne() throws {
        var state = try tuiState()
        let full = try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")
        var deleted = full
        _ = deleted.remove(endpointWithID: "Users/Get user")
        // `u` wrote the endpoint back and its read-back (numbered 5) came first; the watcher's
        // read of the file as the delete left it (numbered 3, before the restore's write) comes
        // after it, as on a loaded machine.
        tuiReduce(&state, .collectionReloaded(full, read: 5))
        tuiReduce(&state, .message("Brought back Users/Get user in shop.yaml.", isError: false))
        tuiReduce(&state, .collectionReloaded(deleted, read: 3))
        tuiReduce(&state, .collectionFailed("shop.yaml:1: an older failure", read: 4))
        #expect(state.collection?.endpoint(withID: "Users/Get user") != nil)
        #expect(state.message == "Brought back Users/Get user in shop.yaml.")
        #expect(state.problems.loadError == nil)

        // A read that began later is shown.
        tuiReduce(&state, .collectionReloaded(deleted, read: 6))
        #expect(state.collection?.endpoint(withID: "Users/Get user") == nil)
        #expect(state.message == "Reloaded shop.yaml")
    }

    @Test func paletteCommandsIncludeTheNewOnes() throws {
        let state = try tuiState()
        let commands = CommandPalette.entries(state).compactMap { entry -> AppCommand? in
            if case .command(let command) = entry.target { return command } else { return nil }
        }
        for command in [
            AppCommand.newEndpoint, .duplicateEndpoint, .renameEndpoint, .moveEndpoint, .deleteEndpoint, .undoDelete,
            .undo, .redo,
        ] {
            #expect(commands.contains(command))
        }
    }

    @Test func snapshots() throws {
        var state = try tuiState()
        tuiPress(&state, .ctrl("n"))
        tuiType(&state, "/health")
        tuiPress(&state, KeyPress(.enter), .char("x"))
        assertSnapshot(tuiScreen(state), named: "delete-draft-80x24")
        var narrow = try tuiState(width: 40, height: 12)
        narrow.offerDrafts([Endpoint(name: "Draft", method: .post, path: "/users/draft")])
        assertSnapshot(tuiScreen(narrow), named: "restore-drafts-40x12")
    }
}

/// The files behind composing: the drafts file and changes to a real collection file.
@Suite struct ComposeFilesTests {
    @Test func draftsAreKeptPrivateAndReadBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = DraftStore(folder: folder.url.appendingPathComponent("state/drafts"))
        var drafts = [
            Endpoint(
                name: "New request", folderPath: ["Users"], method: .post, path: "/users",
                headers: [KeyValue("X-Trace", "{{trace}}")],
                body: .json(.object([(key: "name", value: .string("Ada"))]))),
            Endpoint(name: "Top", path: "/top"),
        ]
        drafts[1].disabled.headers = [KeyValue("X-Debug", "1")]  // a row switched off is part of the draft
        try store.save(drafts, collectionPath: "/projects/shop.yaml")
        let file = store.file(for: "/projects/shop.yaml")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: store.folder.path)
        #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        let (read, problem) = store.load(collectionPath: "/projects/shop.yaml")
        #expect(problem == nil)
        #expect(Set(read) == Set(drafts) && read.count == 2)
        #expect(read.first { $0.id == "Users/New request" } == drafts[0])
        #expect(read.first { $0.id == "Top" }?.disabled.headers == [KeyValue("X-Debug", "1")])
        #expect(
            store.load(collectionPath: "/other/shop.yaml").drafts.isEmpty,
            "another collection of the same name has its own")

        try store.save([], collectionPath: "/projects/shop.yaml")
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func anUnreadableDraftsFileIsMovedAsideAndNamed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let store = DraftStore(folder: folder.url)
        try Data("endpoints: [unclosed\n".utf8).write(to: store.file(for: "/p/shop.yaml"))
        let (drafts, problem) = store.load(collectionPath: "/p/shop.yaml")
        #expect(drafts.isEmpty)
        let sentence = try #require(problem)
        #expect(sentence.contains("could not be read") && sentence.contains("moved to"))
        #expect(!FileManager.default.fileExists(atPath: store.file(for: "/p/shop.yaml").path))
    }

    @Test func aNewTopLevelEndpointIsAppendedKeepingTheFilesComments() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let text =
            "# Shop API, hand written\nname: Shop\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:1\nendpoints:\n  # the first one\n  - name: One\n    path: /one\n"
        let url = try folder.write("shop.yaml", text)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        let written = try CollectionChange.put(Endpoint(name: "Two", method: .post, path: "/two"), replacing: nil)
            .apply(to: url)
        #expect(written.loaded.collection.endpoints.map(\.id) == ["One", "Two"])
        let after = try String(contentsOf: url, encoding: .utf8)
        #expect(after.hasPrefix(text), "the user's text, comments included, is kept")
        #expect((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) == 0o640)
    }

    @Test func renameDeleteAndRestoreRewriteTheFileInPlace() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = try folder.write("shop.yaml", "# kept by every change\n" + tuiCollectionYAML)
        defer {
            #expect((try? String(contentsOf: url, encoding: .utf8))?.hasPrefix("# kept by every change\n") == true)
        }
        let collection = try CollectionLoader.load(from: url)
        var renamed = try #require(collection.endpoint(withID: "Users/Get user"))
        renamed.name = "Fetch user"
        var written = try CollectionChange.put(renamed, replacing: "Users/Get user").apply(to: url)
        #expect(
            written.loaded.collection.endpoints.map(\.id) == ["List posts", "Users/Fetch user", "Users/Create user"])

        let renameRead = written.read
        written = try CollectionChange.delete(id: "Users/Fetch user").apply(to: url)
        #expect(written.read > renameRead, "each read-back is numbered after the one before")
        #expect(written.loaded.collection.endpoints.map(\.id) == ["List posts", "Users/Create user"])
        written = try CollectionChange.restore(renamed, at: APICollection.Place(folderPath: ["Users"], index: 0)).apply(
            to: url)
        #expect(
            written.loaded.collection.endpoints.map(\.id) == ["List posts", "Users/Fetch user", "Users/Create user"])

        #expect(throws: CollectionChange.ChangeError.self) {
            try CollectionChange.put(renamed, replacing: nil).apply(to: url)
        }
    }
}
