import Foundation
import GraphQLSupport
import Terminal
import Workspace

/// What loading a GraphQL schema for the schema browser gave: the outline to browse and where
/// it came from, or why there is none.
package struct SchemaOutlineLoad: Sendable, Hashable {
    /// The GraphQL URL it belongs to.
    package var url: String
    /// When it was fetched by introspection.
    package var fetchedAt: Date?
    /// Whether it came from the state folder's cache.
    package var fromCache: Bool
    /// The schema, or `nil` with `problem`.
    package var outline: GraphQLSchemaOutline?
    /// Why there is no schema (introspection refused, the endpoint does not resolve …).
    package var problem: String?

    /// Creates a load result.
    package init(url: String, fetchedAt: Date? = nil, fromCache: Bool = false, outline: GraphQLSchemaOutline? = nil, problem: String? = nil) {
        self.url = url
        self.fetchedAt = fetchedAt
        self.fromCache = fromCache
        self.outline = outline
        self.problem = problem
    }
}

/// The GraphQL schema browser (`Q`): the types of the schema a GraphQL endpoint is validated
/// against; Enter opens a type's fields with their arguments, types, descriptions and
/// deprecations; `/` searches (type names, field signatures, descriptions); `r` fetches the
/// schema again.
struct SchemaPanel: Sendable {
    /// The endpoint whose URL the schema belongs to.
    var endpointID: String
    /// The environment it was asked in.
    var environment: String
    /// What was loaded, once it was (`nil` while loading).
    var load: SchemaOutlineLoad?
    /// The type whose members are shown, or `nil` for the list of types.
    var openType: String?
    /// The search of the types list (every word, in names, fields and descriptions).
    var typeQuery = ""
    /// The search of the open type's members.
    var memberQuery = ""
    /// Whether keys type into the search.
    var searching = false
    /// The selected type among those the search lets through.
    var typeList = ListState()
    /// The selected member of the open type.
    var memberList = ListState()

    /// The types the search lets through.
    var visibleTypes: [GraphQLSchemaOutline.TypeEntry] {
        load?.outline?.types(matching: typeQuery) ?? []
    }

    /// The open type, if any.
    var shownType: GraphQLSchemaOutline.TypeEntry? {
        openType.flatMap { load?.outline?.type(named: $0) }
    }

