import Terminal

/// The scrolling text panels (`?` the keys, `!` the collection's problems): drawn by the view
/// and measured by the reducer, so scrolling stops at the last row the view draws.
extension AppState {
    /// The problems overlay (`!`) scrolled to `offset`: drawn by the view, and measured by the
    /// reducer to stop scrolling at the last row.
    func problemsPanel(offset: Int) -> TextPanel {
        let entries =
            problems.all.isEmpty
            ? [TextPanel.Entry(text: [Span("No problems: \(collectionFileName) loads without a warning.", role: .dim)])]
            : problems.all.map { problem in
                TextPanel.Entry(
                    lead: [
                        Span(
                            problem == problems.loadError ? "error" : "warning",
                            role: problem == problems.loadError ? .error : .warning)
                    ],
                    text: [Span(problem)])
            }
        let title =
            "Problems in \(collectionFileName)"
            + (problems.loadError == nil ? "" : " (the last version that loaded is in use)")
        return TextPanel(title: title, entries: entries, hints: Self.scrollHints, offset: offset, maximumWidth: 110)
    }

    /// The key help (`?`) scrolled to `offset`: every binding, its keys beside what it does,
    /// wrapped, never cut.
    func helpPanel(offset: Int) -> TextPanel {
        let entries = keymap.helpLines().map { line in
            TextPanel.Entry(lead: [Span(line.key, Style(.statusKey, .bold))], text: [Span(line.label)])
        }
        return TextPanel(
            title: "Keys", entries: entries,
            hints: [KeyHint(key: "↑↓ PgUp PgDn", label: "scroll"), KeyHint(key: "Esc q ?", label: "close")],
            offset: offset, maximumWidth: 100)
    }

    /// The keys of a scrolling panel, on its last row.
    static let scrollHints = [KeyHint(key: "↑↓ PgUp PgDn", label: "scroll"), KeyHint(key: "Esc", label: "closes")]
}

extension AppState {
    /// The session's mock's log (`L`) scrolled to `offset`: the time and each request it
    /// answered, with the status and where the answer came from.
    func mockLogPanel(offset: Int) -> TextPanel {
        let title: String
        if let mock, mock.isServing {
            title = "Mock · \(mock.answered) answered"
        } else {
            title = "Mock (starting)"
        }
        let lines = mock?.log ?? []
        let entries =
            lines.isEmpty
            ? [
                TextPanel.Entry(text: [
                    Span(
                        "Nothing answered yet: send a request in the environment \(mock?.environment?.name ?? "mock"), "
                            + "or to 127.0.0.1:\(mock?.port.map(String.init) ?? "…") from this machine.", role: .dim)
                ])
            ]
            : lines.map { line in
                TextPanel.Entry(
                    lead: [Span(ClockText.hourMinuteSecond(line.at, in: timeZone), role: .dim)], text: [Span(line.text)]
                )
            }
        return TextPanel(title: title, entries: entries, hints: Self.scrollHints, offset: offset, maximumWidth: 120)
    }
}
