import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import History
@testable import Terminal
@testable import Workspace

/// Editing endpoints, comparing history entries, folding, copying and streaming heads.
@Suite struct AppEditingAndViewingTests {
    private func selectGetUser(_ state: inout AppState) {
        tuiPress(&state, KeyPress(.down), KeyPress(.down))
        #expect(state.selectedEndpoint?.name == "Get user")
    }

    // MARK: - Inline request line

    @Test func editingTheRequestLineMakesADraftThatTheNextSendUses() throws {
        var state = try tuiState()
        selectGetUser(&state)
        tuiPress(&state, .char("i"))
        #expect(state.input?.text == "GET /users/{{user_id}}")
        tuiPress(&state, .ctrl("u"))
        tuiType(&state, "DELETE /users/7?force=true&dry")
        tuiPress(&state, KeyPress(.enter))
        let draft = try #require(state.drafts["Users/Get user"])
        #expect(draft.method == .delete)
        #expect(draft.path == "/users/7")
        #expect(draft.query == [KeyValue("force", "true"), KeyValue("dry", "")])
        #expect(state.selectedEndpoint == draft)
        #expect(screenText(state).contains("edited · S saves"))

        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .send(_, let plan)? = effects.first else {
            Issue.record("expected a send effect, got \(effects)")
            return
        }
        let resolved = try plan.resolve()
        #expect(resolved.request.method == .delete)
        #expect(resolved.url == "http://127.0.0.1:8080/v1/users/7?force=true&dry=")
    }

    @Test func anUnchangedRequestLineLeavesNoDraft() throws {
        var state = try tuiState()
        selectGetUser(&state)
        tuiPress(&state, .char("i"), KeyPress(.enter))
        #expect(state.drafts.isEmpty)
        #expect(state.message == "No change.")
    }

    @Test func escapeLeavesTheEndpointAsItWas() throws {
        var state = try tuiState()
        selectGetUser(&state)
        tuiPress(&state, .char("i"))
        tuiType(&state, "/extra")
        tuiPress(&state, KeyPress(.escape))
        #expect(state.input == nil)
        #expect(state.drafts.isEmpty)
    }

    @Test func savingAsksFirstThenAsksTheRuntimeToWriteTheFile() throws {
        var state = try tuiState()
        selectGetUser(&state)
        #expect(tuiPress(&state, .char("S")).isEmpty)
        #expect(state.message?.contains("no edits to save") == true)

        tuiPress(&state, .char("i"), KeyPress(.end))
        tuiType(&state, "?page=2")
        tuiPress(&state, KeyPress(.enter))
        #expect(tuiPress(&state, .char("S")).isEmpty)
        guard case .save("Users/Get user")? = state.confirmation?.onConfirm else {
            Issue.record("expected the save confirmation, got \(String(describing: state.overlay))")
            return
        }
        #expect(tuiPress(&state, .char("n")).isEmpty)
        #expect(state.drafts["Users/Get user"] != nil, "declining keeps the edit in the session")

        tuiPress(&state, .char("S"))
        let effects = tuiPress(&state, .char("y"))
        guard case .changeCollection(.put(let endpoint, replacing: "Users/Get user"), "/tmp/shop.yaml")? = effects.first
        else {
            Issue.record("expected a save effect, got \(effects)")
            return
        }
        #expect(endpoint.query == [KeyValue("page", "2")])
        _ = AppReducer.reduce(&state, .endpointSaved(id: "Users/Get user"))
        #expect(state.drafts.isEmpty)
    }

    @Test func aReloadHoldingTheEditDropsTheDraft() throws {
        var state = try tuiState()
        selectGetUser(&state)
        tuiPress(&state, .char("i"), .ctrl("u"))
        tuiType(&state, "GET /users/9")
        tuiPress(&state, KeyPress(.enter))
        let saved = tuiCollectionYAML.replacingOccurrences(of: "/users/{{user_id}}", with: "/users/9")
        _ = AppReducer.reduce(&state, .collectionReloaded(try CollectionLoader.parse(saved, file: "shop.yaml")))
        #expect(state.drafts.isEmpty)
        #expect(state.selectedEndpoint?.path == "/users/9")
    }

    @Test func theEditorKeyAsksForTheEditorAndItsResultBecomesADraft() throws {
        var state = try tuiState()
        selectGetUser(&state)
        let effects = tuiPress(&state, .char("E"))
        guard case .editInEditor(let endpoint)? = effects.first else {
            Issue.record("expected an editor effect, got \(effects)")
            return
        }
        var edited = endpoint
        edited.headers = [KeyValue("X-Trace", "1")]
        _ = AppReducer.reduce(&state, .endpointEdited(edited))
        #expect(state.drafts["Users/Get user"]?.headers == [KeyValue("X-Trace", "1")])
    }

