import Foundation
import GraphQLSupport
import Terminal
import Workspace

/// The GraphQL schema browser (`Q`): opening it on a GraphQL endpoint, folding in the schema
/// that was loaded, and its keys.
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
            let plan = state.plan(for: endpoint, in: environment)
        else {
            state.message = "No GraphQL endpoint in this collection, so no schema to browse."
            return []
        }
        state.overlay = .schema(SchemaPanel(endpointID: endpoint.id, environment: environment.name))
        return [.loadSchema(plan, refresh: false)]
    }

    /// A schema was loaded: shown when its browser is still open.
    static func schemaLoaded(
        endpointID: String, environment: String, _ load: SchemaOutlineLoad, _ state: inout AppState
    ) {
        guard case .schema(var panel) = state.overlay, panel.endpointID == endpointID, panel.environment == environment
        else { return }
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
                let plan = state.plan(for: endpoint, in: environment)
            else { return [] }
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
            } else if let member = panel.selectedMember,
                let named = member.type?.trimmingCharacters(in: CharacterSet(charactersIn: "[]!")),
                panel.load?.outline?.type(named: named) != nil
            {
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
            if panel.openType == nil {
                panel.typeList.move(by: delta, count: count)
            } else {
                panel.memberList.move(by: delta, count: count)
            }
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
            if inTypes {
                panel.typeList.move(by: press.key == .up ? -1 : 1, count: count)
            } else {
                panel.memberList.move(by: press.key == .up ? -1 : 1, count: count)
            }
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
