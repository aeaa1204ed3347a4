import Contract
import Foundation
import NetworkingCore

/// One way a request breaks the rules its operation declares.
package struct MockRequestViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where the value is: a parameter's `in`, or the body.
    package enum Location: String, Sendable {
        case path, query, header, cookie, body
    }

    package var location: Location
    /// The parameter's name; `nil` for the body.
    package var name: String?
    /// Where in the value (a parameter's, as parsed, or the body's), as a JSON pointer: empty for the whole.
    package var pointer: String
    /// The keyword or object of the document that is not met (`/components/parameters/id/schema/maximum`),
    /// when there is one.
    package var schemaPointer: String?
    package var message: String

    package init(
        location: Location, name: String?, pointer: String = "", schemaPointer: String? = nil, message: String
    ) {
        self.location = location
        self.name = name
        self.pointer = pointer
        self.schemaPointer = schemaPointer
        self.message = message
    }

    /// `query startDate: "x" is not a valid date`, `body /email: 7 is not of type string`.
    package var description: String {
        let place = [location.rawValue, name, pointer.isEmpty ? nil : pointer].compactMap { $0 }
        return "\(place.joined(separator: " ")): \(message)"
    }

    /// As the 422 problem lists it.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("in", .string(location.rawValue))]
        if let name { members.append(("name", .string(name))) }
        members.append(("pointer", .string(pointer)))
        members.append(("message", .string(message)))
        if let schemaPointer { members.append(("schema", .string("#" + schemaPointer))) }
        return .object(members)
    }
}

/// A request as the rules read it: the path (without the base path), the query's pairs, the
/// headers, and the body when the operation takes one.
package struct MockIncomingRequest: Sendable {
    /// The path the route's template matched, percent-encoded as sent: `/users/42`.
    package var path: String
    /// The query's pairs, decoded, in order (a name may repeat).
    package var query: [(name: String, value: String)]
    /// Header values by lower-case name (a repeated header's values joined with `, `).
    package var headers: [String: String]
    /// `nil` when the body was not read (the operation takes none, or it is too large): then
    /// it is not checked.
    package var body: Data?

    package init(path: String, query: [(name: String, value: String)], headers: [String: String], body: Data?) {
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The pairs of a query string (`a=1&b=x%20y&b=z`): `+` is a space, as HTML forms send it.
    package static func pairs(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
    }
}

/// The request rules of every operation of a document, compiled once: the parameters (path,
/// query, header and cookie; required ones present, values parsed with the OpenAPI
/// serialisation defaults and checked against their schemas) and the request body (present
/// when required, a content type the operation declares, JSON and form bodies checked against
/// their schemas). The schemas are those of the response checks' engine, with `format`
/// asserted. Swagger 2.0 documents: the `in: body` parameter's schema, and the other
/// parameters' presence.
package struct MockRequestRules: Sendable {
    private let operations: [String: OperationRules]

    /// The most bytes of a body read to be checked; a larger body is answered unchecked.
    package static let bodyLimit = 8 * 1_024 * 1_024

    package init(contract: OpenAPIContract) {
        let document = contract.document
        let isSwagger2 = document["swagger"] != nil
        var builder = Builder(document: document, isSwagger2: isSwagger2)
        var drafts: [String: OperationRules] = [:]
        for operation in contract.operations {
            drafts[operation.pointer] = builder.rules(of: operation)
        }
        let set = SchemaSet(
            document: document, pointers: Array(builder.schemaPointers), dialect: contract.dialect,
            assertsFormats: true, identifierRoots: isSwagger2 ? ["/definitions"] : ["/components/schemas"])
        operations = drafts.mapValues { $0.compiled(set.schemas, document: document) }
    }

    /// Whether the operation's checks read the body.
    package func readsBody(_ operation: OpenAPIContract.Operation) -> Bool {
        operations[operation.pointer]?.body != nil
    }

    /// The violations of a request to `operation`, at most `limit`.
    package func violations(
        of request: MockIncomingRequest, operation: OpenAPIContract.Operation, limit: Int = 20
    ) -> [MockRequestViolation] {
        guard let rules = operations[operation.pointer] else { return [] }
        var found: [MockRequestViolation] = []
        let pathValues = Self.pathValues(template: operation.path, path: request.path)
        let declaredQuery = Set(rules.parameters.filter { $0.location == .query }.map(\.name))
        for parameter in rules.parameters {
            guard found.count < limit else { break }
            found += parameter.check(request, pathValues: pathValues, declaredQuery: declaredQuery)
        }
        if found.count < limit, let body = rules.body, let data = request.body {
            found += body.check(data, contentType: request.headers["content-type"])
        }
        return Array(found.prefix(limit))
    }

    /// The path parameters' values (percent-decoded) by name.
    static func pathValues(template: String, path: String) -> [String: String] {
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return [:] }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) where part.hasPrefix("{") && part.hasSuffix("}") {
            values[String(part.dropFirst().dropLast())] = segment.removingPercentEncoding ?? String(segment)
        }
        return values
    }
}