    @Test func anEndpointRoundTripsThroughItsEditorDocument() throws {
        let collection = try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")
        let original = try #require(collection.endpoint(withID: "Users/Create user"))
        let document = try EndpointEditing.document(for: original)
        #expect(document.hasPrefix("# Edit Users/Create user"))
        let same = try EndpointEditing.endpoint(from: document, original: original, file: "edit.yaml")
        #expect(same == original)
        let changed = try EndpointEditing.endpoint(
            from: document.replacingOccurrences(of: "path: /users", with: "path: /people"), original: original,
            file: "edit.yaml")
        #expect(changed.path == "/people")
        #expect(changed.folderPath == ["Users"] && changed.name == "Create user")
    }

    @Test func aBrokenEditorDocumentNamesItsOwnLine() throws {
        let collection = try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")
        let original = try #require(collection.endpoint(withID: "Users/Get user"))
        let text = "name: Get user\npath: /users/1\nquery: [unclosed\n"
        #expect {
            _ = try EndpointEditing.endpoint(from: text, original: original, file: "edit.yaml")
        } throws: { error in
            String(describing: error).hasPrefix("The edit was not applied: edit.yaml:")
        }
    }

    // MARK: - Comparing history entries

    @Test func compareMarksTheFirstEntryThenAsksForBoth() throws {
        var state = try tuiState()
        state.history = tuiTwoHistoryRows
        tuiPress(&state, KeyPress(.tab))
        #expect(state.focus == .history)
        #expect(tuiPress(&state, .char("d")).isEmpty)
        #expect(state.compareBase?.id == 2)
        let effects = tuiPress(&state, KeyPress(.down)) + tuiPress(&state, .char("d"))
        #expect(effects.contains { if case .compareHistory(2, 1) = $0 { return true } else { return false } })
        #expect(state.compareBase == nil)
    }

    @Test func aComparisonShowsRemovedAndAddedLinesAndEscapeClosesIt() throws {
        var state = try tuiState(width: 120, height: 30)
        let local = HistoryEntry(
            id: 1, environment: "local", endpoint: "Users/Get user", method: "GET", url: "http://l/users/1",
            status: 200, reason: "OK", responseHeaders: ["Content-Type": "application/json"],
            responseBody: Data(#"{"name":"Ada"}"#.utf8))
        var staging = local
        staging.id = 2
        staging.environment = "staging"
        staging.responseBody = Data(#"{"name":"Grace"}"#.utf8)
        _ = AppReducer.reduce(&state, .comparisonReady(Comparison(local, staging)))
        let text = screenText(state)
        #expect(text.contains("Compare #1 local ↔ #2 staging"))
        #expect(text.contains(#"-   "name": "Ada""#) && text.contains(#"+   "name": "Grace""#))
        #expect(text.contains("- environment: local") && text.contains("+ environment: staging"))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.comparison == nil)
    }

    @Test func lineDiffKeepsCommonLinesAndOrdersRemovalsFirst() {
        let lines = LineDiff.diff(["a", "b", "c", "d"], ["a", "x", "c", "d", "e"])
        #expect(lines == [.same("a"), .removed("b"), .added("x"), .same("c"), .same("d"), .added("e")])
    }

    // MARK: - Viewing bodies

    @Test func foldingCyclesThroughDepthsAndBack() throws {
        var state = try tuiState()
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        tuiPress(&state, .char("z"))
        #expect(state.body.foldDepth == 0)
        #expect(state.shownBodySource?.lineCount == 1)
        tuiPress(&state, .char("z"))
        #expect(state.body.foldDepth == 1)
        let folded = try #require(state.shownBodySource)
        #expect(
            (0..<folded.lineCount).map { folded.line($0, maxCharacters: 80).plainText } == [
                "{", #"  "items": [ … ]"#, #"  "total": 3"#, "}",
            ])
        for _ in 0..<6 { tuiPress(&state, .char("z")) }
        #expect(state.body.foldDepth == nil)
        #expect(state.shownBodySource?.lineCount == state.shownDocument?.lineCount)
    }

    @Test func copyingTheBodyCopiesItsTextAndSaysSo() throws {
        var state = try tuiState()
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: #"{"a":1}"#, contentType: "application/json"))
        let effects = tuiPress(&state, .char("y"))
        guard case .copyToClipboard(let text)? = effects.first else {
            Issue.record("expected a clipboard effect, got \(effects)")
            return
        }
        #expect(text == "{\n  \"a\": 1\n}")
        #expect(state.message?.hasPrefix("Copied 12 bytes") == true)
    }

    @Test func aBinaryBodyIsNotCopiedAsText() throws {
        var state = try tuiState()
        tuiReceive(
            &state,
            tuiResponse(
                status: 200, reason: "OK", data: Data([0x89, 0x50, 0x4E, 0x47, 0, 1]), contentType: "image/png"))
        #expect(tuiPress(&state, .char("y")).isEmpty)
        #expect(state.message?.contains("s saves it to a file") == true)
    }

    @Test func theJSONPathFilterAppliesLiveWhileTyping() throws {
        var state = try tuiState()
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        tuiPress(&state, .char("f"))
        tuiType(&state, "$.items[*].na")
        #expect(state.body.filtered?.plainLine(0) == "[]", "a valid expression that selects nothing shows so")
        tuiType(&state, "me")
        let filtered = try #require(state.body.filtered)
        #expect(
            (0..<filtered.lineCount).map { filtered.plainLine($0) }.joined() == #"[  "apple",  "banana",  "cherry"]"#)
    }

    /// A query that asks for exponential work on a small body (`$..*..*..*`) never holds the
    /// screen: typed, it stops at what may run between two key presses; entered, it runs off
    /// the main queue with the process's limits.
    @Test func aHostileFilterOnASmallBodyNeverHoldsTheMainQueue() throws {
        var state = try tuiState()
        let nested = String(repeating: "[", count: 200) + "1" + String(repeating: "]", count: 200)
        let id = tuiReceive(
            &state, tuiResponse(status: 200, reason: "OK", body: nested, contentType: "application/json"))
        tuiPress(&state, .char("f"))
        tuiType(&state, "$..*..*..*")
        #expect(state.body.filter != "$..*..*..*", "past the budget of a key press, the last result stays")
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .filter(id, "$..*..*..*", _)? = effects.first else {
            Issue.record("expected the filter off the main queue, got \(effects)")
            return
        }
        #expect(state.message?.hasPrefix("Filtering") == true)
    }

    @Test func aLargeBodyIsSearchedOffTheMainQueue() throws {
        var state = try tuiState()
        let big = String(repeating: #"{"name":"filler"},"#, count: 150_000)
        let id = tuiReceive(
            &state,
            tuiResponse(
                status: 200, reason: "OK", body: "[" + big + #"{"name":"needle"}]"#, contentType: "application/json"))
        tuiPress(&state, KeyPress(.tab), KeyPress(.tab), KeyPress(.tab))
        #expect(state.focus == .response)
        tuiPress(&state, .char("/"))
        tuiType(&state, "needle")
        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .search(id, "needle", let document)? = effects.first else {
            Issue.record("expected a background search, got \(effects)")
            return
        }
        #expect(state.message?.hasPrefix("Searching") == true)
        _ = AppReducer.reduce(
            &state, .searchFinished(exchange: id, query: "needle", lines: document.linesMatching("needle")))
        #expect(state.body.matches.count == 1)
        #expect(screenText(state).contains("match 1/1"))
    }

    @Test func aLargeBodyIsFoldedOffTheMainQueue() throws {
        var state = try tuiState()
        let big = String(repeating: #"{"name":"filler","tags":["a","b"]},"#, count: 80_000)
        let id = tuiReceive(
            &state,
            tuiResponse(
                status: 200, reason: "OK", body: #"{"items":["# + big + #"{"name":"last"}]}"#,
                contentType: "application/json"))
        tuiPress(&state, KeyPress(.tab), KeyPress(.tab), KeyPress(.tab))
        let effects = tuiPress(&state, .char("z"))
        guard case .fold(id, 0, let document)? = effects.first else {
            Issue.record("expected a background fold, got \(effects)")
            return
        }
        #expect(state.message?.hasPrefix("Folding") == true)
        _ = AppReducer.reduce(&state, .foldFinished(exchange: id, FoldedDocument(document, depth: 1)))
        #expect(state.body.folded == nil, "a fold to another depth than asked is dropped")
        _ = AppReducer.reduce(&state, .foldFinished(exchange: id, FoldedDocument(document, depth: 0)))
        let folded = try #require(state.body.folded)
        #expect((0..<folded.lineCount).map { folded.line($0, maxCharacters: 80).map(\.text).joined() } == ["{ … }"])
        #expect(state.message == "Folded below depth 0 (z: one level deeper)")
    }

    // MARK: - Streaming

    @Test func theHeadShowsBeforeTheBodyHasArrived() throws {
        var state = try tuiState(width: 100, height: 30)
        let id = tuiInFlight(&state)
        let head = ResponseHead(
            status: 200, headers: ["Content-Type": "application/json", "Content-Length": "52428800"],
            httpVersion: "HTTP/1.1")
        _ = AppReducer.reduce(&state, .progress(exchange: id, bytes: 1_048_576, head: head))
        let text = screenText(state)
        #expect(text.contains("200 OK"))
        #expect(text.contains("receiving the body"))
        #expect(text.contains("1 MB received of 50 MB"))
        #expect(text.contains("Content-Type") && text.contains("application/json"))
    }
}
