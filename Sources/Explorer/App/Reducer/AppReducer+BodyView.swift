import Query
import Terminal

/// The response body as the user reads it: search, the JSONPath filter, folding, wrapping.
/// Large bodies are searched, filtered and folded off the main queue; the results come back as
/// actions.
extension AppReducer {
    /// A body shown anew: search, filter and folding start over; wrap and line numbers stay.
    static func resetBodyView(_ state: inout AppState) {
        let wrap = state.body.text.wrap
        let numbers = state.body.text.showLineNumbers
        state.body = BodyViewState()
        state.body.text.wrap = wrap
        state.body.text.showLineNumbers = numbers
    }

    /// Bodies larger than this are searched and filtered off the main queue.
    static let backgroundThreshold = 2 * 1024 * 1024

    // MARK: - Search

    /// Searches the shown body for the lines that hold `text`.
    static func runSearch(_ text: String, _ state: inout AppState) -> [AppEffect] {
        // Matches are document lines: search the unfolded body.
        state.body.foldDepth = nil
        state.body.folded = nil
        state.body.search = text
        state.responseTab = .body
        if !text.isEmpty, let document = state.shownDocument, document.byteCount > backgroundThreshold,
            let id = state.shownExchange
        {
            state.body.matches = []
            state.message = "Searching \(ByteCountText.binary(document.byteCount)) for \"\(text)\"…"
            return [.search(exchange: id, query: text, document)]
        }
        showMatches(text.isEmpty ? [] : (state.shownDocument?.linesMatching(text) ?? []), for: text, &state)
        return []
    }

    /// The search of a large body finished: shown when it is still the one asked for.
    static func searchFinished(_ id: Int, query: String, lines: [Int], _ state: inout AppState) {
        guard state.shownExchange == id, state.body.search == query else { return }
        showMatches(lines, for: query, &state)
    }

    private static func showMatches(_ lines: [Int], for text: String, _ state: inout AppState) {
        state.body.matches = lines
        state.body.currentMatch = 0
        state.body.text.currentMatchLine = state.body.matches.first
        if let first = state.body.matches.first {
            state.body.text.topLine = max(0, first - 2)
            state.body.text.topRow = 0
            state.message =
                "\(state.body.matches.count) \(state.body.matches.count == 1 ? "line matches" : "lines match") \"\(text)\""
        } else if !text.isEmpty {
            state.message = "No match for \"\(text)\""
        }
    }

    /// `n` and `N`: the next match (or the previous one), scrolled into view.
    static func stepMatch(_ step: Int, _ state: inout AppState) {
        let count = state.body.matches.count
        guard count > 0 else { return }
        state.body.currentMatch = (state.body.currentMatch + step + count) % count
        let line = state.body.matches[state.body.currentMatch]
        state.body.text.currentMatchLine = line
        state.body.text.topLine = max(0, line - 2)
        state.body.text.topRow = 0
        state.message = "Match \(state.body.currentMatch + 1)/\(count)"
    }

    // MARK: - Filter

    /// `f`: asks for a JSONPath expression, on a JSON body or the data of events.
    static func startFilter(_ state: inout AppState) {
        guard let kind = state.shown?.response?.document.kind, kind == .json || kind == .events else {
            state.message = "The JSONPath filter works on JSON bodies and on the data of events."
            return
        }
        state.focus = .response
        state.responseTab = .body
        state.input = TextInput(purpose: .bodyFilter, text: state.body.filter)
    }

    /// The expression as it is typed: applied live on bodies that filter in a blink.
    static func filterAsTyped(_ expression: String, _ state: inout AppState) {
        // Live as you type on bodies that filter in a blink; an expression still being
        // typed that does not parse yet leaves the last good result on screen.
        // A query that would take longer than a key press is left for Enter, which runs it
        // off the main queue.
        guard let document = state.shown?.response?.document, document.byteCount <= backgroundThreshold / 2,
            let filtered = try? JSONPath.filter(document, expression, limits: .betweenKeys)
        else { return }
        state.body.filter = expression
        state.body.filterError = nil
        state.body.filtered = filtered
        state.body.text.scrollToTop()
    }

