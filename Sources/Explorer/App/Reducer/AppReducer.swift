import Foundation
import History
import NetworkingCore
import Query
import Terminal
import Workspace

/// The explorer's one reducer: `reduce(&state, action) -> [effects]`, pure. It reads no clock
/// (the time comes with each input) and resolves no request (effects do, and report back).
enum AppReducer {
    static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        let drafts = state.drafts
        let steps = (state.compose.undo.count, state.compose.redo.count)
        let run = typingRun(action, state)
        var effects = apply(action, &state)
        if state.drafts != drafts {
            // What the user did (not a reload, not an undo itself) can be undone, a word typed
            // in the body editor as one step; every change is kept on disk.
            if isUserEdit(action), steps == (state.compose.undo.count, state.compose.redo.count) {
                let continues = run != nil && run?.id == state.compose.typingRun && !(state.compose.typedSpace && run?.isSpace == false)
                if !continues { recordUndo(drafts, &state) }
                state.compose.typingRun = run?.id
            }
            effects.append(.storeDrafts(Array(state.drafts.values), collectionPath: state.collectionPath))
        } else if case .input = action, run == nil {
            state.compose.typingRun = nil
        }
        if let run { state.compose.typedSpace = run.isSpace }
        return effects + refreshPreview(&state) + refreshVariables(&state)
    }

    /// The endpoint whose body a key types a character into (no modifier), and whether it is
    /// a space; nil for any other input.
    private static func typingRun(_ action: AppAction, _ state: AppState) -> (id: String, isSpace: Bool)? {
        guard case .input(.key(let press), _) = action, press.modifiers.isEmpty, case .character(let character) = press.key,
              state.compose.editor.bodyText != nil, let id = state.compose.editor.bodyEndpointID else { return nil }
        return (id, character.isWhitespace)
    }

    private static func isUserEdit(_ action: AppAction) -> Bool {
        switch action {
        case .input, .endpointEdited: return true
        default: return false
        }
    }

    private static func apply(_ action: AppAction, _ state: inout AppState) -> [AppEffect] {
        switch action {
        case .input(let event, let time):
            state.now = time
            return handle(event, &state)
        case .collectionReloaded(let collection):
            // An edit that the file now holds is no longer a draft; one whose endpoint is gone
            // from the file stays, as a new endpoint (nothing typed is lost).
            state.drafts = state.drafts.filter { id, draft in
                collection.endpoint(withID: id).map { $0 != draft } ?? true
            }
            // The explorer's own writes come back through the watcher too: those change
            // nothing on screen, and their own message ("Deleted …, u brings it back") stays.
            let unchanged = state.collection.map {
                $0.endpoints == collection.endpoints && $0.variables == collection.variables
                    && $0.environments.map(\.description) == collection.environments.map(\.description)
            } ?? false
            state.setCollection(collection)
            if !unchanged {
                state.message = "Reloaded \(state.collectionFileName)"
                state.messageIsError = false
            }
        case .collectionFailed(let message):
            state.message = message
            state.messageIsError = true
        case .historyLoaded(let entries):
            state.history = entries
            state.historyList.selected = min(state.historyList.selected, max(0, entries.count - 1))
        case .historyOpened(let entry, let snapshot):
            guard state.selectedHistoryEntry?.id == entry.id || state.focus != .history else { return [] }
            show(entry, snapshot, &state)
        case .comparisonReady(let comparison):
            state.comparison = comparison
            state.focus = .response
            let changed = comparison.lines.filter { if case .same = $0 { return false } else { return true } }.count
            state.message = changed == 0 ? "The two exchanges are the same." : "\(changed) line\(changed == 1 ? "" : "s") differ; Esc closes the comparison."
        case .progress(let id, let bytes, let head):
            guard state.exchanges[id]?.isInFlight == true else { return [] }
            state.exchanges[id]?.phase = .inFlight(bytes: bytes)
            if let head { state.exchanges[id]?.head = head }
        case .received(let id, let response):
            guard state.exchanges[id]?.isInFlight == true else { return [] }
            let streamed = state.exchanges[id]?.partial != nil
            state.exchanges[id]?.phase = .received(response)
            state.exchanges[id]?.partial = nil
            // A body shown while it streamed keeps its scroll position; search and filters
            // start over on the whole body.
            if state.shownExchange == id, !streamed { resetBodyView(&state) }
        case .streamed(let id, let snapshot):
            guard state.exchanges[id]?.isInFlight == true else { return [] }
            let first = state.exchanges[id]?.partial == nil
            // The pane shows one line more above the text while the body streams.
            let height = max(1, AppLayout(size: state.size, state: state).responseTextHeight - 1)
            let before = ResponseContent.source(for: state).lineCount
            let following = state.shownExchange == id && state.body.text.topLine + height >= before
            state.exchanges[id]?.partial = snapshot
            guard state.shownExchange == id else { return [] }
            if first {
                resetBodyView(&state)
            } else if following, snapshot.document.kind == .events {
                // A live event view follows the tail until the user scrolls up.
                state.body.text.scrollToBottom(source: ResponseContent.source(for: state), height: height)
            }
        case .failed(let id, let failure):
            guard state.exchanges[id]?.isInFlight == true else { return [] }
            state.exchanges[id]?.phase = .failed(failure)
        case .resolved(let id, let preview):
            state.exchanges[id]?.show(preview)
        case .promptsNeeded(let target, let prompts):
            return promptsNeeded(target, prompts, &state)
        case .resolveFailed(let id, let error):
            guard state.exchanges[id]?.isInFlight == true else { return [] }
            state.exchanges[id]?.phase = .failed(TransportFailure(category: "not sent", message: error, hint: nil))
            state.message = error
            state.messageIsError = true
        case .previewResolved(let preview):
            guard preview.key == state.previewKey else { return [] }
            state.preview = preview
        case .showText(let title, let lines):
            state.overlay = .text(title: title, lines: lines)
        case .webSocketOpened(let id):
            state.webSocketExchanges.insert(id)
        case .recorded(let id, let historyID):
            state.exchanges[id]?.historyID = historyID
            return [.loadHistory]
        case .checked(let id, let report):
            state.exchanges[id]?.checks = report
            // A token the response carried and a capture kept as secret is masked from now on.
            let captured = report.captured.filter(\.isSecret).map(\.value)
            if !captured.isEmpty, let masker = state.exchanges[id]?.masker {
                state.exchanges[id]?.masker = masker.adding(secretValues: captured)
            }
        case .message(let text, let isError):
            state.message = text
            state.messageIsError = isError
        case .cookiesListed(let environment, let cookies, let problem):
            cookiesListed(environment, cookies, problem: problem, &state)
        case .tokensListed(let environment, let tokens, let problem):
            tokensListed(environment, tokens, problem: problem, &state)
        case .schemaLoaded(let endpointID, let environment, let load):
            schemaLoaded(endpointID: endpointID, environment: environment, load, &state)
        case .searchFinished(let id, let query, let lines):
            guard state.shownExchange == id, state.body.search == query else { return [] }
            showMatches(lines, for: query, &state)
        case .foldFinished(let id, let folded):
            guard state.shownExchange == id, state.body.foldDepth == folded.depth else { return [] }
            state.body.folded = folded
            state.body.text.scrollToTop()
            state.message = "Folded below depth \(folded.depth) (z: one level deeper)"
        case .filterFinished(let id, let expression, let result):
            guard state.shownExchange == id, state.body.filter == expression else { return [] }
            showFilterResult(result, expression, &state)
        case .endpointEdited(let endpoint):
            let original = state.collection?.endpoint(withID: endpoint.id)
            state.drafts[endpoint.id] = endpoint == original ? nil : endpoint
            state.message = state.drafts[endpoint.id] == nil
                ? "No change."
                : "Edited \(endpoint.id) for this session; Enter sends it, S saves it to the file."
            state.messageIsError = false
        case .variablesResolved(let key, let variables):
            guard key == state.compose.editor.variablesKey else { return [] }
            state.compose.editor.variables = variables
        case .variablesListed(let environment, let rows):
            variablesListed(environment, rows, &state)
        case .runStepped(let id, let result):
            runStepped(id, result, &state)
        case .runFinished(let id, let summary):
            return runFinished(id, summary, &state)
        case .endpointSaved(let id):
            state.drafts[id] = nil
            state.message = "Saved \(id) to \(state.collectionFileName)."
            state.messageIsError = false
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
            case .bodySearch: return runSearch(input.text, &state)
            case .bodyFilter: return applyBodyFilter(input.text, &state)
            case .requestLine(let id): applyRequestLine(input.text, to: id, &state)
            case .savePath(let id):
                guard let response = state.exchanges[id]?.response, !input.text.isEmpty else { return [] }
                return [.saveBody(response.document.raw, path: input.text)]
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

    /// Applies what is being typed live: list filters narrow as you type.
    private static func typed(_ state: inout AppState) {
        guard let input = state.input else { return }
        switch input.purpose {
        case .listFilter(let pane):
            setListFilter(input.text, pane, &state)
        case .bodyFilter:
            // Live as you type on bodies that filter in a blink; an expression still being
            // typed that does not parse yet leaves the last good result on screen.
            guard let document = state.shown?.response?.document, document.byteCount <= backgroundThreshold / 2,
                  let filtered = try? JSONPath.filter(document, input.text) else { return }
            state.body.filter = input.text
            state.body.filterError = nil
            state.body.filtered = filtered
            state.body.text.scrollToTop()
        default:
            break
        }
    }

    private static func setListFilter(_ text: String, _ pane: Pane, _ state: inout AppState) {
        switch pane {
        case .environments: state.environmentList.setFilter(text)
        case .history: state.historyList.setFilter(text)
        default:
            state.endpointList.setFilter(text)
            // Land on the best match: the endpoint named exactly so, else one whose name
            // starts with the text, else the first endpoint (never a folder heading).
            let visible = state.visibleEndpointRows
            let names = visible.map { state.endpointRows[$0].endpoint?.name.lowercased() }
            let wanted = text.lowercased()
            let best = names.firstIndex { $0 == wanted }
                ?? names.firstIndex { $0?.hasPrefix(wanted) == true }
                ?? names.firstIndex { $0?.contains(wanted) == true }
                ?? names.firstIndex { $0 != nil }
            if let best { state.endpointList.selected = best }
        }
    }

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
        case .environmentPicker(var list):
            let command = state.keymap.command(for: press)
            switch (press.key, command) {
            case (.escape, _), (_, .quit?), (_, .environments?):
                state.overlay = nil
                if state.resendPending != nil { state.message = "Not sent." }
                state.resendPending = nil
            case (.enter, _):
                state.overlay = nil
                return picked(list.selected, &state)
            case (_, .up?):
                list.move(by: -1, count: state.environments.count)
                state.overlay = .environmentPicker(list)
            case (_, .down?):
                list.move(by: 1, count: state.environments.count)
                state.overlay = .environmentPicker(list)
            case (.character(let digit), _) where digit.wholeNumberValue.map { (1...state.environments.count).contains($0) } ?? false:
                state.overlay = nil
                return picked(digit.wholeNumberValue! - 1, &state)
            default:
                break
            }
        case .confirmSend(let endpointID, let environment):
            switch press.key {
            case .character("y"), .character("Y"), .enter:
                state.overlay = nil
                guard let endpoint = state.endpoint(withID: endpointID),
                      let environment = state.environments.first(where: { $0.name == environment }) else { return [] }
                return send(endpoint, in: environment, &state)
            case .character("n"), .character("N"), .escape, .character("q"):
                state.overlay = nil
                state.message = "Not sent."
            default:
                break
            }
        case .confirmSave(let endpointID):
            switch press.key {
            case .character("y"), .character("Y"), .enter:
                state.overlay = nil
                guard let draft = state.drafts[endpointID] else { return [] }
                return [.changeCollection(.put(draft, replacing: endpointID), collectionPath: state.collectionPath)]
            case .character("n"), .character("N"), .escape, .character("q"):
                state.overlay = nil
                state.message = "Not saved; the edit stays in this session."
            default:
                break
            }
        case .confirmDelete(let endpointID):
            switch press.key {
            case .character("y"), .character("Y"):
                state.overlay = nil
                return delete(endpointID, &state)
            case .character("n"), .character("N"), .escape, .character("q"), .enter:
                state.overlay = nil
                state.message = "Not deleted."
            default:
                break
            }
        case .restoreDrafts:
            switch press.key {
            case .character("y"), .character("Y"), .enter:
                return restoreDrafts(true, &state)
            case .character("n"), .character("N"):
                return restoreDrafts(false, &state)
            default:
                break
            }
        case .help, .text:
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
            state.overlay = .help
        case .palette:
            openPalette(&state)
        case .focusNext, .focusPrevious:
            let panes = Pane.allCases
            let index = panes.firstIndex(of: state.focus)!
            state.focus = panes[(index + (command == .focusNext ? 1 : panes.count - 1)) % panes.count]
            if [.environments, .endpoints, .history].contains(state.focus) { state.lastList = state.focus }
        case .up, .down, .pageUp, .pageDown, .top, .bottom:
            return move(command, &state)
        case .left where state.focus == .request, .right where state.focus == .request:
            cycleRequestTab(command == .right ? 1 : -1, &state)
        case .nextTab where state.focus == .request, .previousTab where state.focus == .request:
            cycleRequestTab(command == .nextTab ? 1 : -1, &state)
        case .left, .right:
            if state.focus == .response {
                if state.body.text.wrap || state.responseTab != .body {
                    cycleTab(command == .right ? 1 : -1, &state)
                } else {
                    state.body.text.scrollHorizontally(by: command == .right ? 8 : -8)
                }
            }
        case .nextTab:
            cycleTab(1, &state)
        case .previousTab:
            cycleTab(-1, &state)
        case .send:
            if state.focus == .request, let effects = requestEnter(&state) { return effects }
            return sendFromFocus(&state)
        case .resend:
            guard let entry = state.selectedHistoryEntry else { return [] }
            return resend(entry, &state)
        case .environments:
            guard !state.environments.isEmpty else {
                state.message = "This collection has no environments."
                return []
            }
            state.overlay = .environmentPicker(ListState(selected: state.activeEnvironment))
        case .cookies:
            return openCookies(&state)
        case .tokens:
            return openTokens(&state)
        case .graphQLSchema:
            return openSchema(&state)
        case .search:
            if state.focus == .response {
                state.input = TextInput(purpose: .bodySearch, text: state.body.search)
            } else {
                let pane = [.environments, .endpoints, .history].contains(state.focus) ? state.focus : .endpoints
                state.focus = pane
                state.lastList = pane
                state.input = TextInput(purpose: .listFilter(pane))
                setListFilter("", pane, &state)
            }
        case .filter:
            guard let kind = state.shown?.response?.document.kind, kind == .json || kind == .events else {
                state.message = "The JSONPath filter works on JSON bodies and on the data of events."
                return []
            }
            state.focus = .response
            state.responseTab = .body
            state.input = TextInput(purpose: .bodyFilter, text: state.body.filter)
        case .nextMatch, .previousMatch:
            stepMatch(command == .nextMatch ? 1 : -1, &state)
        case .copyAsCurl:
            return copyAsCurl(&state)
        case .cancel:
            return cancel(&state)
        case .toggleWrap:
            state.body.text.wrap.toggle()
            state.body.text.leftColumn = 0
            state.body.text.topRow = 0
            state.message = state.body.text.wrap ? "Wrap on" : "Wrap off"
        case .toggleLineNumbers:
            state.body.text.showLineNumbers.toggle()
        case .compare:
            return compare(&state)
        case .edit:
            guard let endpoint = state.selectedEndpoint else {
                state.message = "Select an endpoint to edit."
                return []
            }
            state.input = TextInput(purpose: .requestLine(endpointID: endpoint.id), text: endpoint.requestLine)
        case .copyBody:
            guard let document = state.shownDocument, document.kind != .empty else {
                state.message = "No response body to copy."
                return []
            }
            guard document.kind != .binary else {
                state.message = "A binary body cannot go to the clipboard as text; s saves it to a file."
                return []
            }
            let limit = 512 * 1024
            guard document.byteCount <= limit else {
                state.message = "The body is too large for the terminal clipboard (over 512 KB); s saves it to a file."
                return []
            }
            let text = (0..<document.lineCount).map { document.plainLine($0, maxBytes: .max) }.joined(separator: "\n")
            let preview = text.prefix(60).replacingOccurrences(of: "\n", with: " ")
            state.message = "Copied \(text.utf8.count) bytes: \(preview)\(text.count > 60 ? "…" : "")"
            state.messageIsError = false
            return [.copyToClipboard(text)]
        case .editInEditor:
            guard let endpoint = state.selectedEndpoint else {
                state.message = "Select an endpoint to edit."
                return []
            }
            return [.editInEditor(endpoint)]
        case .saveEdits:
            saveEdits(&state)
        case .newEndpoint:
            newEndpoint(&state)
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
            guard let document = state.shownDocument, document.kind == .json else {
                state.message = "Folding works on JSON bodies."
                return []
            }
            let maxDepth = 6
            let next = (state.body.foldDepth ?? -1) + 1
            state.body.foldDepth = next > maxDepth ? nil : next
            state.responseTab = .body
            if let depth = state.body.foldDepth, document.byteCount > backgroundThreshold, let id = state.shownExchange {
                // Folding reads every line: a large body is folded off the main queue.
                state.body.folded = nil
                state.message = "Folding \(ByteCountText.binary(document.byteCount)) below depth \(depth)…"
                return [.fold(exchange: id, depth: depth, document)]
            }
            state.body.folded = state.body.foldDepth.map { FoldedDocument(document, depth: $0) }
            state.body.text.scrollToTop()
            state.message = state.body.foldDepth.map { "Folded below depth \($0) (z: one level deeper)" } ?? "Unfolded"
        case .saveBody:
            guard let exchange = state.shown, let response = exchange.response else {
                state.message = "No response body to save."
                return []
            }
            // A name of its own (endpoint and time), in a folder the user sees and can change;
            // the effect never replaces a file that is there.
            let slug = String((exchange.endpointID ?? "response").map { $0.isLetter || $0.isNumber ? $0 : "-" })
            // UTC, so the name does not depend on the machine's time zone.
            let stamp = state.now.formatted(.iso8601.year().month().day().dateSeparator(.omitted)
                .time(includingFractionalSeconds: false).timeSeparator(.omitted))
            let name = "explorer-\(slug)-\(stamp)Z.\(fileExtension(response.document))"
            let folder = state.saveFolder.hasSuffix("/") ? String(state.saveFolder.dropLast()) : state.saveFolder
            state.input = TextInput(purpose: .savePath(exchange: exchange.id), text: folder + "/" + name)
        }
        return []
    }

    private static func move(_ command: AppCommand, _ state: inout AppState) -> [AppEffect] {
        let page = max(1, state.size.height - 8)
        let delta: Int
        switch command {
        case .up: delta = -1
        case .down: delta = 1
        case .pageUp: delta = -page
        case .pageDown: delta = page
        case .top: delta = Int.min / 2
        default: delta = Int.max / 2
        }
        switch state.focus {
        case .environments:
            let count = state.environmentList.visibleIndices(environmentItems(state)).count
            state.environmentList.move(by: delta, count: count)
        case .endpoints:
            let count = state.visibleEndpointRows.count
            state.endpointList.move(by: delta, count: count)
        case .history:
            let count = state.historyList.visibleIndices(count: state.history.count) { state.historyItems.map(\.filterText) }.count
            state.historyList.move(by: delta, count: count)
            if let entry = state.selectedHistoryEntry { return [.openHistory(id: entry.id)] }
        case .request:
            moveRow(delta, &state)
        case .response where state.comparison != nil:
            let source = ResponseContent.comparisonSource(state.comparison!)
            state.comparison!.text.scroll(by: delta, source: source, width: state.size.width)
        case .response:
            let source = ResponseContent.source(for: state)
            let width = AppLayout(size: state.size, state: state).responseTextWidth(state: state, source: source)
            if command == .top {
                state.body.text.scrollToTop()
            } else if command == .bottom {
                state.body.text.scrollToBottom(source: source, height: AppLayout(size: state.size, state: state).responseTextHeight)
            } else {
                state.body.text.scroll(by: delta, source: source, width: width)
            }
        }
        return []
    }

    static func environmentItems(_ state: AppState) -> [ListItem] {
        state.environments.map { ListItem($0.name) }
    }

    private static func cycleTab(_ step: Int, _ state: inout AppState) {
        let tabs = state.responseTabs
        let index = tabs.firstIndex(of: state.responseTab) ?? 0
        state.responseTab = tabs[(index + step + tabs.count) % tabs.count]
        state.body.text.scrollToTop()
    }

    // MARK: - Sending

    private static func sendFromFocus(_ state: inout AppState) -> [AppEffect] {
        switch state.focus {
        case .environments:
            let visible = state.environmentList.visibleIndices(environmentItems(state))
            if visible.indices.contains(state.environmentList.selected) {
                switchEnvironment(to: visible[state.environmentList.selected], &state)
            }
            return []
        case .history:
            state.focus = .response
            if let entry = state.selectedHistoryEntry { return [.openHistory(id: entry.id)] }
            return []
        default:
            guard let endpoint = state.selectedEndpoint else {
                state.message = state.endpointRows.isEmpty ? "This collection has no endpoints." : "Select an endpoint to send."
                return []
            }
            guard let environment = state.activeEnvironmentValue else {
                state.message = "This collection has no environment to send to."
                state.messageIsError = true
                return []
            }
            return sendOrConfirm(endpoint, in: environment, &state)
        }
    }

    /// Sends, or first asks when the environment is protected (the confirmation then sends).
    private static func sendOrConfirm(_ endpoint: Endpoint, in environment: Environment, _ state: inout AppState) -> [AppEffect] {
        if environment.isProtected {
            state.overlay = .confirmSend(endpointID: endpoint.id, environment: environment.name)
            return []
        }
        return send(endpoint, in: environment, &state)
    }

    private static func send(_ endpoint: Endpoint, in environment: Environment, _ state: inout AppState) -> [AppEffect] {
        guard let plan = state.plan(for: endpoint, in: environment) else { return [] }
        let id = state.nextExchangeID
        state.nextExchangeID += 1
        var exchange = Exchange(
            id: id, endpointID: endpoint.id, environment: environment.name,
            method: endpoint.method.rawValue, url: endpoint.path, requestHeaders: HTTPHeaders(), requestBody: nil,
            startedAt: state.now, phase: .inFlight(bytes: 0))
        // Until the effect reports what it resolved, show the pane's preview of the same plan.
        if let preview = state.preview, preview.key == plan.key { exchange.show(preview) }
        state.exchanges[id] = exchange
        state.shownExchange = id
        state.forgetOldExchanges()
        resetBodyView(&state)
        return [.send(exchange: id, plan)]
    }

    /// Asks for the request pane's preview when the selected endpoint, the environment or the
    /// collection changed since the last one.
    private static func refreshPreview(_ state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.selectedEndpoint, let environment = state.activeEnvironmentValue,
              let plan = state.plan(for: endpoint, in: environment) else {
            state.previewKey = nil
            state.preview = nil
            return []
        }
        guard plan.key != state.previewKey else { return [] }
        state.previewKey = plan.key
        state.preview = nil
        return [.preview(plan)]
    }

    private static func resend(_ entry: HistorySummary, _ state: inout AppState) -> [AppEffect] {
        guard let name = entry.endpoint, let endpoint = state.endpoint(withID: name) else {
            state.message = "That exchange did not come from an endpoint of this collection; it cannot be re-sent from here."
            return []
        }
        let environment: Environment
        if let name = entry.environment {
            guard let found = state.environments.first(where: { $0.name == name }) else {
                guard !state.environments.isEmpty else {
                    state.message = "This collection has no environment to send to."
                    state.messageIsError = true
                    return []
                }
                // Never another environment silently: ask which one.
                state.resendPending = entry
                state.overlay = .environmentPicker(ListState(selected: state.activeEnvironment))
                state.message = "Environment \(name) is no longer in the collection; choose one to re-send in."
                return []
            }
            environment = found
        } else {
            guard let active = state.activeEnvironmentValue else { return [] }
            environment = active
        }
        return sendOrConfirm(endpoint, in: environment, &state)
    }

    /// The environment picker's choice: re-send the pending history entry in it, or switch to it.
    private static func picked(_ index: Int, _ state: inout AppState) -> [AppEffect] {
        guard let entry = state.resendPending else {
            switchEnvironment(to: index, &state)
            return []
        }
        state.resendPending = nil
        guard state.environments.indices.contains(index), let name = entry.endpoint,
              let endpoint = state.endpoint(withID: name) else { return [] }
        let environment = state.environments[index]
        return sendOrConfirm(endpoint, in: environment, &state)
    }

    static func switchEnvironment(to index: Int, _ state: inout AppState) {
        guard state.environments.indices.contains(index) else { return }
        state.activeEnvironment = index
        state.environmentList.selected = index
        let environment = state.environments[index]
        state.message = "Environment: \(environment.name)" + (environment.isProtected ? " (protected: sending asks first)" : "")
        state.messageIsError = false
    }

    private static func cancel(_ state: inout AppState) -> [AppEffect] {
        if state.comparison != nil {
            state.comparison = nil
            return []
        }
        if state.compareBase != nil {
            state.compareBase = nil
            state.message = "Comparison cancelled."
            return []
        }
        if let stop = stopRun(&state) { return stop }
        if let exchange = state.shown, exchange.isInFlight, state.webSocketExchanges.contains(exchange.id) {
            state.message = "Closing the WebSocket…"
            return [.webSocket(exchange: exchange.id, .close(code: 1000, reason: "closed by the user"))]
        }
        if let exchange = state.shown, exchange.isInFlight {
            state.exchanges[exchange.id]?.phase = .cancelled
            state.message = "Cancelled \(exchange.method) \(exchange.endpointID ?? exchange.url)"
            return [.cancel(exchange: exchange.id)]
        }
        if !state.body.filter.isEmpty {
            clearBodyFilter(&state)
            return []
        }
        if !state.body.search.isEmpty {
            state.body.search = ""
            state.body.matches = []
        }
        return []
    }

    private static func copyAsCurl(_ state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.selectedEndpoint ?? state.shown?.endpointID.flatMap({ state.endpoint(withID: $0) }),
              let environment = state.activeEnvironmentValue else {
            state.message = "Select an endpoint to copy as curl."
            return []
        }
        guard let plan = state.plan(for: endpoint, in: environment) else { return [] }
        return [.copyAsCurl(plan)]
    }

    // MARK: - Editing

    /// Reads an edited request line back into a draft of the endpoint.
    private static func applyRequestLine(_ line: String, to id: String, _ state: inout AppState) {
        guard var endpoint = state.endpoint(withID: id) else { return }
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
            return
        }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        endpoint.path = String(parts[0])
        endpoint.query = parts.count > 1
            ? parts[1].split(separator: "&").map { pair in
                let nameValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return KeyValue(String(nameValue[0]), nameValue.count > 1 ? String(nameValue[1]) : "")
            }
            : []
        let original = state.collection?.endpoint(withID: id)
        state.drafts[id] = endpoint == original ? nil : endpoint
        state.message = state.drafts[id] == nil ? "No change." : "Edited \(id) for this session; Enter sends it, S saves it to the file."
        state.messageIsError = false
    }

    // MARK: - Comparing history entries

    private static func compare(_ state: inout AppState) -> [AppEffect] {
        guard let entry = state.selectedHistoryEntry else {
            state.message = "Select a history entry, press d, then d again on another to compare them."
            return []
        }
        guard let base = state.compareBase, base.id != entry.id else {
            state.compareBase = entry
            state.message = "Marked #\(entry.id) \(entry.endpoint ?? entry.url) (\(entry.environment ?? "-")); press d on another entry to compare."
            return []
        }
        state.compareBase = nil
        state.message = "Comparing #\(base.id) and #\(entry.id)…"
        return [.compareHistory(base.id, entry.id)]
    }

    // MARK: - Showing history

    private static func show(_ entry: HistoryEntry, _ snapshot: ResponseSnapshot?, _ state: inout AppState) {
        // A row of an exchange still in memory shows that exchange, whole, not the stored copy.
        if let live = state.exchanges.values.first(where: { $0.historyID == entry.id && !$0.isHistoryPreview }) {
            dropHistoryPreview(keeping: live.id, &state)
            if state.shownExchange != live.id {
                state.shownExchange = live.id
                resetBodyView(&state)
            }
            return
        }
        let id = state.nextExchangeID
        state.nextExchangeID += 1
        let phase: Exchange.Phase
        if let snapshot {
            phase = .received(snapshot)
        } else {
            phase = .failed(TransportFailure(category: "transport error", message: entry.transportError ?? "no response", hint: nil))
        }
        state.exchanges[id] = Exchange(
            id: id, endpointID: entry.endpoint, environment: entry.environment, method: entry.method, url: entry.url,
            requestHeaders: entry.requestHeaders, requestBody: entry.requestBody.map { String(decoding: $0, as: UTF8.self) },
            startedAt: entry.startedAt, phase: phase, historyID: entry.id, isHistoryPreview: true)
        // What its checks found when it was sent: the Checks tab and "3/4 checks" again.
        state.exchanges[id]?.checks = entry.checks
        state.forgetOldExchanges()
        dropHistoryPreview(keeping: id, &state)
        state.shownExchange = id
        resetBodyView(&state)
    }

    /// Keeps one history preview at a time: drops the one shown before, never an exchange of
    /// this session (a response just received stays whole in memory while rows are previewed).
    private static func dropHistoryPreview(keeping id: Int, _ state: inout AppState) {
        if let previous = state.shownExchange, previous != id, state.exchanges[previous]?.isHistoryPreview == true {
            state.exchanges[previous] = nil
        }
    }

    // MARK: - Body search and filter

    private static func resetBodyView(_ state: inout AppState) {
        let wrap = state.body.text.wrap
        let numbers = state.body.text.showLineNumbers
        state.body = BodyViewState()
        state.body.text.wrap = wrap
        state.body.text.showLineNumbers = numbers
    }

    /// Bodies larger than this are searched and filtered off the main queue.
    static let backgroundThreshold = 2 * 1024 * 1024

    private static func runSearch(_ text: String, _ state: inout AppState) -> [AppEffect] {
        // Matches are document lines: search the unfolded body.
        state.body.foldDepth = nil
        state.body.folded = nil
        state.body.search = text
        state.responseTab = .body
        if !text.isEmpty, let document = state.shownDocument, document.byteCount > backgroundThreshold, let id = state.shownExchange {
            state.body.matches = []
            state.message = "Searching \(ByteCountText.binary(document.byteCount)) for \"\(text)\"…"
            return [.search(exchange: id, query: text, document)]
        }
        showMatches(text.isEmpty ? [] : (state.shownDocument?.linesMatching(text) ?? []), for: text, &state)
        return []
    }

    private static func showMatches(_ lines: [Int], for text: String, _ state: inout AppState) {
        state.body.matches = lines
        state.body.currentMatch = 0
        state.body.text.currentMatchLine = state.body.matches.first
        if let first = state.body.matches.first {
            state.body.text.topLine = max(0, first - 2)
            state.body.text.topRow = 0
            state.message = "\(state.body.matches.count) \(state.body.matches.count == 1 ? "line matches" : "lines match") \"\(text)\""
        } else if !text.isEmpty {
            state.message = "No match for \"\(text)\""
        }
    }

    private static func stepMatch(_ step: Int, _ state: inout AppState) {
        let count = state.body.matches.count
        guard count > 0 else { return }
        state.body.currentMatch = (state.body.currentMatch + step + count) % count
        let line = state.body.matches[state.body.currentMatch]
        state.body.text.currentMatchLine = line
        state.body.text.topLine = max(0, line - 2)
        state.body.text.topRow = 0
        state.message = "Match \(state.body.currentMatch + 1)/\(count)"
    }

    private static func applyBodyFilter(_ expression: String, _ state: inout AppState) -> [AppEffect] {
        state.body.filter = expression
        state.body.filterError = nil
        state.body.filtered = nil
        state.body.foldDepth = nil
        state.body.folded = nil
        state.body.text.scrollToTop()
        guard !expression.isEmpty, let document = state.shown?.response?.document, let id = state.shownExchange else { return [] }
        if document.byteCount > backgroundThreshold {
            state.message = "Filtering \(ByteCountText.binary(document.byteCount)) with \(expression)…"
            return [.filter(exchange: id, expression: expression, document)]
        }
        showFilterResult(Result { try JSONPath.filter(document, expression) }.mapError(JSONPath.failure), expression, &state)
        return []
    }

    private static func showFilterResult(_ result: Result<BodyDocument, JSONPath.Failure>, _ expression: String, _ state: inout AppState) {
        switch result {
        case .success(let document):
            state.body.filtered = document
            state.message = "Filter: \(expression)"
        case .failure(let failure):
            state.body.filterError = failure.description
            state.message = failure.description
            state.messageIsError = true
        }
    }

    private static func clearBodyFilter(_ state: inout AppState) {
        state.body.filter = ""
        state.body.filtered = nil
        state.body.filterError = nil
        state.body.foldDepth = nil
        state.body.folded = nil
        state.body.text.scrollToTop()
    }

    private static func fileExtension(_ document: BodyDocument) -> String {
        switch document.kind {
        case .json: return "json"
        case .xml: return "xml"
        case .html: return "html"
        case .binary: return document.contentType.contains("png") ? "png" : "bin"
        default: return "txt"
        }
    }

    // MARK: - Mouse

    private static func handleMouse(_ mouse: MouseEvent, _ state: inout AppState) -> [AppEffect] {
        guard state.overlay == nil, state.input == nil, state.compose.editor.bodyText == nil else { return [] }
        let layout = AppLayout(size: state.size, state: state)
        switch mouse.kind {
        case .press(.left):
            if let pane = layout.pane(at: mouse.position) {
                state.focus = pane
                if [.environments, .endpoints, .history].contains(pane) {
                    state.lastList = pane
                    if let row = layout.listRow(at: mouse.position, pane: pane, state: state) {
                        switch pane {
                        case .environments: state.environmentList.selected = row
                        case .endpoints: state.endpointList.selected = row
                        default:
                            state.historyList.selected = row
                            if let entry = state.selectedHistoryEntry { return [.openHistory(id: entry.id)] }
                        }
                    }
                }
            }
        case .wheelUp:
            if let pane = layout.pane(at: mouse.position) { state.focus = pane }
            return move(.up, &state) + move(.up, &state) + move(.up, &state)
        case .wheelDown:
            if let pane = layout.pane(at: mouse.position) { state.focus = pane }
            return move(.down, &state) + move(.down, &state) + move(.down, &state)
        default:
            break
        }
        return []
    }
}