// MARK: - Rules

/// The JSON types a value may take, as a schema names them (`integer`, `string`, …), with the
/// types of its items or properties: what a parameter's text is parsed to.
indirect enum ValueShape: Sendable {
    case scalar(types: [String])
    case array(items: ValueShape)
    case object(properties: [String: ValueShape], other: ValueShape)

    static let unknown = ValueShape.scalar(types: [])

    /// A text as the JSON values it may stand for, the most likely first: `7` is the number 7
    /// for an integer schema, and the string `"7"` for a string one.
    func candidates(_ text: String) -> [JSONValue] {
        guard case .scalar(let types) = self else { return [.string(text)] }
        var values: [JSONValue] = []
        let literal = Self.literal(text)
        for type in types {
            switch type {
            case "integer", "number":
                if let literal, case .number = literal { values.append(literal) }
            case "boolean":
                if let literal, case .bool = literal { values.append(literal) }
            case "null":
                if text.isEmpty || text == "null" { values.append(.null) }
            default:
                values.append(.string(text))
            }
        }
        if types.isEmpty, let literal { values.append(literal) }
        if types.isEmpty || values.isEmpty { values.append(.string(text)) }
        return values
    }

    /// A number, `true`, `false` or `null` written as JSON, else `nil`.
    static func literal(_ text: String) -> JSONValue? {
        guard let first = text.first,
            first == "-" || first.isNumber || text == "true" || text == "false" || text == "null"
        else { return nil }
        guard !text.contains(where: \.isWhitespace), let value = try? JSONValue(parsing: text) else {
            return nil
        }
        switch value {
        case .number, .bool, .null: return value
        default: return nil
        }
    }

    /// The value of items' or properties' texts, each parsed by its own shape (its first candidate).
    func first(_ text: String) -> JSONValue { candidates(text).first ?? .string(text) }
}

struct ParameterRule: Sendable {
    var name: String
    var location: MockRequestViolation.Location
    var required: Bool
    var style: String
    var explode: Bool
    var shape: ValueShape
    /// `content: {application/json: …}`: the text is JSON.
    var isJSONContent: Bool
    var schemaPointer: String?
    var schema: JSONSchema?
    /// The `int32`/`int64` formats of its schema, which the schema engine does not assert.
    var integerFormats = MockIntegerFormats()

    func check(_ request: MockIncomingRequest, pathValues: [String: String], declaredQuery: Set<String>)
        -> [MockRequestViolation]
    {
        guard let texts = texts(in: request, pathValues: pathValues, declaredQuery: declaredQuery) else {
            guard required else { return [] }
            return [
                MockRequestViolation(
                    location: location, name: name, schemaPointer: nil,
                    message: "the required \(location.rawValue) parameter \(name) is missing")
            ]
        }
        if case .scalar = shape, !isJSONContent, location == .query, texts.count > 1 {
            return [violation("", "given \(texts.count) times; the parameter takes one value")]
        }
        guard let schema else { return [] }
        let candidates: [JSONValue]
        if isJSONContent {
            guard let parsed = try? JSONValue(parsing: texts.first ?? "") else {
                return [violation("", "\(JSONValue.quote(texts.first ?? "")) is not JSON")]
            }
            candidates = [parsed]
        } else {
            candidates = values(texts)
        }
        if let valid = candidates.first(where: schema.isValid) {
            return integerFormats.violations(of: valid).map {
                MockRequestViolation(
                    location: location, name: name, pointer: $0.pointer, schemaPointer: $0.schemaPointer,
                    message: $0.message)
            }
        }
        return schema.validate(candidates[0], limit: 5).map {
            MockRequestViolation(
                location: location, name: name, pointer: $0.instancePointer, schemaPointer: $0.schemaPointer,
                message: $0.message)
        }
    }

