import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import History
@testable import Query
@testable import Terminal
@testable import Workspace

/// The reducer, key by key: every command and every action a user or an effect can cause.
@Suite struct AppReducerTests {
    // MARK: - Helpers

    /// The exchange id and the request of the send effect among `effects`, resolved as the
    /// effect would resolve it.
    private func sentRequest(_ effects: [AppEffect]) -> (Int, ResolvedRequest)? {
        for effect in effects {
            if case .send(let id, let plan) = effect, let resolved = try? plan.resolve() { return (id, resolved) }
        }
        return nil
    }

    private func selectedName(_ state: AppState) -> String? { state.selectedEndpoint?.name }

    // MARK: - Lists and focus

    @Test func startsOnTheFirstEndpointWithTheEndpointsListFocused() throws {
        let state = try tuiState()
        #expect(state.focus == .endpoints)
        #expect(selectedName(state) == "List posts")
        #expect(state.activeEnvironmentValue?.name == "local")
        #expect(
            state.endpointRows.map { $0.folder ?? $0.endpoint!.name } == [
                "List posts", "Users", "Get user", "Create user",
            ])
    }

    @Test func downAndUpMoveThroughEndpointsAndStopAtTheEnds() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down))
        #expect(state.endpointList.selected == 1)
        #expect(state.selectedEndpoint == nil, "a folder heading is not an endpoint")
        tuiPress(&state, .char("j"), .char("j"), .char("j"), .char("j"))
        #expect(state.endpointList.selected == 3)
        #expect(selectedName(state) == "Create user")
        tuiPress(&state, .char("k"))
        #expect(selectedName(state) == "Get user")
        tuiPress(&state, .char("g"))
        #expect(state.endpointList.selected == 0)
        tuiPress(&state, KeyPress(.up))
        #expect(state.endpointList.selected == 0)
        tuiPress(&state, .char("G"))
        #expect(state.endpointList.selected == 3)
        tuiPress(&state, KeyPress(.pageUp))
        #expect(state.endpointList.selected == 0)
        tuiPress(&state, KeyPress(.pageDown))
        #expect(state.endpointList.selected == 3)
    }

    @Test func movingInTheEnvironmentsListSelectsAndEnterSwitches() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.backTab))
        #expect(state.focus == .environments)
        tuiPress(&state, KeyPress(.down), KeyPress(.down), KeyPress(.down))
        #expect(state.environmentList.selected == 2)
        tuiPress(&state, KeyPress(.up))
        #expect(state.environmentList.selected == 1)
        #expect(state.activeEnvironment == 0, "moving does not switch")
        let effects = tuiPress(&state, KeyPress(.enter))
        #expect(effects.isEmpty)
        #expect(state.activeEnvironmentValue?.name == "staging")
        #expect(state.message == "Environment: staging")
    }

    @Test func movingInTheHistoryListOpensTheEntryWithoutSending() throws {
        var state = try tuiState()
        _ = AppReducer.reduce(
            &state,
            .historyLoaded([summary(id: 7, endpoint: "List posts"), summary(id: 6, endpoint: "Users/Get user")]))
        tuiPress(&state, KeyPress(.tab))
        #expect(state.focus == .history)
        let effects = tuiPress(&state, KeyPress(.down))
        #expect(state.historyList.selected == 1)
        #expect(effects.count == 1)
        guard case .openHistory(let id)? = effects.first else {
            Issue.record("expected openHistory, got \(effects)")
            return
        }
        #expect(id == 6)
        _ = AppReducer.reduce(
            &state,
            .historyOpened(
                entry(id: 6),
                tuiResponse(status: 200, reason: "OK", body: #"{"id":2}"#, contentType: "application/json")))
        #expect(state.shown?.historyID == 6)
        #expect(state.shown?.response?.status == 200)
        #expect(state.inFlightCount == 0, "showing a history entry sends nothing")
        let enter = tuiPress(&state, KeyPress(.enter))
        #expect(state.focus == .response)
        guard case .openHistory(let again)? = enter.first else {
            Issue.record("expected openHistory, got \(enter)")
            return
        }
        #expect(again == 6)
    }

    @Test func aHistoryEntryThatArrivesAfterTheSelectionMovedIsIgnored() throws {
        var state = try tuiState()
        _ = AppReducer.reduce(
            &state, .historyLoaded([summary(id: 7, endpoint: "List posts"), summary(id: 6, endpoint: "List posts")]))
        state.focus = .history
        _ = AppReducer.reduce(&state, .historyOpened(entry(id: 6), nil))
        #expect(state.shownExchange == nil)
    }

    @Test func historyOpenedWithoutResponseShowsTheTransportError() throws {
        var state = try tuiState()
        var failed = entry(id: 3)
        failed.transportError = "connection refused"
        _ = AppReducer.reduce(&state, .historyOpened(failed, nil))
        guard case .failed(let failure)? = state.shown?.phase else {
            Issue.record("expected failed")
            return
        }
        #expect(failure.message == "connection refused")
    }

    @Test func tabCyclesThroughEveryPaneBothWays() throws {
        var state = try tuiState()
        var seen: [Pane] = []
        for _ in 0..<5 {
            tuiPress(&state, KeyPress(.tab))
            seen.append(state.focus)
        }
        #expect(seen == [.history, .request, .response, .environments, .endpoints])
        tuiPress(&state, KeyPress(.backTab))
        #expect(state.focus == .environments)
        #expect(state.lastList == .environments)
        tuiPress(&state, KeyPress(.backTab))
        #expect(state.focus == .response)
        #expect(state.lastList == .environments, "the list slot keeps the last list")
    }

    // MARK: - List filter

    @Test func typingAListFilterNarrowsAndSelectsTheBestMatch() throws {
        var state = try tuiState()
        tuiPress(&state, .char("/"))
        guard case .listFilter(.endpoints)? = state.input?.purpose else {
            Issue.record("no list filter input")
            return
        }
        tuiType(&state, "user")
        #expect(state.endpointList.filter == "user")
        let visible = state.endpointList.visibleIndices(state.endpointItems)
        #expect(
            visible.map { state.endpointRows[$0].folder ?? state.endpointRows[$0].endpoint!.name } == [
                "Users", "Get user", "Create user",
            ])
        #expect(selectedName(state) == "Get user", "lands on an endpoint, not the folder heading")
        tuiType(&state, " c")
        #expect(selectedName(state) == "Create user")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.input == nil)
        #expect(state.endpointList.filter == "user c", "Enter keeps the filter")
        #expect(selectedName(state) == "Create user")
    }

    /// The rows the selection indexes are matched on words made without laying the rows out:
    /// they must be the rows the list shows, the ones its items match.
    @Test func theVisibleRowsAreTheRowsTheListItemsMatch() throws {
        var state = try tuiState()
        var edited = try #require(state.selectedEndpoint)
        edited.path = "/edited"
        state.drafts[edited.id] = edited
        for filter in ["", "user", "USER c", "get", "▾", "users", "*", "post create", "zzz", "  "] {
            state.endpointList.filter = filter
            #expect(
                state.visibleEndpointRows == state.endpointList.visibleIndices(state.endpointItems), "filter \(filter)")
        }
        state.endpointList.filter = "*"
        #expect(
            state.visibleEndpointRows.map { state.endpointRows[$0].endpoint?.id } == [edited.id],
            "an edited endpoint's mark is matched")
    }

    @Test func anExactNameWinsOverAPrefixMatch() throws {
        var state = try tuiState()
        tuiPress(&state, .char("/"))
        tuiType(&state, "get user")
        #expect(selectedName(state) == "Get user")
        tuiPress(
            &state, KeyPress(.backspace), KeyPress(.backspace), KeyPress(.backspace), KeyPress(.backspace),
            KeyPress(.backspace))
        #expect(state.input?.text == "get")
        #expect(selectedName(state) == "Get user")
    }

    @Test func escapeClearsTheListFilter() throws {
        var state = try tuiState()
        tuiPress(&state, .char("/"))
        tuiType(&state, "zzz")
        #expect(state.endpointList.visibleIndices(state.endpointItems).isEmpty)
        #expect(state.selectedEndpoint == nil)
        tuiPress(&state, KeyPress(.escape))
        #expect(state.input == nil)
        #expect(state.endpointList.filter == "")
        #expect(state.endpointList.visibleIndices(state.endpointItems).count == 4)
    }

    @Test func typedLettersGoToTheFilterNotToCommands() throws {
        var state = try tuiState()
        tuiPress(&state, .char("/"))
        let effects = tuiType(&state, "q?e")
        #expect(effects.isEmpty)
        #expect(!state.quitting)
        #expect(state.overlay == nil)
        #expect(state.input?.text == "q?e")
    }

    // MARK: - Environments

    @Test func environmentPickerMovesWithArrowsAndSwitchesOnEnter() throws {
        var state = try tuiState()
        tuiPress(&state, .char("e"))
        guard case .environmentPicker(let list)? = state.overlay else {
            Issue.record("no picker")
            return
        }
        #expect(list.selected == 0)
        tuiPress(&state, KeyPress(.down), KeyPress(.down), KeyPress(.down), KeyPress(.up))
        guard case .environmentPicker(let moved)? = state.overlay else {
            Issue.record("picker closed")
            return
        }
        #expect(moved.selected == 1)
        tuiPress(&state, KeyPress(.enter))
        #expect(state.overlay == nil)
        #expect(state.activeEnvironmentValue?.name == "staging")
        #expect(state.environmentList.selected == 1)
    }

    @Test func environmentPickerDigitsSwitchDirectly() throws {
        var state = try tuiState()
        tuiPress(&state, .char("e"), .char("3"))
        #expect(state.overlay == nil)
        #expect(state.activeEnvironmentValue?.name == "production")
        #expect(state.message == "Environment: production (protected: sending asks first)")
        tuiPress(&state, .char("e"), .char("9"))
        #expect(state.overlay != nil, "a digit with no environment does nothing")
        #expect(state.activeEnvironmentValue?.name == "production")
    }

    @Test func environmentPickerEscapeKeepsTheEnvironment() throws {
        var state = try tuiState()
        tuiPress(&state, .char("e"), KeyPress(.down), KeyPress(.escape))
        #expect(state.overlay == nil)
        #expect(state.activeEnvironmentValue?.name == "local")
        tuiPress(&state, .char("e"), .char("e"))
        #expect(state.overlay == nil, "e closes the picker too")
    }

    @Test func switchingEnvironmentChangesTheNextRequestsBaseURL() throws {
        var state = try tuiState()
        let first = try #require(sentRequest(tuiPress(&state, KeyPress(.enter))))
        #expect(first.1.url == "http://127.0.0.1:8080/v1/posts?page=1")
        #expect(first.1.environment.name == "local")
        tuiPress(&state, .char("e"), .char("2"))
        let second = try #require(sentRequest(tuiPress(&state, KeyPress(.enter))))
        #expect(second.1.url == "https://staging.example.com/v1/posts?page=1")
        #expect(second.1.request.headers["Authorization"] == "Bearer staging-token")
        #expect(second.0 == first.0 + 1)
    }

    @Test func aCollectionWithoutEnvironmentsSaysSo() throws {
        let collection = try CollectionLoader.parse("name: Bare\nendpoints:\n  - name: Ping\n    path: /ping\n")
        var state = AppState(collection: collection, collectionPath: "/tmp/bare.yaml")
        tuiPress(&state, .char("e"))
        #expect(state.overlay == nil)
        #expect(state.message == "This collection has no environments.")
    }

    // MARK: - Protected environments

    @Test func sendingToAProtectedEnvironmentAsksAndYSends() throws {
        var state = try tuiState(environment: "production")
        let asked = tuiPress(&state, KeyPress(.enter))
        #expect(asked.isEmpty)
        guard case .send(let id, let environment)? = state.confirmation?.onConfirm else {
            Issue.record("no confirmation")
            return
        }
        #expect(id == "List posts")
        #expect(environment == "production")
        let sent = try #require(sentRequest(tuiPress(&state, .char("y"))))
        #expect(state.overlay == nil)
        #expect(sent.1.url == "https://api.example.com/v1/posts?page=1")
        #expect(
            state.exchanges[sent.0]?.requestHeaders["Authorization"]?.contains("s3cret-prod-token") == false,
            "secrets are masked in the shown exchange")
    }

    @Test(arguments: [KeyPress.char("n"), KeyPress(.escape), KeyPress.char("N")])
    func declinedConfirmationSendsNothing(key: KeyPress) throws {
        var state = try tuiState(environment: "production")
        tuiPress(&state, KeyPress(.enter))
        let effects = tuiPress(&state, key)
        #expect(effects.isEmpty)
        #expect(state.overlay == nil)
        #expect(state.message == "Not sent.")
        #expect(state.exchanges.isEmpty)
    }

    @Test func otherKeysLeaveTheConfirmationOpen() throws {
        var state = try tuiState(environment: "production")
        tuiPress(&state, KeyPress(.enter))
        let effects = tuiPress(&state, .char("x"), KeyPress(.down), .char("?"))
        #expect(effects.isEmpty)
        guard case .send? = state.confirmation?.onConfirm else {
            Issue.record("confirmation closed")
            return
        }
    }

    // MARK: - Sending and the exchange lifecycle

    @Test func enterSendsAndShowsAnExchangeInFlight() throws {
        var state = try tuiState()
        let (id, request) = try #require(sentRequest(tuiPress(&state, KeyPress(.enter))))
        #expect(request.endpoint.id == "List posts")
        #expect(state.shownExchange == id)
        #expect(state.shown?.isInFlight == true)
        #expect(state.inFlightCount == 1)
        #expect(state.shown?.method == "GET")
        #expect(state.shown?.environment == "local")
    }

    @Test func enterOnAFolderSendsNothing() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down))
        #expect(tuiPress(&state, KeyPress(.enter)).isEmpty)
        #expect(state.message == "Select an endpoint to send.")
    }

    @Test func escapeCancelsTheShownExchangeInFlight() throws {
        var state = try tuiState()
        let (id, _) = try #require(sentRequest(tuiPress(&state, KeyPress(.enter))))
        let effects = tuiPress(&state, KeyPress(.escape))
        guard case .cancel(let cancelled)? = effects.first else {
            Issue.record("expected cancel, got \(effects)")
            return
        }
        #expect(cancelled == id)
        guard case .cancelled? = state.shown?.phase else {
            Issue.record("not cancelled")
            return
        }
        #expect(state.inFlightCount == 0)
        #expect(state.message == "Cancelled GET List posts")
        _ = AppReducer.reduce(
            &state,
            .received(exchange: id, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json"))
        )
        guard case .cancelled? = state.shown?.phase else {
            Issue.record("a late response replaced the cancellation")
            return
        }
        #expect(tuiPress(&state, KeyPress(.escape)).isEmpty, "nothing left to cancel")
    }

    @Test func progressReceivedAndFailedMoveTheExchangeOn() throws {
        var state = try tuiState()
        let (id, _) = try #require(sentRequest(tuiPress(&state, KeyPress(.enter))))
        _ = AppReducer.reduce(&state, .progress(exchange: id, bytes: 512))
        guard case .inFlight(let bytes)? = state.shown?.phase else {
            Issue.record("not in flight")
            return
        }
        #expect(bytes == 512)
        _ = AppReducer.reduce(
            &state,
            .received(
                exchange: id,
                tuiResponse(status: 201, reason: "Created", body: #"{"id":9}"#, contentType: "application/json")))
        #expect(state.shown?.response?.status == 201)
        _ = AppReducer.reduce(&state, .progress(exchange: id, bytes: 1024))
        #expect(state.shown?.response?.status == 201, "progress after the response changes nothing")

        let (second, _) = try #require(sentRequest(tuiPress(&state, KeyPress(.enter))))
        let failure = TransportFailure(
            category: "connection refused", message: "Connection refused (127.0.0.1:8080)",
            hint: "is the server running?")
        _ = AppReducer.reduce(&state, .failed(exchange: second, failure))
        guard case .failed(let shown)? = state.shown?.phase else {
            Issue.record("not failed")
            return
        }
        #expect(shown == failure)
        #expect(state.exchanges[id]?.response?.status == 201, "the first exchange keeps its response")
    }

    @Test func recordedAsksForTheHistoryToReload() throws {
        var state = try tuiState()
        let (id, _) = try #require(sentRequest(tuiPress(&state, KeyPress(.enter))))
        let effects = AppReducer.reduce(&state, .recorded(exchange: id, historyID: 41))
        guard case .loadHistory? = effects.first else {
            Issue.record("expected loadHistory")
            return
        }
        #expect(state.exchanges[id]?.historyID == 41)
    }

    @Test func resendSendsTheSelectedHistoryEntryInItsEnvironment() throws {
        var state = try tuiState()
        _ = AppReducer.reduce(
            &state, .historyLoaded([summary(id: 5, endpoint: "Users/Get user", environment: "staging")]))
        state.focus = .history
        let (_, request) = try #require(sentRequest(tuiPress(&state, .char("r"))))
        #expect(request.endpoint.id == "Users/Get user")
        #expect(request.url == "https://staging.example.com/v1/users/2")
    }

    @Test func resendToAProtectedEnvironmentAsksFirst() throws {
        var state = try tuiState()
        _ = AppReducer.reduce(
            &state, .historyLoaded([summary(id: 5, endpoint: "List posts", environment: "production")]))
        state.focus = .history
        #expect(tuiPress(&state, .char("r")).isEmpty)
        guard case .send(_, "production")? = state.confirmation?.onConfirm else {
            Issue.record("no confirmation")
            return
        }
    }

    @Test func resendOfAForeignEntryExplainsWhy() throws {
        var state = try tuiState()
        _ = AppReducer.reduce(&state, .historyLoaded([summary(id: 5, endpoint: nil)]))
        state.focus = .history
        #expect(tuiPress(&state, .char("r")).isEmpty)
        #expect(state.message?.contains("cannot be re-sent") == true)
    }

    // MARK: - Body search, filter, wrap, line numbers, tabs

    private func stateWithItems() throws -> AppState {
        var state = try tuiState()
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: tuiItemsJSON, contentType: "application/json"))
        state.focus = .response
        return state
    }

    @Test func searchFindsMatchingLinesAndNWrapsAround() throws {
        var state = try stateWithItems()
        let document = try #require(state.shownDocument)
        tuiPress(&state, .char("/"))
        #expect(state.input?.purpose == .bodySearch)
        tuiType(&state, "NAME")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.input == nil)
        let expected = (0..<document.lineCount).filter { document.plainLine($0).contains("\"name\"") }
        #expect(expected.count == 3)
        #expect(state.body.matches == expected)
        #expect(state.body.currentMatch == 0)
        #expect(state.body.text.currentMatchLine == expected[0])
        #expect(state.message == "3 lines match \"NAME\"")
        tuiPress(&state, .char("n"))
        #expect(state.body.currentMatch == 1)
        #expect(state.message == "Match 2/3")
        tuiPress(&state, .char("n"), .char("n"))
        #expect(state.body.currentMatch == 0, "n wraps to the first match")
        tuiPress(&state, .char("N"))
        #expect(state.body.currentMatch == 2, "N wraps to the last match")
        #expect(state.body.text.currentMatchLine == expected[2])
    }

    @Test func aSearchWithNoMatchSaysSoAndEscapeClearsIt() throws {
        var state = try stateWithItems()
        tuiPress(&state, .char("/"))
        tuiType(&state, "durian")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.body.matches.isEmpty)
        #expect(state.message == "No match for \"durian\"")
        tuiPress(&state, .char("n"))
        #expect(state.body.currentMatch == 0)
        tuiPress(&state, .char("/"))
        #expect(state.input?.text == "", "a new search starts empty")
        tuiPress(&state, KeyPress(.up))
        #expect(state.input?.text == "durian", "↑ brings back the last search")
        tuiPress(&state, KeyPress(.escape), KeyPress(.escape))
        #expect(state.body.search == "")
    }

    @Test func jsonPathFilterReplacesTheBodyAndEscapeRestoresIt() throws {
        var state = try stateWithItems()
        state.focus = .endpoints
        tuiPress(&state, .char("f"))
        #expect(state.focus == .response)
        #expect(state.input?.purpose == .bodyFilter)
        tuiType(&state, "$.items[*].name")
        tuiPress(&state, KeyPress(.enter))
        let filtered = try #require(state.body.filtered)
        #expect(
            (0..<filtered.lineCount).map { filtered.plainLine($0) } == [
                "[", "  \"apple\",", "  \"banana\",", "  \"cherry\"", "]",
            ])
        #expect(state.shownDocument?.lineCount == 5)
        #expect(state.message == "Filter: $.items[*].name")
        tuiPress(&state, KeyPress(.escape))
        #expect(state.body.filtered == nil)
        #expect(state.body.filter == "")
        #expect(state.shownDocument?.lineCount == state.shown?.response?.document.lineCount)
    }

    @Test func aBadJSONPathShowsTheErrorAndKeepsTheBody() throws {
        var state = try stateWithItems()
        tuiPress(&state, .char("f"))
        tuiType(&state, "$.items[")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.body.filtered == nil)
        #expect(state.body.filterError != nil)
        #expect(state.messageIsError)
    }

    @Test func theFilterNeedsAJSONBody() throws {
        var state = try tuiState()
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "plain words", contentType: "text/plain"))
        tuiPress(&state, .char("f"))
        #expect(state.input == nil)
        #expect(state.message == "The JSONPath filter works on JSON bodies and on the data of events.")
    }

    @Test func wrapAndLineNumbersToggle() throws {
        var state = try stateWithItems()
        #expect(!state.body.text.wrap)
        #expect(state.body.text.showLineNumbers)
        tuiPress(&state, .char("w"), .char("#"))
        #expect(state.body.text.wrap)
        #expect(!state.body.text.showLineNumbers)
        tuiPress(&state, .char("w"), .char("#"))
        #expect(!state.body.text.wrap)
        #expect(state.body.text.showLineNumbers)
    }

    @Test func wrapAndLineNumbersSurviveTheNextResponse() throws {
        var state = try stateWithItems()
        tuiPress(&state, .char("w"), .char("#"))
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json"))
        #expect(state.body.text.wrap)
        #expect(!state.body.text.showLineNumbers)
    }

    @Test func bracketsCycleTheResponseTabsBothWays() throws {
        var state = try stateWithItems()
        var seen: [ResponseTab] = []
        for _ in 0..<5 {
            tuiPress(&state, .char("]"))
            seen.append(state.responseTab)
        }
        #expect(seen == [.headers, .raw, .timing, .request, .body])
        tuiPress(&state, .char("["))
        #expect(state.responseTab == .request)
        tuiPress(&state, KeyPress(.right, .alt))
        #expect(state.responseTab == .body)
    }

    @Test func leftAndRightScrollTheUnwrappedBodyAndSwitchTabsOtherwise() throws {
        var state = try stateWithItems()
        tuiPress(&state, KeyPress(.right))
        #expect(state.responseTab == .body, "unwrapped body: right scrolls sideways")
        tuiPress(&state, .char("w"), KeyPress(.right))
        #expect(state.responseTab == .headers, "wrapped body: right switches tab")
        tuiPress(&state, KeyPress(.left))
        #expect(state.responseTab == .body)
    }

    // MARK: - Copy as curl, help, quit

    @Test func copyAsCurlCopiesTheRealCommandAndShowsItMasked() throws {
        var state = try tuiState(environment: "production")
        let effects = tuiPress(&state, .char("c"))
        guard case .copyToClipboard(let command)? = effects.first else {
            Issue.record("expected a copy, got \(effects)")
            return
        }
        #expect(command.contains("s3cret-prod-token"))
        #expect(command.contains("https://api.example.com/v1/posts?page=1"))
        #expect(command.hasPrefix("curl"))
        guard case .text(let title, let lines)? = state.overlay else {
            Issue.record("no overlay")
            return
        }
        #expect(title == "curl · List posts · production (copied to the clipboard)")
        let shown = lines.joined(separator: "\n")
        #expect(!shown.contains("s3cret-prod-token"))
        #expect(shown.contains("https://api.example.com/v1/posts?page=1"))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.overlay == nil)
    }

    @Test func copyAsCurlOnAFolderExplains() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down))
        #expect(tuiPress(&state, .char("c")).isEmpty)
        #expect(state.message == "Select an endpoint to copy as curl.")
    }

    @Test(arguments: [KeyPress(.escape), KeyPress(.enter), KeyPress.char("q"), KeyPress.char("?")])
    func helpOpensAndCloses(key: KeyPress) throws {
        var state = try tuiState()
        tuiPress(&state, .char("?"))
        guard case .help? = state.overlay else {
            Issue.record("no help")
            return
        }
        tuiPress(&state, .char("j"))
        guard case .help? = state.overlay else {
            Issue.record("help closed on j")
            return
        }
        #expect(tuiPress(&state, key).isEmpty)
        #expect(state.overlay == nil)
        #expect(!state.quitting, "q closes the help, it does not quit")
    }

    @Test(arguments: [KeyPress.char("q"), KeyPress.ctrl("c")])
    func quitSetsQuitting(key: KeyPress) throws {
        var state = try tuiState()
        tuiPress(&state, key)
        #expect(state.quitting)
    }

    // MARK: - Mouse, resize, paste

    @Test func clickingAListRowFocusesAndSelectsIt() throws {
        var state = try tuiState(width: 120, height: 40)
        let layout = AppLayout(size: state.size, state: state)
        let inner = Block.inner(layout.endpoints)
        _ = tuiReduce(
            &state, .input(.mouse(MouseEvent(.press(.left), at: Point(x: inner.x + 2, y: inner.y + 2))), at: tuiNow))
        #expect(state.focus == .endpoints)
        #expect(selectedName(state) == "Get user")
        let environments = Block.inner(layout.environments)
        _ = tuiReduce(
            &state,
            .input(
                .mouse(MouseEvent(.press(.left), at: Point(x: environments.x + 1, y: environments.y + 1))), at: tuiNow))
        #expect(state.focus == .environments)
        #expect(state.environmentList.selected == 1)
        #expect(state.activeEnvironment == 0, "a click selects, Enter switches")
        _ = tuiReduce(
            &state,
            .input(
                .mouse(MouseEvent(.press(.left), at: Point(x: layout.response.x + 3, y: layout.response.y + 3))),
                at: tuiNow))
        #expect(state.focus == .response)
    }

    @Test func clickingAHistoryRowOpensIt() throws {
        var state = try tuiState(width: 120, height: 40)
        _ = AppReducer.reduce(
            &state, .historyLoaded([summary(id: 9, endpoint: "List posts"), summary(id: 8, endpoint: "List posts")]))
        let inner = Block.inner(AppLayout(size: state.size, state: state).history)
        let effects = tuiReduce(
            &state, .input(.mouse(MouseEvent(.press(.left), at: Point(x: inner.x + 1, y: inner.y + 1))), at: tuiNow))
        #expect(state.focus == .history)
        guard case .openHistory(8)? = effects.first else {
            Issue.record("expected openHistory(8), got \(effects)")
            return
        }
    }

    @Test func theWheelMovesTheListUnderThePointer() throws {
        var state = try tuiState(width: 120, height: 40)
        let inner = Block.inner(AppLayout(size: state.size, state: state).endpoints)
        let point = Point(x: inner.x + 1, y: inner.y)
        _ = tuiReduce(&state, .input(.mouse(MouseEvent(.wheelDown, at: point)), at: tuiNow))
        #expect(state.endpointList.selected == 3)
        _ = tuiReduce(&state, .input(.mouse(MouseEvent(.wheelUp, at: point)), at: tuiNow))
        #expect(state.endpointList.selected == 0)
    }

    @Test func theWheelScrollsTheResponseBody() throws {
        var state = try tuiState(width: 80, height: 14)
        let long = "[" + (1...60).map(String.init).joined(separator: ",") + "]"
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: long, contentType: "application/json"))
        let response = AppLayout(size: state.size, state: state).response
        _ = tuiReduce(
            &state, .input(.mouse(MouseEvent(.wheelDown, at: Point(x: response.x + 5, y: response.y + 4))), at: tuiNow))
        #expect(state.focus == .response)
        #expect(state.body.text.topLine == 3)
    }

    @Test func mouseIsIgnoredUnderAnOverlay() throws {
        var state = try tuiState(width: 120, height: 40)
        tuiPress(&state, .char("?"))
        let inner = Block.inner(AppLayout(size: state.size, state: state).endpoints)
        _ = tuiReduce(
            &state, .input(.mouse(MouseEvent(.press(.left), at: Point(x: inner.x + 1, y: inner.y + 2))), at: tuiNow))
        #expect(state.endpointList.selected == 0)
    }

    @Test func theNarrowLayoutShowsTheLastFocusedList() throws {
        var state = try tuiState(width: 40, height: 12)
        #expect(!AppLayout(size: state.size, state: state).endpoints.isEmpty)
        tuiPress(&state, KeyPress(.backTab))
        let layout = AppLayout(size: state.size, state: state)
        #expect(layout.endpoints.isEmpty)
        #expect(!layout.environments.isEmpty)
        #expect(screenText(state).contains("Environments"))
        _ = tuiReduce(
            &state,
            .input(
                .mouse(MouseEvent(.press(.left), at: Point(x: layout.response.x + 2, y: layout.response.y + 2))),
                at: tuiNow))
        #expect(state.focus == .response)
        #expect(state.lastList == .environments)
    }

    @Test func resizeChangesTheSize() throws {
        var state = try tuiState()
        #expect(tuiReduce(&state, .input(.resize(Size(width: 40, height: 12)), at: tuiNow)).isEmpty)
        #expect(state.size == Size(width: 40, height: 12))
        #expect(AppLayout(size: state.size, state: state).isNarrow)
    }

    @Test func pasteGoesIntoTheInputWithoutLineBreaks() throws {
        var state = try tuiState()
        _ = tuiReduce(&state, .input(.paste("ignored"), at: tuiNow))
        #expect(state.input == nil)
        tuiPress(&state, .char("/"))
        _ = tuiReduce(&state, .input(.paste("cre\nate"), at: tuiNow))
        #expect(state.input?.text == "create")
        #expect(selectedName(state) == "Create user", "a pasted filter applies live")
    }

    // MARK: - Other actions

    @Test func collectionReloadKeepsTheSelectedEndpoint() throws {
        var state = try tuiState()
        tuiPress(&state, .char("G"))
        let reordered = tuiCollectionYAML.replacingOccurrences(
            of: "  - name: List posts\n    method: GET\n    path: /posts\n    query: { page: \"1\" }\n", with: "")
        let collection = try CollectionLoader.parse(reordered + "\n  - name: List posts\n    path: /posts\n")
        _ = AppReducer.reduce(&state, .collectionReloaded(collection))
        #expect(selectedName(state) == "Create user")
        #expect(state.message == "Reloaded shop.yaml")
    }

    @Test func messagesShowAndTheNextKeyClearsThem() throws {
        var state = try tuiState()
        _ = AppReducer.reduce(&state, .collectionFailed("shop.yaml:3:1: bad"))
        #expect(state.message == "shop.yaml does not load; the last version that did stays in use (! shows why)")
        #expect(state.messageIsError)
        tuiPress(&state, KeyPress(.down))
        #expect(state.message == nil)
        #expect(state.problems.loadError == "shop.yaml:3:1: bad", "the error itself stays until the file loads")
    }

    // MARK: - Fixtures

    @Test func historyRowsShowTheTimeOnA24HourClockInTheStatesZone() throws {
        var state = try tuiState()
        var afternoon = summary(id: 1, endpoint: "List posts")
        afternoon.startedAt = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06:40 UTC
        tuiReduce(&state, .historyLoaded([afternoon]))
        #expect(state.historyItems(width: 40).first?.spans.first?.text == "11:06 ")
        state.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        #expect(state.historyItems(width: 40).first?.spans.first?.text == "20:06 ", "not 08:06: the clock has 24 hours")
    }

    private func summary(id: Int64, endpoint: String?, environment: String? = "local") -> HistorySummary {
        HistorySummary(
            id: id, startedAt: tuiNow, environment: environment, endpoint: endpoint, method: "GET",
            url: "http://127.0.0.1:8080/v1/posts", status: 200, reason: "OK", responseBodySize: 2,
            contentType: "application/json", totalMilliseconds: 12, transportError: nil)
    }

    private func entry(id: Int64) -> HistoryEntry {
        HistoryEntry(
            id: id, startedAt: tuiNow, collectionPath: "/tmp/shop.yaml", environment: "local",
            endpoint: "Users/Get user", method: "GET", url: "http://127.0.0.1:8080/v1/users/1",
            requestHeaders: [:], requestBody: nil, status: 200, reason: "OK",
            responseHeaders: ["Content-Type": "application/json"], responseBody: Data(#"{"id":2}"#.utf8),
            timings: HistoryTimings(totalMilliseconds: 12), httpVersion: "HTTP/1.1", transportError: nil)
    }
}
