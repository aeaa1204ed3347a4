import Foundation
import GraphQL
import NetworkingCore

/// A GraphQL schema as plain values to browse: its types (root types first), each with its
/// fields, arguments, descriptions and deprecations. What the TUI's schema browser shows; made
/// off the main queue from the SDL, so the view reads values only.
package struct GraphQLSchemaOutline: Sendable, Hashable {
    /// What kind of type a type is, as the schema language writes it.
    package enum Kind: String, Sendable, Hashable {
        case object = "type"
        case interface
        case union
        case enumeration = "enum"
        case input
        case scalar
    }

    /// An argument of a field.
    package struct Argument: Sendable, Hashable {
        /// Its name.
        package var name: String
        /// Its type, as written (`ID!`).
        package var type: String
        /// Its default value, as written, if any.
        package var defaultValue: String?
        /// Its description.
        package var description: String?
    }

    /// A field, an input field, an enum value or a union's member type.
    package struct Member: Sendable, Hashable {
        /// Its name.
        package var name: String
        /// Its type (`[Post!]!`); nil for an enum value and a union member.
        package var type: String?
        /// Its arguments.
        package var arguments: [Argument] = []
        /// Its default value (an input field), if any.
        package var defaultValue: String?
        /// Its description.
        package var description: String?
        /// Why it is deprecated (`""` for no reason given); nil when it is not.
        package var deprecation: String?

        /// `posts(first: Int = 3): [Post!]!` as the schema language writes it.
        package var signature: String {
            let arguments =
                self.arguments.isEmpty
                ? ""
                : "("
                    + self.arguments.map { argument in
                        argument.name + ": " + argument.type + (argument.defaultValue.map { " = " + $0 } ?? "")
                    }.joined(separator: ", ") + ")"
            return name + arguments + (type.map { ": " + $0 } ?? "") + (defaultValue.map { " = " + $0 } ?? "")
        }
    }

    /// A named type of the schema.
    package struct TypeEntry: Sendable, Hashable {
        /// Its name.
        package var name: String
        /// Its kind.
        package var kind: Kind
        /// `query`, `mutation` or `subscription` for a root type.
        package var root: String?
        /// Its description.
        package var description: String?
        /// The interfaces it implements.
        package var interfaces: [String] = []
        /// Its fields, input fields, enum values or member types, in schema order.
        package var members: [Member] = []

        /// The text a search looks in: the name, the description, every member's signature
        /// and description.
        package var searchText: String {
            ([name, description ?? ""]
                + members.flatMap { [$0.signature, $0.description ?? ""] + $0.arguments.compactMap(\.description) })
                .joined(separator: "\n")
        }
    }

    /// The types: the root types in `query`, `mutation`, `subscription` order, then the others
    /// by name; the introspection types (`__Type`) and the built-in scalars are left out.
    package var types: [TypeEntry]

    /// Creates an outline from types.
    package init(types: [TypeEntry]) {
        self.types = types
    }

    /// The outline of a schema written in the schema language.
    ///
    /// - Throws: GraphQLSwift's error when the SDL does not build.
    package init(sdl: String) throws {
        self.init(schema: try buildSchema(source: Source(body: sdl, name: "schema")))
    }

    /// The outline of a schema.
    package init(schema: GraphQLSchema) {
        let roots = [
            (schema.queryType?.name, "query"), (schema.mutationType?.name, "mutation"),
            (schema.subscriptionType?.name, "subscription"),
        ]
        let builtIn: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
        var entries: [TypeEntry] = []
        for (name, type) in schema.typeMap where !name.hasPrefix("__") && !builtIn.contains(name) {
            guard var entry = Self.entry(type) else { continue }
            entry.root = roots.first { $0.0 == name }?.1
            entries.append(entry)
        }
        let rootOrder = ["query": 0, "mutation": 1, "subscription": 2]
        types = entries.sorted { left, right in
            let (l, r) = (left.root.flatMap { rootOrder[$0] } ?? 3, right.root.flatMap { rootOrder[$0] } ?? 3)
            return l != r ? l < r : left.name < right.name
        }
    }

    /// The types whose name, description or members hold every word of `query` (ignoring
    /// case), in outline order; every type for an empty query.
    package func types(matching query: String) -> [TypeEntry] {
        let words = query.lowercased().split(whereSeparator: \.isWhitespace)
        guard !words.isEmpty else { return types }
        return types.filter { type in
            let text = type.searchText.lowercased()
            return words.allSatisfy { text.contains($0) }
        }
    }

    /// The type of a name.
    package func type(named name: String) -> TypeEntry? {
        types.first { $0.name == name }
    }

    // MARK: - From GraphQLSwift's types

    private static func entry(_ type: GraphQLNamedType) -> TypeEntry? {
        if let object = type as? GraphQLObjectType {
            return TypeEntry(
                name: object.name, kind: .object, description: object.description,
                interfaces: ((try? object.interfaces()) ?? []).map(\.name),
                members: ((try? object.fields()) ?? [:]).map { field($0.key, $0.value) })
        }
        if let interface = type as? GraphQLInterfaceType {
            return TypeEntry(
                name: interface.name, kind: .interface, description: interface.description,
                interfaces: ((try? interface.interfaces()) ?? []).map(\.name),
                members: ((try? interface.fields()) ?? [:]).map { field($0.key, $0.value) })
        }
        if let union = type as? GraphQLUnionType {
            return TypeEntry(
                name: union.name, kind: .union, description: union.description,
                members: ((try? union.types()) ?? []).map { Member(name: $0.name, description: $0.description) })
        }
        if let enumeration = type as? GraphQLEnumType {
            return TypeEntry(
                name: enumeration.name, kind: .enumeration, description: enumeration.description,
                members: enumeration.values.map {
                    Member(name: $0.name, description: $0.description, deprecation: $0.deprecationReason)
                })
        }
        if let input = type as? GraphQLInputObjectType {
            return TypeEntry(
                name: input.name, kind: .input, description: input.description,
                members: ((try? input.fields()) ?? [:]).map { name, field in
                    Member(
                        name: name, type: Self.typeReference(field.type), defaultValue: field.defaultValue.map(value),
                        description: field.description, deprecation: field.deprecationReason)
                })
        }
        if let scalar = type as? GraphQLScalarType {
            return TypeEntry(name: scalar.name, kind: .scalar, description: scalar.description)
        }
        return nil
    }

    private static func field(_ name: String, _ field: GraphQLField) -> Member {
        Member(
            name: name, type: Self.typeReference(field.type),
            arguments: field.args.map { argument in
                Argument(
                    name: argument.key, type: Self.typeReference(argument.value.type),
                    defaultValue: argument.value.defaultValue.map(value), description: argument.value.description)
            },
            description: field.description, deprecation: field.deprecationReason)
    }

    /// A default value as the schema language writes it (`"text"`, `3`, `[1, 2]`).
    private static func value(_ map: Map) -> String {
        switch map {
        case .string(let text): return JSONValue.string(text).serialized(pretty: false)
        default: return map.description
        }
    }
}

extension GraphQLSchemaOutline {
    /// How a type is written in a document: `[Post!]!`.
    package static func typeReference(_ type: GraphQLType) -> String {
        if let nonNull = type as? GraphQLNonNull { return typeReference(nonNull.ofType) + "!" }
        if let list = type as? GraphQLList { return "[" + typeReference(list.ofType) + "]" }
        return getNamedType(type: type)?.name ?? "String"
    }
}