    private func violation(_ pointer: String, _ message: String) -> MockRequestViolation {
        MockRequestViolation(
            location: location, name: name, pointer: pointer, schemaPointer: schemaPointer, message: message)
    }

    /// The texts the request carries for the parameter (several for an exploded query array,
    /// `name=value` pairs for an exploded object), or `nil` when it is absent.
    private func texts(in request: MockIncomingRequest, pathValues: [String: String], declaredQuery: Set<String>)
        -> [String]?
    {
        switch location {
        case .path:
            guard let raw = pathValues[name] else { return nil }
            if style == "matrix" && explode {
                // `;id=1;id=2` is the list 1,2; `;x=1;y=2` the members x=1,y=2.
                let parts = raw.split(separator: ";").map { Self.unprefixed(";" + $0, style: style, name: name) }
                return [parts.joined(separator: ",")]
            }
            return [Self.unprefixed(raw, style: style, name: name)]
        case .query:
            if case .object = shape, !isJSONContent {
                if style == "deepObject" {
                    let prefix = name + "["
                    let pairs = request.query.filter { $0.name.hasPrefix(prefix) && $0.name.hasSuffix("]") }
                    guard !pairs.isEmpty else { return nil }
                    return pairs.map { "\($0.name.dropFirst(prefix.count).dropLast())=\($0.value)" }
                }
                if explode {
                    let pairs = request.query.filter { !declaredQuery.contains($0.name) }
                    return pairs.isEmpty ? nil : pairs.map { "\($0.name)=\($0.value)" }
                }
            }
            let values = request.query.filter { $0.name == name }.map(\.value)
            return values.isEmpty ? nil : values
        case .header:
            return request.headers[name.lowercased()].map { [$0] }
        case .cookie:
            for part in (request.headers["cookie"] ?? "").split(separator: ";") {
                let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if pair[0].trimmingCharacters(in: .whitespaces) == name {
                    return [pair.count > 1 ? String(pair[1]).trimmingCharacters(in: .whitespaces) : ""]
                }
            }
            return nil
        case .body:
            return nil
        }
    }

    /// The texts as JSON values: split by the parameter's style, each parsed by its shape.
    private func values(_ texts: [String]) -> [JSONValue] {
        switch shape {
        case .scalar:
            return shape.candidates(texts.last ?? "")
        case .array(let item):
            return [.array(items(texts).map { item.first($0) })]
        case .object(let properties, let other):
            var members: [(key: String, value: JSONValue)] = []
            for (key, text) in pairs(texts) {
                members.append((key, (properties[key] ?? other).first(text)))
            }
            return [.object(members)]
        }
    }

    /// The items of an array parameter.
    private func items(_ texts: [String]) -> [String] {
        if location == .query && explode && (style == "form" || style == "spaceDelimited" || style == "pipeDelimited") {
            return texts
        }
        let text = texts.last ?? ""
        if text.isEmpty { return [] }
        let separator: Character
        switch style {
        case "spaceDelimited": separator = " "
        case "pipeDelimited": separator = "|"
        case "label" where explode: separator = "."
        default: separator = ","
        }
        let items = text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
        // A header list may have spaces after its commas (`1, 2`).
        return location == .header ? items.map { $0.trimmingCharacters(in: .whitespaces) } : items
    }