    /// The open type's members the search lets through.
    var visibleMembers: [GraphQLSchemaOutline.Member] {
        guard let type = shownType else { return [] }
        let words = memberQuery.lowercased().split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return type.members }
        return type.members.filter { member in
            let text = (member.signature + "\n" + (member.description ?? "")).lowercased()
            return words.allSatisfy { text.contains($0) }
        }
    }

    /// The selected type of the list.
    var selectedType: GraphQLSchemaOutline.TypeEntry? {
        let types = visibleTypes
        return types.indices.contains(typeList.selected) ? types[typeList.selected] : nil
    }

    /// The selected member of the open type.
    var selectedMember: GraphQLSchemaOutline.Member? {
        let members = visibleMembers
        return members.indices.contains(memberList.selected) ? members[memberList.selected] : nil
    }

    // MARK: - Rows

    /// A type's row: `type User  A person who writes posts.` and, on the right, its root or
    /// how many members it has.
    static func row(_ type: GraphQLSchemaOutline.TypeEntry) -> ListItem {
        let noun = type.kind == .enumeration ? "value" : type.kind == .union ? "member" : "field"
        let trailing = type.root.map { "\($0) root" } ?? (type.members.isEmpty ? "" : "\(type.members.count) \(noun)\(type.members.count == 1 ? "" : "s")")
        return ListItem(
            [Span(type.kind.rawValue + " ", role: .dim), Span(type.name, role: .title), Span(firstLine(type.description).map { "  " + $0 } ?? "", role: .dim)],
            trailing: [Span(trailing, role: .dim)])
    }

    /// A member's row: `posts(first: Int): [Post!]!`, `deprecated` on the right when it is.
    static func row(_ member: GraphQLSchemaOutline.Member) -> ListItem {
        let arguments = member.arguments.isEmpty ? "" : "(" + member.arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
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
            if let description = argument.description, !description.isEmpty { line.append(Span("  " + description, role: .dim)) }
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

extension AppReducer {
    /// Opens the schema browser for the selected endpoint when it is a GraphQL one, else for
    /// the collection's first GraphQL endpoint, and asks for its schema.
    static func openSchema(_ state: inout AppState) -> [AppEffect] {
        guard let environment = state.activeEnvironmentValue else {
            state.message = "This collection has no environments, so no GraphQL schema."
            return []
        }
        let selected = state.selectedEndpoint.flatMap { $0.graphql == nil ? nil : $0 }
        guard let endpoint = selected ?? state.collection?.endpoints.first(where: { $0.graphql != nil }),
              let plan = state.plan(for: endpoint, in: environment) else {
            state.message = "No GraphQL endpoint in this collection, so no schema to browse."
            return []
        }
        state.overlay = .schema(SchemaPanel(endpointID: endpoint.id, environment: environment.name))
        return [.loadSchema(plan, refresh: false)]
    }

    /// A schema was loaded: shown when its browser is still open.
    static func schemaLoaded(endpointID: String, environment: String, _ load: SchemaOutlineLoad, _ state: inout AppState) {
        guard case .schema(var panel) = state.overlay, panel.endpointID == endpointID, panel.environment == environment else { return }
        panel.load = load
        if let open = panel.openType, load.outline?.type(named: open) == nil { panel.openType = nil }
        panel.typeList.selected = min(panel.typeList.selected, max(panel.visibleTypes.count - 1, 0))
        state.overlay = .schema(panel)
    }

    /// Keys of the schema browser: move, Enter opens a type (or the type of a field), Esc
    /// goes back then closes, `/` searches, `r` fetches the schema again.
    static func handleSchema(_ press: KeyPress, _ panel: SchemaPanel, _ state: inout AppState) -> [AppEffect] {
        var panel = panel
        defer { if case .schema = state.overlay { state.overlay = .schema(panel) } }
        if panel.searching { return typeIntoSchemaSearch(press, &panel) }
        let command = state.keymap.command(for: press)
        let count = panel.openType == nil ? panel.visibleTypes.count : panel.visibleMembers.count
        switch (press.key, command) {
        case (.escape, _):
            if panel.openType != nil {
                panel.openType = nil
            } else if !panel.typeQuery.isEmpty {
                panel.typeQuery = ""
                panel.typeList = ListState()
            } else {
                state.overlay = nil
            }
        case (_, .quit?), (_, .graphQLSchema?):
            state.overlay = nil
        case (.character("r"), _):
            guard let endpoint = state.endpoint(withID: panel.endpointID),
                  let environment = state.environments.first(where: { $0.name == panel.environment }),
                  let plan = state.plan(for: endpoint, in: environment) else { return [] }
            panel.load = nil
            state.message = "Fetching the schema again…"
            return [.loadSchema(plan, refresh: true)]
        case (_, .search?):
            panel.searching = true
        case (.enter, _), (_, .right?):
            if panel.openType == nil {
                guard let type = panel.selectedType else { return [] }
                panel.openType = type.name
                panel.memberQuery = ""
                panel.memberList = ListState()
            } else if let member = panel.selectedMember, let named = member.type?.trimmingCharacters(in: CharacterSet(charactersIn: "[]!")),
                      panel.load?.outline?.type(named: named) != nil {
                // Follow a field to its type (User.posts → Post).
                panel.openType = named
                panel.memberQuery = ""
                panel.memberList = ListState()
            }
        case (.backspace, _), (_, .left?):
            panel.openType = nil
        case (_, .up?), (_, .down?), (_, .pageUp?), (_, .pageDown?), (_, .top?), (_, .bottom?):
            let delta: Int
            switch command {
            case .up?: delta = -1
            case .down?: delta = 1
            case .pageUp?: delta = -10
            case .pageDown?: delta = 10
            case .top?: delta = -count
            default: delta = count
            }
            if panel.openType == nil { panel.typeList.move(by: delta, count: count) } else { panel.memberList.move(by: delta, count: count) }
        default:
            break
        }
        return []
    }

    /// A key while the search is typed: characters add to it, Backspace removes, Enter keeps
    /// it, Esc clears it; the arrows still move.
    private static func typeIntoSchemaSearch(_ press: KeyPress, _ panel: inout SchemaPanel) -> [AppEffect] {
        let inTypes = panel.openType == nil
        var query = inTypes ? panel.typeQuery : panel.memberQuery
        switch press.key {
        case .enter:
            panel.searching = false
            return []
        case .escape:
            panel.searching = false
            query = ""
        case .backspace:
            guard !query.isEmpty else { return [] }
            query.removeLast()
        case .up, .down:
            let count = inTypes ? panel.visibleTypes.count : panel.visibleMembers.count
            if inTypes { panel.typeList.move(by: press.key == .up ? -1 : 1, count: count) } else { panel.memberList.move(by: press.key == .up ? -1 : 1, count: count) }
            return []
        case .character(let character) where !press.modifiers.contains(.ctrl):
            query.append(character)
        default:
            return []
        }
        if inTypes {
            panel.typeQuery = query
            panel.typeList = ListState()
        } else {
            panel.memberQuery = query
            panel.memberList = ListState()
        }
        return []
    }
}

/// Draws the schema browser: a large box with a header line (the search, or what the list
/// is), the list of types or of one type's members, and the selected member's details.
enum SchemaView {
    static func render(_ panel: SchemaPanel, state: AppState, into grid: inout CellGrid) {
        let screen = grid.bounds
        let title = "GraphQL schema · \(panel.environment) · / searches · r refreshes · Esc closes"
        guard let load = panel.load else {
            ConfirmDialog(title: title, message: [[Span("Reading the schema of \(panel.endpointID)…", role: .dim)]], hints: [])
                .render(into: &grid, area: screen)
            return
        }
        guard let outline = load.outline else {
            ConfirmDialog(title: title, message: [[Span(load.problem ?? "No schema.", role: .warning)]],
                          hints: [KeyHint(key: "r", label: "tries again"), KeyHint(key: "Esc", label: "closes")],
                          maximumWidth: screen.width).render(into: &grid, area: screen)
            return
        }
        let inside = Overlay.frame(into: &grid, area: screen, width: Overlay.maximumWidth(in: screen), height: Overlay.maximumHeight(in: screen),
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
            if !type.interfaces.isEmpty { header.append(Span(" implements " + type.interfaces.joined(separator: " & "), role: .dim)) }
            if let description = SchemaPanel.firstLine(type.description) { header.append(Span("  " + description, role: .dim)) }
        } else {
            header = [Span("\(outline.types.count) types of \(load.url) · Enter opens one", role: .dim)]
        }
        _ = grid.put(Overlay.characters(header), x: parts[0].x, y: parts[0].y, clip: parts[0])
        if type == nil {
            ListView(items: panel.visibleTypes.map(SchemaPanel.row), state: panel.typeList, emptyText: "No type matches \"\(panel.typeQuery)\"")
                .render(into: &grid, area: parts[1])
        } else {
            ListView(items: panel.visibleMembers.map(SchemaPanel.row), state: panel.memberList,
                     emptyText: panel.memberQuery.isEmpty ? "No fields" : "No field matches \"\(panel.memberQuery)\"")
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
