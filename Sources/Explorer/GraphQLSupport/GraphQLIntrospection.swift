import Foundation
import NetworkingCore
import Workspace

/// Schema introspection: the query every GraphQL server answers with its schema, and that
/// answer written as SDL (the schema language), the one form the rest reads: a cached schema,
/// the importer, the validator (GraphQLSwift builds a schema from SDL).
package enum GraphQLIntrospection {
    /// The introspection query: types with fields, arguments, descriptions and deprecations.
    package static let query = """
        query IntrospectionQuery {
          __schema {
            queryType { name }
            mutationType { name }
            subscriptionType { name }
            types {
              kind name description
              fields(includeDeprecated: true) {
                name description isDeprecated deprecationReason
                args { name description type { ...TypeRef } defaultValue }
                type { ...TypeRef }
              }
              inputFields { name description type { ...TypeRef } defaultValue }
              interfaces { ...TypeRef }
              enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
              possibleTypes { ...TypeRef }
            }
          }
        }
        fragment TypeRef on __Type {
          kind name
          ofType { kind name ofType { kind name ofType { kind name ofType { kind name \
        ofType { kind name ofType { kind name ofType { kind name } } } } } } }
        }
        """

    /// The bounds of an introspection exchange: a schema answer of a large API is a few
    /// megabytes; a server that sends more, or takes longer, is not waited for.
    package static let limits = TransferOptions(timeout: .seconds(20), maximumBodySize: 16 << 20)

    /// Why an introspection answer cannot be read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong with the answer.
        package var reason: String
        package var description: String { "the introspection answer cannot be read: \(reason)" }
    }

    /// The body of the introspection request (GraphQL over HTTP, POST).
    package static var requestBody: Data {
        Data(
            JSONValue.object([("query", .string(query)), ("operationName", .string("IntrospectionQuery"))]).serialized(
                pretty: false
            ).utf8)
    }

    /// The schema an introspection answer describes, as SDL.
    ///
    /// - Parameter answer: the response body (`{"data": {"__schema": …}}`).
    /// - Throws: `Failure` when the body is not an introspection answer (with the server's
    ///   own `errors` when it sent some).
    package static func sdl(fromAnswer answer: Data) throws -> String {
        guard let value = try? JSONValue(parsing: answer) else { throw Failure(reason: "the body is not JSON") }
        guard let schema = value["data"]?["__schema"], let types = schema["types"]?.arrayValue else {
            let errors = GraphQLResponseError.errors(in: answer).map(\.line)
            throw Failure(reason: errors.isEmpty ? "it has no data.__schema" : errors.joined(separator: "; "))
        }
        var blocks: [String] = []
        let roots = [
            ("query", schema["queryType"]?["name"]?.stringValue),
            ("mutation", schema["mutationType"]?["name"]?.stringValue),
            ("subscription", schema["subscriptionType"]?["name"]?.stringValue),
        ]
        blocks.append(
            "schema {\n" + roots.compactMap { key, name in name.map { "  \(key): \($0)" } }.joined(separator: "\n")
                + "\n}")
        let builtIn: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
        for type in types {
            guard let name = type["name"]?.stringValue, !name.hasPrefix("__"), !builtIn.contains(name),
                let kind = type["kind"]?.stringValue
            else { continue }
            let head = describe(type["description"]?.stringValue, indent: "")
            switch kind {
            case "SCALAR":
                blocks.append(head + "scalar \(name)")
            case "OBJECT", "INTERFACE":
                let interfaces = type["interfaces"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
                let implements = interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
                let fields = (type["fields"]?.arrayValue ?? []).map(field).joined(separator: "\n")
                blocks.append(head + "\(kind == "OBJECT" ? "type" : "interface") \(name)\(implements) {\n\(fields)\n}")
            case "UNION":
                let members = type["possibleTypes"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
                blocks.append(head + "union \(name) = " + members.joined(separator: " | "))
            case "ENUM":
                let values = (type["enumValues"]?.arrayValue ?? []).compactMap { value -> String? in
                    guard let valueName = value["name"]?.stringValue else { return nil }
                    return describe(value["description"]?.stringValue, indent: "  ") + "  " + valueName
                        + deprecation(value)
                }
                blocks.append(head + "enum \(name) {\n" + values.joined(separator: "\n") + "\n}")
            case "INPUT_OBJECT":
                let fields = (type["inputFields"]?.arrayValue ?? []).map { inputValue($0, indent: "  ") }.joined(
                    separator: "\n")
                blocks.append(head + "input \(name) {\n\(fields)\n}")
            default:
                continue
            }
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }

    private static func field(_ field: JSONValue) -> String {
        let name = field["name"]?.stringValue ?? ""
        let args = field["args"]?.arrayValue ?? []
        let arguments =
            args.isEmpty ? "" : "(\n" + args.map { inputValue($0, indent: "    ") }.joined(separator: "\n") + "\n  )"
        return describe(field["description"]?.stringValue, indent: "  ")
            + "  \(name)\(arguments): \(typeReference(field["type"]))" + deprecation(field)
    }

    private static func inputValue(_ value: JSONValue, indent: String) -> String {
        let defaultValue = value["defaultValue"]?.stringValue.map { " = \($0)" } ?? ""
        return describe(value["description"]?.stringValue, indent: indent)
            + "\(indent)\(value["name"]?.stringValue ?? ""): \(typeReference(value["type"]))\(defaultValue)"
    }

    /// `[Post!]!` from `{kind: NON_NULL, ofType: {kind: LIST, …}}`.
    private static func typeReference(_ type: JSONValue?) -> String {
        switch type?["kind"]?.stringValue {
        case "NON_NULL": return typeReference(type?["ofType"]) + "!"
        case "LIST": return "[" + typeReference(type?["ofType"]) + "]"
        default: return type?["name"]?.stringValue ?? "String"
        }
    }

    private static func deprecation(_ value: JSONValue) -> String {
        guard value["isDeprecated"]?.boolValue == true else { return "" }
        guard let reason = value["deprecationReason"]?.stringValue else { return " @deprecated" }
        return " @deprecated(reason: \(JSONValue.string(reason).serialized(pretty: false)))"
    }

    /// A description as a string literal line above what it describes (JSON escapes are
    /// GraphQL string escapes).
    private static func describe(_ text: String?, indent: String) -> String {
        guard let text, !text.isEmpty else { return "" }
        return indent + JSONValue.string(text).serialized(pretty: false) + "\n"
    }
}

extension GraphQLIntrospection {
    /// Asks a GraphQL server for its schema (the introspection query, POST) and gives it as SDL.
    ///
    /// - Parameters:
    ///   - url: the server's GraphQL URL (`http://127.0.0.1:8080/graphql`).
    ///   - headers: headers to send (an `Authorization` the server wants); none follows a
    ///     redirect to another origin.
    ///   - transport: the transport to send through.
    ///   - options: the bounds of the exchange (`limits` by default: 20 s, 16 MiB).
    /// - Throws: a transport error (a timeout, a body over the limit), or `Failure` naming the
    ///   status or what the answer lacks.
    package static func fetchSDL(
        from url: URL, headers: HTTPHeaders = HTTPHeaders(), transport: any HTTPTransport,
        options: TransferOptions = limits
    ) async throws -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.path ?? ""
        components?.path = ""
        guard let origin = components?.string, url.scheme == "http" || url.scheme == "https" else {
            throw Failure(reason: "\(url.absoluteString) is not an http(s) URL")
        }
        var allHeaders = headers
        allHeaders.replaceOrAdd(name: "Content-Type", value: "application/json")
        allHeaders.replaceOrAdd(name: "Accept", value: GraphQLOperation.accept)
        var request = BasicRequest(method: .post, path: path, headers: allHeaders, httpBody: requestBody)
        // The headers given are the endpoint's, meant for its server (its environment's, a
        // secret's): a redirect to another origin leaves them behind, as `send` does.
        request.originBoundHeaders = Set(headers.map { $0.name.lowercased() })
        let server = Environment(name: "introspection", baseURLTemplate: origin)
        let response = try await NetworkDispatcher(serverProvider: server, transport: transport).future(
            from: request, options: options
        ).value
        let body = response.body ?? Data()
        guard (200..<300).contains(response.statusCode.code) || !GraphQLResponseError.errors(in: body).isEmpty else {
            throw Failure(
                reason: "\(url.absoluteString) answered \(response.statusCode.code) \(response.statusCode.reasonPhrase)"
            )
        }
        return try sdl(fromAnswer: body)
    }
}