    /// The members of an object parameter: `k=v` texts (exploded) or `k,v,k,v`.
    private func pairs(_ texts: [String]) -> [(String, String)] {
        if texts.count > 1 || texts.first?.contains("=") == true && (explode || style == "deepObject") {
            let all = texts.count > 1 ? texts : (texts.first ?? "").split(separator: ",").map(String.init)
            return all.map { text in
                let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
        }
        let parts = (texts.first ?? "").split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return stride(from: 0, to: parts.count - 1, by: 2).map { (parts[$0], parts[$0 + 1]) }
    }

    /// A path value without its label (`.`) or matrix (`;name=`) prefix.
    static func unprefixed(_ text: String, style: String, name: String) -> String {
        switch style {
        case "label": return text.hasPrefix(".") ? String(text.dropFirst()) : text
        case "matrix":
            let prefix = ";" + name + "="
            if text.hasPrefix(prefix) { return String(text.dropFirst(prefix.count)) }
            return text.hasPrefix(";" + name) ? String(text.dropFirst(name.count + 1)) : text
        default: return text
        }
    }
}

struct BodyRule: Sendable {
    enum Kind: Sendable { case json, form, other }

    struct Media: Sendable {
        var range: String
        var kind: Kind
        var schemaPointer: String?
        var schema: JSONSchema?
        /// For a form: how each field's text is parsed.
        var shape: ValueShape
        /// The `int32`/`int64` formats of its schema.
        var integerFormats = MockIntegerFormats()
    }

    var required: Bool
    var media: [Media]

    func check(_ body: Data, contentType: String?) -> [MockRequestViolation] {
        // An empty form (`Content-Type: application/x-www-form-urlencoded`, no bytes) is a form
        // with no field; any other empty body is no body.
        let isEmptyForm =
            contentType.map { type in
                media.contains { $0.kind == .form && MockResponder.covers($0.range, Self.mediaType(type)) }
            } ?? false
        guard !body.isEmpty || isEmptyForm else {
            guard required else { return [] }
            return [
                MockRequestViolation(
                    location: .body, name: nil,
                    message: "the request has no body; the operation requires one (\(declared))")
            ]
        }
        guard !media.isEmpty else { return [] }
        guard let contentType, !contentType.isEmpty else {
            return [
                MockRequestViolation(location: .body, name: nil, message: "the body has no Content-Type (\(declared))")
            ]
        }
        let type = Self.mediaType(contentType)
        guard
            let chosen = media.first(where: { Self.mediaType($0.range) == type })
                ?? media.first(where: { MockResponder.covers($0.range, type) })
        else {
            return [
                MockRequestViolation(
                    location: .body, name: nil,
                    message: "the content type \(type) is not one the operation takes (\(declared))")
            ]
        }
        guard let schema = chosen.schema else { return [] }
        let instance: JSONValue
        switch chosen.kind {
        case .json:
            do {
                instance = try JSONValue(parsing: body)
            } catch {
                return [
                    MockRequestViolation(location: .body, name: nil, message: "the body is not JSON: \(error.message)")
                ]
            }
        case .form:
            var members: [(key: String, value: JSONValue)] = []
            var properties: [String: ValueShape] = [:]
            var other = ValueShape.unknown
            if case .object(let declared, let rest) = chosen.shape { (properties, other) = (declared, rest) }
            let pairs = MockIncomingRequest.pairs(String(decoding: body, as: UTF8.self))
            for (name, value) in pairs where !members.contains(where: { $0.key == name }) {
                let shape = properties[name] ?? other
                if case .array(let items) = shape {
                    members.append((name, .array(pairs.filter { $0.name == name }.map { items.first($0.value) })))
                } else {
                    members.append((name, shape.first(value)))
                }
            }
            instance = .object(members)
        case .other:
            return []
        }
        let broken = schema.validate(instance, limit: 10).map {
            MockRequestViolation(
                location: .body, name: nil, pointer: $0.instancePointer, schemaPointer: $0.schemaPointer,
                message: $0.message)
        }
        guard broken.isEmpty else { return broken }
        return chosen.integerFormats.violations(of: instance).map {
            MockRequestViolation(
                location: .body, name: nil, pointer: $0.pointer, schemaPointer: $0.schemaPointer, message: $0.message)
        }
    }

    private var declared: String { media.map(\.range).joined(separator: ", ") }

    static func mediaType(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }
}

struct OperationRules: Sendable {
    var parameters: [ParameterRule]
    var body: BodyRule?

