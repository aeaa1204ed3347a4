import Foundation
import GraphQL
import GraphQLSupport
import NetworkingCore
import Workspace

/// `explorer import graphql`: a GraphQL schema (SDL, or a server's introspection answer made
/// into SDL) as a collection, one endpoint per root query and mutation field, in the folders
/// `Query` and `Mutation`. Each endpoint runs its field with every argument as a variable and
/// selects the scalar and enum fields of what it returns.
package struct GraphQLImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// Imports a schema.
    ///
    /// - Parameters:
    ///   - sdl: the schema in the schema language.
    ///   - source: the file or URL it came from, for errors.
    ///   - endpointURL: where the GraphQL server answers: the environment's `base_url` is
    ///     its origin, each endpoint's `path` its path.
    /// - Throws: `ImportError.invalidFile` with the line and column of a schema error.
    package func importSchema(_ sdl: String, source: String, endpointURL: URL) throws -> ImportResult {
        let schema: GraphQLSchema
        do {
            schema = try buildSchema(source: Source(body: sdl, name: source))
        } catch let error as GraphQLError {
            let place = error.locations.first.map { "\($0.line):\($0.column): " } ?? ""
            let firstLine = error.message.split(separator: "\n").first.map(String.init) ?? error.message
            throw ImportError.invalidFile(path: source, format: "a GraphQL schema", reason: place + firstLine)
        }
        var components = URLComponents(url: endpointURL, resolvingAgainstBaseURL: false)
        let path = components?.path.isEmpty == false ? components!.path : "/graphql"
        components?.path = ""
        components?.query = nil
        let baseURL = components?.string ?? endpointURL.absoluteString

        var items: [CollectionItem] = []
        var warnings: [String] = []
        for (kind, root) in [("query", schema.queryType), ("mutation", schema.mutationType)] {
            guard let root, let fields = try? root.fields(), !fields.isEmpty else { continue }
            let folder = kind == "query" ? "Query" : "Mutation"
            var endpoints: [CollectionItem] = []
            for (name, field) in fields {
                var endpoint = Endpoint(
                    name: name, folderPath: [folder], method: .post, path: path,
                    description: field.description)
                endpoint.graphql = operation(kind: kind, name: name, field: field)
                endpoints.append(.endpoint(endpoint))
            }
            items.append(.folder(Folder(name: folder, items: endpoints)))
        }
        if items.isEmpty {
            warnings.append("\(source): the schema has no query or mutation fields; nothing to import.")
        }
        let environment = Environment(name: "default", baseURLTemplate: baseURL)
        let collection = APICollection(
            name: "GraphQL API", variables: [], environments: [environment], items: items, warnings: [])
        return ImportResult(collection: collection, warnings: warnings)
    }

    /// `query User($id: ID!) { user(id: $id) { id name } }` with variables to fill in.
    func operation(kind: String, name: String, field: GraphQLField) -> GraphQLOperation {
        let operationName = name.prefix(1).uppercased() + name.dropFirst()
        let arguments = field.args
        let declared = arguments.map { "$\($0.key): \(GraphQLSchemaOutline.typeReference($0.value.type))" }.joined(
            separator: ", ")
        let passed = arguments.map { "\($0.key): $\($0.key)" }.joined(separator: ", ")
        var text =
            "\(kind) \(operationName)\(declared.isEmpty ? "" : "(\(declared))") {\n  "
            + "\(name)\(passed.isEmpty ? "" : "(\(passed))")"
        let selection = Self.scalarSelection(of: field.type)
        if !selection.isEmpty { text += " {\n" + selection.map { "    \($0)" }.joined(separator: "\n") + "\n  }" }
        text += "\n}\n"
        let variables: JSONValue? =
            arguments.isEmpty
            ? nil
            : .object(arguments.map { (key: $0.key, value: Self.placeholder(for: $0.value.type)) })
        return GraphQLOperation(document: .inline(text), variables: variables, operationName: operationName)
    }

    /// The fields of a type's named type that are scalars or enums and need no argument;
    /// `__typename` when there are none; nothing for a scalar.
    static func scalarSelection(of type: GraphQLType) -> [String] {
        let named = getNamedType(type: type)
        let fields: GraphQLFieldMap?
        if let object = named as? GraphQLObjectType {
            fields = try? object.fields()
        } else if let interface = named as? GraphQLInterfaceType {
            fields = try? interface.fields()
        } else if named is GraphQLUnionType {
            return ["__typename"]
        } else {
            return []
        }
        let scalars = (fields ?? [:]).filter { _, field in
            let fieldType = getNamedType(type: field.type)
            let isLeaf = fieldType is GraphQLScalarType || fieldType is GraphQLEnumType
            let needsArgument = field.args.values.contains { $0.type is GraphQLNonNull && $0.defaultValue == nil }
            return isLeaf && !needsArgument && field.deprecationReason == nil
        }.map(\.key)
        return scalars.isEmpty ? ["__typename"] : scalars
    }

    /// A value to start from: for a required argument an empty value of its type, else null.
    static func placeholder(for type: GraphQLInputType) -> JSONValue {
        guard let nonNull = type as? GraphQLNonNull else { return .null }
        if nonNull.ofType is GraphQLList { return .array([]) }
        if let enumType = nonNull.ofType as? GraphQLEnumType, let first = enumType.values.first {
            return .string(first.name)
        }
        if nonNull.ofType is GraphQLInputObjectType { return .object([]) }
        switch getNamedType(type: nonNull.ofType)?.name {
        case "Int", "Float": return .number("0")
        case "Boolean": return .bool(false)
        default: return .string("")
        }
    }

}
