import Foundation
import GraphQLSupport
import Terminal

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
    package init(
        url: String, fetchedAt: Date? = nil, fromCache: Bool = false, outline: GraphQLSchemaOutline? = nil,
        problem: String? = nil
    ) {
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
}