    func compiled(_ schemas: [String: JSONSchema], document: JSONValue) -> OperationRules {
        var copy = self
        for index in copy.parameters.indices {
            copy.parameters[index].schema = copy.parameters[index].schemaPointer.flatMap { schemas[$0] }
            copy.parameters[index].integerFormats = MockIntegerFormats(
                schemaAt: copy.parameters[index].schemaPointer, document: document)
        }
        if var body = copy.body {
            for index in body.media.indices {
                body.media[index].schema = body.media[index].schemaPointer.flatMap { schemas[$0] }
                body.media[index].integerFormats = MockIntegerFormats(
                    schemaAt: body.media[index].schemaPointer, document: document)
            }
            copy.body = body
        }
        return copy
    }
}

// MARK: - Reading the document

private struct Builder {
    let document: JSONValue
    let isSwagger2: Bool
    var schemaPointers: Set<String> = []

    /// Follows `$ref`s within the document, with where the value is.
    func resolved(_ value: JSONValue, at pointer: String) -> (JSONValue, String) {
        var current = (value, pointer)
        for _ in 0..<8 {
            guard let reference = current.0["$ref"]?.stringValue, reference.hasPrefix("#"),
                let target = JSONPointer.resolve(String(reference.dropFirst()), in: document)
            else { return current }
            current = (target, String(reference.dropFirst()))
        }
        return current
    }

    mutating func rules(of operation: OpenAPIContract.Operation) -> OperationRules {
        let pathItemPointer = String(operation.pointer[..<operation.pointer.lastIndex(of: "/")!])
        let operationValue = JSONPointer.resolve(operation.pointer, in: document) ?? .null
        let pathItem = JSONPointer.resolve(pathItemPointer, in: document) ?? .null
        // The operation's parameters override the path item's of the same name and place.
        var declared: [(value: JSONValue, pointer: String)] = []
        for (owner, pointer) in [(pathItem, pathItemPointer), (operationValue, operation.pointer)] {
            for (index, parameter) in (owner["parameters"]?.arrayValue ?? []).enumerated() {
                let (value, at) = resolved(parameter, at: pointer + "/parameters/\(index)")
                let key = (value["name"]?.stringValue, value["in"]?.stringValue)
                declared.removeAll { ($0.value["name"]?.stringValue, $0.value["in"]?.stringValue) == key }
                declared.append((value, at))
            }
        }
        var parameters: [ParameterRule] = []
        var body: BodyRule?
        for (value, pointer) in declared {
            guard let name = value["name"]?.stringValue, let place = value["in"]?.stringValue else { continue }
            if isSwagger2 && place == "body" {
                let consumes =
                    (operationValue["consumes"] ?? document["consumes"])?.arrayValue?.compactMap(\.stringValue)
                    ?? ["application/json"]
                let schemaPointer = value["schema"] != nil ? pointer + "/schema" : nil
                if let schemaPointer { schemaPointers.insert(schemaPointer) }
                body = BodyRule(
                    required: value["required"]?.boolValue == true,
                    media: consumes.map {
                        BodyRule.Media(
                            range: $0, kind: OpenAPIContractMedia.isJSON($0) ? .json : .other,
                            schemaPointer: OpenAPIContractMedia.isJSON($0) ? schemaPointer : nil, shape: .unknown)
                    })
                continue
            }
            guard let location = MockRequestViolation.Location(rawValue: place), location != .body else { continue }
            if location == .header, ["accept", "content-type", "authorization"].contains(name.lowercased()) {
                continue
            }
            var rule = ParameterRule(
                name: name, location: location,
                required: location == .path || value["required"]?.boolValue == true,
                style: value["style"]?.stringValue ?? (location == .query || location == .cookie ? "form" : "simple"),
                explode: value["explode"]?.boolValue
                    ?? ((value["style"]?.stringValue ?? "form") == "form"
                        && (location == .query || location == .cookie)),
                shape: .unknown, isJSONContent: false, schemaPointer: nil, schema: nil)
            if isSwagger2 {
                // Presence only: a Swagger 2.0 parameter is its own schema, with a Boolean `required`.
                parameters.append(rule)
                continue
            }
            if let schema = value["schema"] {
                rule.schemaPointer = pointer + "/schema"
                rule.shape = shape(of: schema, at: pointer + "/schema")
            } else if let media = value["content"]?.members?.first, media.value["schema"] != nil {
                rule.schemaPointer = pointer + "/content/" + JSONPointer.escape(media.key) + "/schema"
                rule.isJSONContent = OpenAPIContractMedia.isJSON(media.key)
                if !rule.isJSONContent { rule.shape = .scalar(types: ["string"]) }
            }
            if let schemaPointer = rule.schemaPointer { schemaPointers.insert(schemaPointer) }
            parameters.append(rule)
        }
        if !isSwagger2, let requestBody = operationValue["requestBody"] {
            let (value, pointer) = resolved(requestBody, at: operation.pointer + "/requestBody")
            var media: [BodyRule.Media] = []
            for member in value["content"]?.members ?? [] {
                let type = BodyRule.mediaType(member.key)
                let kind: BodyRule.Kind =
                    OpenAPIContractMedia.isJSON(type)
                    ? .json : type == "application/x-www-form-urlencoded" ? .form : .other
                var entry = BodyRule.Media(range: member.key, kind: kind, schemaPointer: nil, shape: .unknown)
                if member.value["schema"] != nil, kind != .other {
                    let schemaPointer = pointer + "/content/" + JSONPointer.escape(member.key) + "/schema"
                    entry.schemaPointer = schemaPointer
                    schemaPointers.insert(schemaPointer)
                    if kind == .form { entry.shape = shape(of: member.value["schema"]!, at: schemaPointer) }
                }
                media.append(entry)
            }
            body = BodyRule(required: value["required"]?.boolValue == true, media: media)
        }
        return OperationRules(parameters: parameters, body: body)
    }