    /// Filters the shown body with the expression entered.
    static func applyBodyFilter(_ expression: String, _ state: inout AppState) -> [AppEffect] {
        state.body.filter = expression
        state.body.filterError = nil
        state.body.filtered = nil
        state.body.foldDepth = nil
        state.body.folded = nil
        state.body.text.scrollToTop()
        guard !expression.isEmpty, let document = state.shown?.response?.document, let id = state.shownExchange else {
            return []
        }
        if document.byteCount > backgroundThreshold {
            state.message = "Filtering \(ByteCountText.binary(document.byteCount)) with \(expression)…"
            return [.filter(exchange: id, expression: expression, document)]
        }
        let result = Result { try JSONPath.filter(document, expression, limits: .betweenKeys) }.mapError(
            JSONPath.failure)
        // Past what may run between two key presses: off the main queue, with the process's limits.
        if case .failure(let failure) = result, failure.limit != nil {
            state.message = "Filtering \(ByteCountText.binary(document.byteCount)) with \(expression)…"
            return [.filter(exchange: id, expression: expression, document)]
        }
        showFilterResult(result, expression, &state)
        return []
    }

    /// The filter of a large body finished: shown when it is still the one asked for.
    static func filterFinished(
        _ id: Int, expression: String, _ result: Result<BodyDocument, JSONPath.Failure>, _ state: inout AppState
    ) {
        guard state.shownExchange == id, state.body.filter == expression else { return }
        showFilterResult(result, expression, &state)
    }

    private static func showFilterResult(
        _ result: Result<BodyDocument, JSONPath.Failure>, _ expression: String, _ state: inout AppState
    ) {
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

    /// The whole body again, unfiltered and unfolded.
    /// Enter on the Schema tab: the Body tab, unfiltered and unfolded, scrolled to the place
    /// of the violation at the top of the tab (or the first below it).
    static func showViolationInBody(_ state: inout AppState) -> [AppEffect] {
        guard let check = state.shown?.checks?.schema, !check.violations.isEmpty else { return [] }
        let index = min(
            check.violations.count - 1, max(0, (state.body.text.topLine - ResponseContent.schemaHeadLines + 1) / 2))
        let violation = check.violations[index]
        guard let line = check.bodyLines[violation.instancePointer] else {
            state.message =
                "\(violation.kind == .body ? "The body as a whole" : "The \(violation.kind.rawValue)") is what breaks the promise: \(violation.message)"
            return []
        }
        clearBodyFilter(&state)
        state.responseTab = .body
        state.body.text.topLine = max(0, line - 2)
        state.body.text.currentMatchLine = line
        state.message = "Body line \(line + 1): \(violation.instancePointer) \(violation.message)"
        return []
    }

    static func clearBodyFilter(_ state: inout AppState) {
        state.body.filter = ""
        state.body.filtered = nil
        state.body.filterError = nil
        state.body.foldDepth = nil
        state.body.folded = nil
        state.body.text.scrollToTop()
    }

    // MARK: - Folding and wrapping

    /// `z`: folds a JSON body one level deeper; past the deepest level it unfolds.
    static func fold(_ state: inout AppState) -> [AppEffect] {
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
        return []
    }

    /// Folding a large body finished: shown when it is still the depth asked for.
    static func foldFinished(_ id: Int, _ folded: FoldedDocument, _ state: inout AppState) {
        guard state.shownExchange == id, state.body.foldDepth == folded.depth else { return }
        state.body.folded = folded
        state.body.text.scrollToTop()
        state.message = "Folded below depth \(folded.depth) (z: one level deeper)"
    }

    /// `w`: long lines wrap, or scroll sideways.
    static func toggleWrap(_ state: inout AppState) {
        state.body.text.wrap.toggle()
        state.body.text.leftColumn = 0
        state.body.text.topRow = 0
        state.message = state.body.text.wrap ? "Wrap on" : "Wrap off"
    }
}
