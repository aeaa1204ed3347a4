import Foundation
import GraphQLSupport
import Terminal

/// The rows and details of the schema browser.
extension SchemaPanel {
    /// A type's row: `type User  A person who writes posts.` and, on the right, its root or
    /// how many members it has.
    static func row(_ type: GraphQLSchemaOutline.TypeEntry) -> ListItem {
        let noun = type.kind == .enumeration ? "value" : type.kind == .union ? "member" : "field"
        let trailing =
            type.root.map { "\($0) root" }
            ?? (type.members.isEmpty ? "" : "\(type.members.count) \(noun)\(type.members.count == 1 ? "" : "s")")
        return ListItem(
            [
                Span(type.kind.rawValue + " ", role: .dim), Span(type.name, role: .title),
                Span(firstLine(type.description).map { "  " + $0 } ?? "", role: .dim),
            ],
            trailing: [Span(trailing, role: .dim)])
    }

    /// A member's row: `posts(first: Int): [Post!]!`, `deprecated` on the right when it is.
    static func row(_ member: GraphQLSchemaOutline.Member) -> ListItem {
        let arguments =
            member.arguments.isEmpty
            ? "" : "(" + member.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
        var spans = [Span(member.name, role: .headerName), Span(arguments, role: .dim)]
        if let type = member.type { spans.append(Span(": " + type, role: .headerValue)) }
        if let value = member.defaultValue { spans.append(Span(" = " + value, role: .dim)) }
        return ListItem(spans, trailing: member.deprecation == nil ? [] : [Span("deprecated", role: .warning)])
    }

    /// The details of a member below the list: its signature, deprecation, description and
    /// each argument with its own description.
    static func details(_ member: GraphQLSchemaOutline.Member) -> [[Span]] {
        var lines: [[Span]] = [[Span(member.signature, role: .title)]]
        if let reason = member.deprecation {
            lines.append([Span("Deprecated" + (reason.isEmpty ? "." : ": " + reason), role: .warning)])
        }
        if let description = member.description, !description.isEmpty {
            lines += description.split(separator: "\n", omittingEmptySubsequences: false).map { [Span(String($0))] }
        }
        for argument in member.arguments {
            var line = [Span("  " + argument.name, role: .headerName), Span(": " + argument.type, role: .headerValue)]
            if let value = argument.defaultValue { line.append(Span(" = " + value, role: .dim)) }
            if let description = argument.description, !description.isEmpty {
                line.append(Span("  " + description, role: .dim))
            }
            lines.append(line)
        }
        return lines
    }

    /// The first line of a description, for a one-line row or header.
    static func firstLine(_ text: String?) -> String? {
        guard let text, let first = text.split(separator: "\n").first else { return nil }
        return String(first)
    }
}

/// Draws the schema browser: a large box with a header line (the search, or what the list
/// is), the list of types or of one type's members, and the selected member's details.
enum SchemaView {
    static func render(_ panel: SchemaPanel, state: AppState, into grid: inout CellGrid) {
        let screen = grid.bounds
        let title = "GraphQL schema · \(panel.environment) · / searches · r refreshes · Esc closes"
        guard let load = panel.load else {
            ConfirmDialog(
                title: title, message: [[Span("Reading the schema of \(panel.endpointID)…", role: .dim)]], hints: []
            )
            .render(into: &grid, area: screen)
            return
        }
        guard let outline = load.outline else {
            ConfirmDialog(
                title: title, message: [[Span(load.problem ?? "No schema.", role: .warning)]],
                hints: [KeyHint(key: "r", label: "tries again"), KeyHint(key: "Esc", label: "closes")],
                maximumWidth: screen.width
            ).render(into: &grid, area: screen)
            return
        }
        let inside = Overlay.frame(
            into: &grid, area: screen, width: Overlay.maximumWidth(in: screen),
            height: Overlay.maximumHeight(in: screen),
            title: title, trailingTitle: [Span(origin(load, timeZone: state.timeZone), role: .dim)])
        guard inside.height >= 3 else { return }
        let type = panel.shownType
        let details = type == nil ? [] : panel.selectedMember.map(SchemaPanel.details) ?? []
        let detailHeight = details.isEmpty ? 0 : min(details.count + 1, max(0, inside.height / 3))
        let parts = Layout.rows(inside, [.fixed(1), .fill, .fixed(detailHeight)])
        // The header: the search being typed or kept, else where the list is.
        let query = type == nil ? panel.typeQuery : panel.memberQuery
        var header: [Span]
        if panel.searching || !query.isEmpty {
            header = [Span("/ ", role: .dim), Span(query, role: .input)]
            if panel.searching { header.append(Span("▏", role: .input)) }
        } else if let type {
            header = [Span(type.kind.rawValue + " ", role: .dim), Span(type.name, role: .title)]
            if !type.interfaces.isEmpty {
                header.append(Span(" implements " + type.interfaces.joined(separator: " & "), role: .dim))
            }
            if let description = SchemaPanel.firstLine(type.description) {
                header.append(Span("  " + description, role: .dim))
            }
        } else {
            header = [Span("\(outline.types.count) types of \(load.url) · Enter opens one", role: .dim)]
        }
        _ = grid.put(Overlay.characters(header), x: parts[0].x, y: parts[0].y, clip: parts[0])
        if type == nil {
            ListView(
                items: panel.visibleTypes.map(SchemaPanel.row), state: panel.typeList,
                emptyText: "No type matches \"\(panel.typeQuery)\""
            )
            .render(into: &grid, area: parts[1])
        } else {
            ListView(
                items: panel.visibleMembers.map(SchemaPanel.row), state: panel.memberList,
                emptyText: panel.memberQuery.isEmpty ? "No fields" : "No field matches \"\(panel.memberQuery)\""
            )
            .render(into: &grid, area: parts[1])
        }
        guard detailHeight > 0 else { return }
        let area = parts[2]
        _ = grid.put(String(repeating: "─", count: area.width), x: area.x, y: area.y, style: Style(.border), clip: area)
        for (row, line) in details.prefix(area.height - 1).enumerated() {
            _ = grid.put(Overlay.characters(line), x: area.x, y: area.y + 1 + row, clip: area)
        }
    }

    /// `cached 2026-11-25 11:02` or `fetched 11:02`, in the user's zone.
    static func origin(_ load: SchemaOutlineLoad, timeZone: TimeZone) -> String {
        guard let date = load.fetchedAt else { return "" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return (load.fromCache ? "cached " : "fetched ") + formatter.string(from: date)
    }
}