    /// How a text is parsed for a schema: its types, its items' or its properties'.
    func shape(of schemaValue: JSONValue, at pointer: String, depth: Int = 0) -> ValueShape {
        let (schema, at) = resolved(schemaValue, at: pointer)
        guard depth < 6 else { return .unknown }
        var types: [String] = []
        if let name = schema["type"]?.stringValue { types = [name] }
        if let names = schema["type"]?.arrayValue?.compactMap(\.stringValue) { types = names }
        if schema["nullable"]?.boolValue == true, !types.isEmpty { types.append("null") }
        // A schema of parts: the parts' shapes (the first that says more than a type).
        for keyword in ["allOf", "oneOf", "anyOf"] {
            for (index, part) in (schema[keyword]?.arrayValue ?? []).enumerated() {
                let partShape = shape(of: part, at: at + "/\(keyword)/\(index)", depth: depth + 1)
                switch partShape {
                case .scalar(let more):
                    types += more.filter { !types.contains($0) }
                default:
                    if types.isEmpty || types == ["array"] || types == ["object"] { return partShape }
                }
            }
        }
        if types.isEmpty {
            for value in (schema["enum"]?.arrayValue ?? []) + (schema["const"].map { [$0] } ?? []) {
                let name: String
                switch value {
                case .number: name = "number"
                case .bool: name = "boolean"
                case .null: name = "null"
                case .string: name = "string"
                default: continue
                }
                if !types.contains(name) { types.append(name) }
            }
        }
        if types == ["array"] || (types.isEmpty && schema["items"] != nil) {
            guard let items = schema["items"] else { return .array(items: .unknown) }
            return .array(items: shape(of: items, at: at + "/items", depth: depth + 1))
        }
        if types == ["object"] || (types.isEmpty && schema["properties"] != nil) {
            var properties: [String: ValueShape] = [:]
            for property in schema["properties"]?.members ?? [] {
                properties[property.key] = shape(
                    of: property.value, at: at + "/properties/" + JSONPointer.escape(property.key), depth: depth + 1)
            }
            var other = ValueShape.unknown
            if let additional = schema["additionalProperties"], additional.members != nil {
                other = shape(of: additional, at: at + "/additionalProperties", depth: depth + 1)
            }
            return .object(properties: properties, other: other)
        }
        // Numbers before strings: a text that reads as a number is tried as one first.
        let order = ["integer", "number", "boolean", "null"]
        return .scalar(types: types.sorted { (order.firstIndex(of: $0) ?? 9) < (order.firstIndex(of: $1) ?? 9) })
    }
}
