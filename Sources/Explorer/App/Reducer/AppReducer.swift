import Foundation
import Terminal

/// The explorer's one reducer: `reduce(&state, action) -> [effects]`, pure. It reads no clock
/// (the time comes with each input) and resolves no request (effects do, and report back).
///
/// This file only dispatches: each action, key, overlay and command goes to the slice that
/// handles it, in an `AppReducer+*.swift` named after what it does (Navigation, Sending,
/// Response, BodyView, History, Environments, Editing, Endpoints, RequestEditor, the panels …).
enum AppReducer {
    static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        let before = DraftsBefore(action, state)
        var effects = apply(action, &state)
        effects += keepDrafts(after: action, since: before, &state)
        return effects + refreshPreview(&state) + refreshVariables(&state)
    }

    // MARK: - Actions

    private static func apply(_ action: AppAction, _ state: inout AppState) -> [AppEffect] {
        switch action {
        case .input(let event, let time):
            state.now = time
            return handle(event, &state)
        case .collectionReloaded(let collection, let read):
            if state.collectionReads.admits(read) { collectionReloaded(collection, &state) }
        case .collectionFailed(let message, let read):
            if state.collectionReads.admits(read) { collectionFailed(message, &state) }
        case .collectionRefused(let refusal, let read):
            if state.collectionReads.admits(read) { collectionRefused(refusal, &state) }
        case .historyLoaded(let entries):
            historyLoaded(entries, &state)
        case .historyOpened(let entry, let snapshot):
            historyOpened(entry, snapshot, &state)
        case .comparisonReady(let comparison):
            comparisonReady(comparison, &state)
        case .environmentsCompared(let comparison, let matches):
            comparisonReady(comparison, &state)
            state.message =
                matches
                ? "The answers match; Esc closes the comparison." : "The answers differ; Esc closes the comparison."
            return [.loadHistory(collectionPath: state.historyCollectionFilter)]
        case .progress(let id, let bytes, let head):
            progress(id, bytes: bytes, head: head, &state)
        case .received(let id, let response):
            received(id, response, &state)
        case .streamed(let id, let snapshot):
            streamed(id, snapshot, &state)
        case .failed(let id, let failure):
            failed(id, failure, &state)
        case .resolved(let id, let preview):
            state.exchanges[id]?.show(preview)
        case .promptsNeeded(let target, let prompts):
            return promptsNeeded(target, prompts, &state)
        case .resolveFailed(let id, let error):
            resolveFailed(id, error, &state)
        case .previewResolved(let preview):
            previewResolved(preview, &state)
        case .showText(let title, let lines):
            state.overlay = .text(title: title, lines: lines)
        case .webSocketOpened(let id):
            state.webSocketExchanges.insert(id)
        case .recorded(let id, let historyID):
            return recorded(id, historyID: historyID, &state)
        case .checked(let id, let report):
            checked(id, report, &state)
        case .message(let text, let isError):
            state.message = text
            state.messageIsError = isError
        case .cookiesListed(let environment, let cookies, let problem):
            cookiesListed(environment, cookies, problem: problem, &state)
        case .tokensListed(let environment, let tokens, let problem):
            tokensListed(environment, tokens, problem: problem, &state)
        case .grpcMethodsListed(let environment, let load):
            grpcMethodsListed(environment: environment, load, &state)
        case .schemaLoaded(let endpointID, let environment, let load):
            schemaLoaded(endpointID: endpointID, environment: environment, load, &state)
        case .searchFinished(let id, let query, let lines):
            searchFinished(id, query: query, lines: lines, &state)
        case .foldFinished(let id, let folded):
            foldFinished(id, folded, &state)
        case .filterFinished(let id, let expression, let result):
            filterFinished(id, expression: expression, result, &state)
        case .endpointEdited(let endpoint):
            endpointEdited(endpoint, &state)
        case .variablesResolved(let key, let variables):
            variablesResolved(key, variables, &state)
        case .variablesListed(let environment, let rows):
            variablesListed(environment, rows, &state)
        case .runStepped(let id, let result):
            runStepped(id, result, &state)
        case .runFinished(let id, let summary):
            return runFinished(id, summary, &state)
        case .endpointSaved(let id):
            endpointSaved(id, &state)
        case .mockStarted(let started):
            mockStarted(started, &state)
        case .mockFailed(let reason):
            mockFailed(reason, &state)
        case .mockAnswered(let lines):
            state.mock?.append(lines)
        case .mockStateReset(let count):
            mockStateReset(count, &state)
        }
        return []
    }

    // MARK: - Input

    private static func handle(_ event: InputEvent, _ state: inout AppState) -> [AppEffect] {
        switch event {
        case .resize(let size):
            state.size = size
            return []
        case .tick:
            return []
        case .paste(let text):
            if state.input != nil {
                typeText(text.filter { !$0.isNewline }, &state)
            } else if case .palette = state.overlay {
                pasteIntoPalette(text.filter { !$0.isNewline }, &state)
            } else if state.compose.editor.bodyText != nil {
                pasteIntoBody(text, &state)
            }
            return []
        case .mouse(let mouse):
            return handleMouse(mouse, &state)
        case .key(let press):
            state.message = nil
            if state.input != nil { return handleTyping(press, &state) }
            if state.overlay != nil { return handleOverlay(press, &state) }
            if state.compose.editor.bodyText != nil { return handleBodyEditor(press, &state) }
            guard let command = state.keymap.command(for: press) else { return [] }
            return perform(command, &state)
        }
    }

    /// A key while a line is typed in the footer: Esc drops it, Enter hands it to what asked for
    /// it, Tab completes, any other key edits it.
    private static func handleTyping(_ press: KeyPress, _ state: inout AppState) -> [AppEffect] {
        guard var input = state.input else { return [] }
        switch press.key {
        case .escape:
            if case .listFilter(let pane) = input.purpose { setListFilter("", pane, &state) }
            if case .templatePrompt(let label, _) = input.purpose { promptCancelled(label, &state) }
            if input.purpose == .bodyFilter { clearBodyFilter(&state) }
            state.input = nil
        case .enter:
            state.input = nil
            switch input.purpose {
            case .listFilter: break
            case .bodySearch:
                state.rememberSearch(input.text)
                return runSearch(input.text, &state)
            case .bodyFilter: return applyBodyFilter(input.text, &state)
            case .requestLine(let id):
                // As in every URL bar: Enter applies the line and sends it.
                guard applyRequestLine(input.text, to: id, &state) else { return [] }
                return sendEndpoint(id, &state)
            case .savePath(let id): return saveBody(of: id, to: input.text, state)
            case .saveAs(let id):
                return saveNewDraft(id, as: input.text, &state)
            case .rename(let id):
                return relocate(id, name: input.text, &state)
            case .move(let id):
                return relocate(id, folderPath: folderPath(from: input.text), &state)
            case .row(let table, let id, let index):
                applyRow(input.text, table, endpointID: id, index: index, &state)
            case .webSocketMessage, .webSocketClose:
                return webSocketInput(input, &state)
            case .templatePrompt(let label, _):
                return promptAnswered(label, input.text, &state)
            }
        case .tab:
            if case .webSocketMessage = input.purpose { return cycleSavedMessage(&state) }
            completeRow(&state)
        case .up where input.purpose == .bodySearch, .down where input.purpose == .bodySearch:
            state.recallSearch(older: press.key == .up)
        default:
            if input.field.handle(press) {
                state.input = input
                typed(&state)
            }
        }
        return []
    }

    private static func typeText(_ text: String, _ state: inout AppState) {
        state.input?.field.insert(text)
        typed(&state)
    }

    /// Applies what is being typed live: list filters narrow as you type, a body filter
    /// applies as you type on small bodies.
    private static func typed(_ state: inout AppState) {
        guard let input = state.input else { return }
        switch input.purpose {
        case .listFilter(let pane):
            setListFilter(input.text, pane, &state)
        case .bodyFilter:
            filterAsTyped(input.text, &state)
        default:
            break
        }
    }

    /// A key while an overlay is open: the overlay's own keys.
    private static func handleOverlay(_ press: KeyPress, _ state: inout AppState) -> [AppEffect] {
        guard let overlay = state.overlay else { return [] }
        switch overlay {
        case .palette(let palette):
            return handlePalette(press, palette, &state)
        case .variables(let list):
            return handleVariables(press, list, &state)
        case .cookies(let panel):
            return handleCookies(press, panel, &state)
        case .tokens(let panel):
            return handleTokens(press, panel, &state)
        case .schema(let panel):
            return handleSchema(press, panel, &state)
        case .environmentPicker(let list):
            return handleEnvironmentPicker(press, list, &state)
        case .confirmation(let confirmation):
            return answer(press, to: confirmation, &state)
        case .problems(let offset):
            return handleProblems(press, offset: offset, &state)
        case .mockLog(let offset):
            return handleMockLog(press, offset: offset, &state)
        case .help(let offset):
            state.overlay = scrolled(press, offset: offset, panel: state.helpPanel(offset: offset), closing: "?", state)
                .map { .help(offset: $0) }
        case .text:
            switch press.key {
            case .escape, .enter, .character("q"), .character("?"): state.overlay = nil
            default: break
            }
        }
        return []
    }

    // MARK: - Commands

    static func perform(_ command: AppCommand, _ state: inout AppState) -> [AppEffect] {
        switch command {
        case .quit:
            state.quitting = true
        case .help:
            state.overlay = .help(offset: 0)
        case .problems:
            state.overlay = .problems(offset: 0)
        case .historyScope:
            return toggleHistoryScope(&state)
        case .palette:
            openPalette(&state)
        case .focusNext, .focusPrevious:
            cycleFocus(forward: command == .focusNext, &state)
        case .up, .down, .pageUp, .pageDown, .top, .bottom:
            return move(command, &state)
        case .left where state.focus == .request, .right where state.focus == .request:
            cycleRequestTab(command == .right ? 1 : -1, &state)
        case .nextTab where state.focus == .request, .previousTab where state.focus == .request:
            cycleRequestTab(command == .nextTab ? 1 : -1, &state)
        case .left, .right:
            moveSideways(command, &state)
        case .nextTab:
            cycleTab(1, &state)
        case .previousTab:
            cycleTab(-1, &state)
        case .send:
            if state.focus == .request, let effects = requestEnter(&state) { return effects }
            if state.focus == .response, state.responseTab == .schema { return showViolationInBody(&state) }
            return sendFromFocus(&state)
        case .resend:
            guard state.focus == .history || state.focus == .response && state.shown?.historyID != nil,
                let entry = state.focus == .history
                    ? state.selectedHistoryEntry : state.history.first(where: { $0.id == state.shown?.historyID })
            else {
                state.message = "r re-sends a history entry: Tab to History and select one."
                return []
            }
            return resend(entry, &state)
        case .environments:
            openEnvironmentPicker(&state)
        case .cookies:
            return openCookies(&state)
        case .tokens:
            return openTokens(&state)
        case .graphQLSchema:
            return openSchema(&state)
        case .search:
            startSearch(&state)
        case .filter:
            startFilter(&state)
        case .nextMatch, .previousMatch:
            stepMatch(command == .nextMatch ? 1 : -1, &state)
        case .copyAsCurl:
            return copyAsCurl(&state)
        case .cancel:
            return cancel(&state)
        case .toggleWrap:
            toggleWrap(&state)
        case .toggleLineNumbers:
            state.body.text.showLineNumbers.toggle()
        case .compare:
            return compare(&state)
        case .compareEnvironments:
            openComparePicker(&state)
        case .edit:
            startRequestLineEdit(&state)
        case .copyBody:
            return copyBody(&state)
        case .editInEditor:
            return editInEditor(&state)
        case .saveEdits:
            saveEdits(&state)
        case .newEndpoint:
            return newEndpoint(&state)
        case .duplicateEndpoint:
            duplicateEndpoint(&state)
        case .renameEndpoint:
            startRename(&state)
        case .moveEndpoint:
            startMove(&state)
        case .deleteEndpoint where state.focus == .request && state.shownTable != nil:
            deleteRow(&state)
        case .deleteEndpoint:
            askToDelete(&state)
        case .addRow:
            addRow(&state)
        case .toggleRow:
            toggleRow(&state)
        case .webSocketMessage, .webSocketPing, .webSocketClose:
            return webSocketCommand(command, &state)
        case .bodyMode:
            cycleBodyMode(&state)
        case .undoDelete:
            return undoDelete(&state)
        case .variables:
            return openVariables(&state)
        case .runFolder:
            return runSelectedFolder(&state)
        case .undo, .redo:
            undoDraft(redo: command == .redo, &state)
        case .fold:
            return fold(&state)
        case .saveBody:
            askSavePath(&state)
        case .mock:
            return toggleMock(&state)
        case .mockLog:
            openMockLog(&state)
        case .mockReset:
            return resetMock(&state)
        case .statefulMock:
            return toggleMock(&state, stateful: true)
        }
        return []
    }
}
