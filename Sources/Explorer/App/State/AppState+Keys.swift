import Terminal

/// What the keys act on and what the footer says about them: the focused pane's keys, named
/// for what they do there, with the keys the keymap binds (rebound keys show as rebound).
extension AppState {
    /// The filter typed into a list pane (empty when none).
    func listFilter(of pane: Pane) -> String {
        switch pane {
        case .environments: return environmentList.filter
        case .endpoints: return endpointList.filter
        case .history: return historyList.filter
        default: return ""
        }
    }

    /// The commands the footer lists for the focused pane, with what each does there; the
    /// pane keys, help and quit close the list.
    var footerCommands: [(AppCommand, String)] {
        var commands: [(AppCommand, String)] = []
        if comparison != nil || inFlightCount > 0 || !listFilter(of: focus).isEmpty
            || focus == .response && (!body.filter.isEmpty || !body.search.isEmpty)
        {
            commands.append((.cancel, comparison != nil ? "close" : inFlightCount > 0 ? "cancel" : "clear"))
        }
        switch focus {
        case .environments:
            commands += [
                (.send, "use"), (.search, "filter"), (.variables, "variables"),
                (.mock, mock == nil ? "mock" : "stop mock"),
            ]
            if mock != nil { commands.append((.mockLog, "mock log")) }
        case .endpoints:
            commands += [
                (.send, "send"), (.edit, "edit"), (.newEndpoint, "new"), (.search, "filter"),
                (.copyAsCurl, "curl"), (.environments, "env"), (.palette, "palette"),
            ]
        case .history:
            commands += [
                (.send, "open"), (.resend, "re-send"),
                (.compare, compareBase == nil ? "compare" : "compare with marked"),
                (.copyAsCurl, "curl"), (.search, "filter"),
            ]
        case .request:
            switch compose.editor.tab {
            case .preview:
                commands += [(.send, "send"), (.edit, "edit line"), (.editInEditor, "$EDITOR"), (.nextTab, "tab")]
            default:
                if shownTable != nil {
                    commands += [
                        (.send, "edit row"), (.addRow, "add"), (.deleteEndpoint, "delete"), (.toggleRow, "on/off"),
                        (.nextTab, "tab"),
                    ]
                } else {
                    commands += [(.send, "edit body"), (.bodyMode, "form"), (.nextTab, "tab")]
                }
                commands.append((.saveEdits, "save"))
            }
        case .response:
            commands += [
                (.search, "search"), (.filter, "jsonpath"), (.copyBody, "copy"), (.toggleWrap, "wrap"),
                (.saveBody, "save"), (.nextTab, "tab"),
            ]
        }
        commands += [(.focusNext, "pane"), (.help, "help"), (.quit, "quit")]
        return commands
    }

    /// The footer's key hints: the body editor's own keys while it is open, else the focused
    /// pane's commands with the keys bound to them.
    var footerHints: [KeyHint] {
        if compose.editor.bodyText != nil {
            let undo = keymap.key(for: .undo) ?? "Ctrl-Z"
            return [
                KeyHint(key: "Esc", label: "done"), KeyHint(key: undo, label: "undo"),
                KeyHint(key: "Tab", label: "complete {{"),
            ]
        }
        return footerCommands.compactMap { command, label in
            keymap.key(for: command).map { KeyHint(key: $0, label: label) }
        }
    }

    // MARK: - Searches typed before

    /// Keeps a search for `↑` (the newest last, no repeats, at most 50).
    mutating func rememberSearch(_ text: String) {
        guard !text.isEmpty else { return }
        searchHistory.removeAll { $0 == text }
        searchHistory.append(text)
        if searchHistory.count > 50 { searchHistory.removeFirst(searchHistory.count - 50) }
        searchRecall = nil
    }

    /// `↑` / `↓` in the search line: an older or newer search in its place (past the newest:
    /// empty again).
    mutating func recallSearch(older: Bool) {
        guard !searchHistory.isEmpty, input != nil else { return }
        let current = searchRecall ?? searchHistory.count
        let next = older ? max(0, current - 1) : min(searchHistory.count, current + 1)
        searchRecall = next
        input?.field = TextFieldState(next < searchHistory.count ? searchHistory[next] : "")
    }
}
