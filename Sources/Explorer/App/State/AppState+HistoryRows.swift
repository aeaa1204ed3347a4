import Foundation
import History
import NetworkingCore
import Terminal

/// The rows of the History pane.
///
/// A row says what was sent where and how it went: the clock time, the method, the
/// endpoint's name, the environment, the status and the duration. The environment, status and
/// duration are columns of a fixed width on the right, the same for every row of the list, so
/// that nothing shifts from one row to the next; the name is what gives way ("…") when the
/// pane is narrow. The method and the clock time are shown when the name keeps room beside them
/// (`historyNameWidth`); without the method column the name is drawn in its method's colour, so
/// that at 80×24 a row still reads "Get user staging 200 1.23s".
extension AppState {
    /// The columns a history row keeps for the endpoint's name before it shows the method,
    /// and then the clock time.
    static let historyNameWidth = 10

    /// What the History filter matches for each row: every word the row stands for, at any
    /// width (the clock time, method, name, environment and status).
    var historyFilterTexts: [String] {
        history.map { entry in
            [
                ClockText.hourMinute(entry.startedAt, in: timeZone), entry.method, Self.historyName(entry),
                entry.environment ?? "", Self.historyStatus(entry),
            ]
            .filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// The History pane's rows for a list `width` columns wide.
    func historyItems(width: Int) -> [ListItem] {
        // The words to filter on are made only while a filter is typed, as for the other lists.
        let texts = historyList.filter.allSatisfy(\.isWhitespace) ? nil : historyFilterTexts
        // One width for each column of the list, from its widest entry: columns do not shift.
        // An environment's name keeps 7 columns ("staging"), 12 in a wide pane.
        let environmentWidth = min(
            history.map { DisplayWidth.of(Sanitizer.sanitize($0.environment ?? "")) }.max() ?? 0, width < 50 ? 7 : 12)
        let trailingWidth = (environmentWidth > 0 ? environmentWidth + 1 : 0) + 3 + 6
        let methodWidth = max(4, (history.map(\.method.count).max() ?? 0) + 1)
        // The method, then the clock time, while the name keeps `historyNameWidth` columns.
        let nameRoom = width - trailingWidth - 1
        let showsMethod = nameRoom - methodWidth >= Self.historyNameWidth
        let showsClock = showsMethod && nameRoom - methodWidth - 6 >= Self.historyNameWidth
        return history.indices.map { index in
            let entry = history[index]
            let methodRole = Self.role(for: HTTPMethod(rawValue: entry.method))
            var spans: [Span] = []
            if showsClock { spans.append(Span(ClockText.hourMinute(entry.startedAt, in: timeZone) + " ", role: .dim)) }
            if showsMethod { spans.append(Span(DisplayWidth.pad(entry.method, to: methodWidth), role: methodRole)) }
            spans.append(Span(Self.historyName(entry), role: showsMethod ? .text : methodRole))
            var trailing: [Span] = []
            if environmentWidth > 0 {
                let environment = DisplayWidth.truncate(
                    Sanitizer.sanitize(entry.environment ?? ""), to: environmentWidth)
                trailing.append(Span(DisplayWidth.pad(environment, to: environmentWidth) + " ", role: .environment))
            }
            trailing.append(
                Span(DisplayWidth.pad(Self.historyStatus(entry), to: 3), role: Self.role(forStatus: entry.status)))
            trailing.append(Span(Self.durationColumn(entry.totalMilliseconds), role: .dim))
            return ListItem(spans, trailing: trailing, filterText: texts?[index])
        }
    }

    /// The endpoint's own name (the folder is in the request pane when opened), else the URL.
    private static func historyName(_ entry: HistorySummary) -> String {
        entry.endpoint.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? entry.url
    }

    private static func historyStatus(_ entry: HistorySummary) -> String {
        entry.status.map(String.init) ?? "ERR"
    }
}
