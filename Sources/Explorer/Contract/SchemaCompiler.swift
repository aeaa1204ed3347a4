import Foundation
import NetworkingCore

/// Turns the schema objects of a document into a `SchemaProgram`: each schema object reached
/// from the entry points becomes one node, compiled once; `$ref` becomes a node index.
///
/// Identifiers (`$id`, draft 4's `id`) and `$anchor` are indexed from the entry points first,
/// so that a `$ref` may name a schema by URI as well as by pointer. A mistake of the document
/// (an unresolvable `$ref`, a bad pattern, a keyword of the wrong type) becomes a warning and
/// the keyword is left out.
struct SchemaCompiler {
    let document: JSONValue
    let dialect: SchemaDialect
    let assertsFormats: Bool
    let documentBase: String

    private(set) var tables = SchemaTables()
    private(set) var warnings: [SchemaWarning] = []
    private var nodeAt: [String: Int] = [:]
    /// Absolute URI (no fragment) of a schema resource → its pointer in the document.
    private var resources: [String: String] = [:]
    /// `uri#anchor` → pointer.
    private var anchors: [String: String] = [:]
    /// The base URI in effect inside each schema object indexed.
    private var baseAt: [String: String] = [:]

    init(document: JSONValue, dialect: SchemaDialect, assertsFormats: Bool, documentBase: String) {
        self.document = document
        self.dialect = dialect
        self.assertsFormats = assertsFormats
        self.documentBase = documentBase
        resources[Self.withoutFragment(documentBase)] = ""
    }

    // MARK: - Entry points

    /// The node for the schema at `pointer` (compiling it and all it reaches), or `nil` with
    /// a warning when the pointer names nothing.
    mutating func compileEntry(at pointer: String) -> Int? {
        if let node = nodeAt[pointer] { return node }
        guard let value = JSONPointer.resolve(pointer, in: document) else {
            warn(pointer, "no schema at this pointer")
            return nil
        }
        if baseAt[pointer] == nil { index(value, at: pointer, base: inheritedBase(of: pointer)) }
        return compile(value, at: pointer)
    }

    /// Indexes the identifiers of the schemas under `pointer` without compiling them (the
    /// places `$ref` may name by URI: OpenAPI's `components/schemas`).
    mutating func indexIdentifiers(under pointer: String) {
        guard let value = JSONPointer.resolve(pointer, in: document), baseAt[pointer] == nil else { return }
        index(value, at: pointer, base: inheritedBase(of: pointer))
    }

    // MARK: - Indexing identifiers

    private var idKeyword: String { dialect.isDraft4Family ? "id" : "$id" }

    private mutating func index(_ value: JSONValue, at pointer: String, base: String) {
        guard case .object(let members) = value, baseAt[pointer] == nil else { return }
        var base = base
        if let id = value[idKeyword]?.stringValue, !(dialect.isDraft4Family && value["$ref"] != nil) {
            if dialect.isDraft4Family, id.hasPrefix("#") {
                anchors[Self.withoutFragment(base) + id] = pointer
            } else {
                let resolved = Self.resolve(id, against: base)
                base = Self.withoutFragment(resolved)
                if resources[base] == nil { resources[base] = pointer }
                if dialect.isDraft4Family, let hash = resolved.firstIndex(of: "#"), resolved[hash...].count > 1 {
                    anchors[resolved] = pointer
                }
            }
        }
        if !dialect.isDraft4Family, let anchor = value["$anchor"]?.stringValue {
            anchors[Self.withoutFragment(base) + "#" + anchor] = pointer
        }
        baseAt[pointer] = base
        for member in members {
            let child = JSONPointer.appending(pointer, member.key)
            switch member.key {
            case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
                for entry in member.value.members ?? [] {
                    index(entry.value, at: JSONPointer.appending(child, entry.key), base: base)
                }
            case "allOf", "anyOf", "oneOf", "prefixItems", "items":
                if case .array(let elements) = member.value {
                    for (offset, element) in elements.enumerated() {
                        index(element, at: child + "/\(offset)", base: base)
                    }
                } else {
                    index(member.value, at: child, base: base)
                }
            case "not", "if", "then", "else", "additionalProperties", "additionalItems", "contains", "propertyNames",
                "unevaluatedProperties", "unevaluatedItems":
                index(member.value, at: child, base: base)
            default:
                break
            }
        }
    }

    /// The base URI for a pointer not indexed yet: that of its nearest indexed ancestor.
    private func inheritedBase(of pointer: String) -> String {
        var candidate = pointer
        while !candidate.isEmpty {
            if let base = baseAt[candidate] { return base }
            guard let slash = candidate.lastIndex(of: "/") else { break }
            candidate = String(candidate[..<slash])
        }
        return baseAt[""] ?? documentBase
    }

    // MARK: - URIs

    static func withoutFragment(_ uri: String) -> String {
        guard let hash = uri.firstIndex(of: "#") else { return uri }
        return String(uri[..<hash])
    }

    static func hasScheme(_ uri: String) -> Bool {
        guard let first = uri.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first) else {
            return false
        }
        for scalar in uri.unicodeScalars {
            if scalar == ":" { return true }
            if !(CharacterSet.alphanumerics.contains(scalar) || scalar == "+" || scalar == "-" || scalar == ".") {
                return false
            }
        }
        return false
    }

    /// `reference` resolved against `base` (RFC 3986, through Foundation for relative paths).
    static func resolve(_ reference: String, against base: String) -> String {
        if hasScheme(reference) || base.isEmpty { return reference }
        if reference.hasPrefix("#") { return withoutFragment(base) + reference }
        if let baseURL = URL(string: withoutFragment(base)), let url = URL(string: reference, relativeTo: baseURL) {
            return url.absoluteString
        }
        return reference
    }

    /// The document pointer a `$ref` names from a schema whose base is `base`.
    private mutating func target(of reference: String, base: String) -> String? {
        let absolute = Self.resolve(reference, against: base)
        let uri = Self.withoutFragment(absolute)
        let fragment = absolute.firstIndex(of: "#").map { String(absolute[absolute.index(after: $0)...]) } ?? ""
        let decoded = fragment.removingPercentEncoding ?? fragment
        if decoded.isEmpty || decoded.hasPrefix("/") {
            guard let root = resources[uri] ?? (uri == Self.withoutFragment(documentBase) ? "" : nil) else {
                return nil
            }
            let pointer = root + decoded
            guard let value = JSONPointer.resolve(pointer, in: document) else { return nil }
            if baseAt[pointer] == nil { index(value, at: pointer, base: inheritedBase(of: pointer)) }
            return pointer
        }
        return anchors[uri + "#" + fragment]
    }

    // MARK: - Compiling

    private mutating func warn(_ pointer: String, _ message: String) {
        warnings.append(SchemaWarning(schemaPointer: pointer, message: message))
    }

    private mutating func keyword(_ pointer: String, _ name: String) -> Int {
        tables.keywordPointers.append(JSONPointer.appending(pointer, name))
        return tables.keywordPointers.count - 1
    }

    /// The node of the schema `value` at `pointer`.
    mutating func compile(_ value: JSONValue, at pointer: String) -> Int {
        if let node = nodeAt[pointer] { return node }
        let id = tables.nodes.count
        tables.nodes.append(SchemaNode())
        nodeAt[pointer] = id
        switch value {
        case .bool(true):
            break
        case .bool(false):
            tables.keywordPointers.append(pointer)
            finish(id, PendingNode(checks: [.never(at: tables.keywordPointers.count - 1)]))
        case .object:
            if baseAt[pointer] == nil { index(value, at: pointer, base: inheritedBase(of: pointer)) }
            finish(id, compileObject(value, at: pointer))
        default:
            warn(pointer, "a schema must be an object\(dialect.isDraft4Family ? "" : " or a Boolean"): left out")
        }
        return id
    }

    private mutating func compileChild(_ value: JSONValue, _ pointer: String) -> Int {
        compile(value, at: pointer)
    }

    /// A node's checks while its children are compiled.
    struct PendingNode {
        var acceptsNull = false
        var checks: [Check] = []
    }

    /// Lays a node's checks side by side at the end of the program's checks.
    private mutating func finish(_ id: Int, _ node: PendingNode) {
        tables.nodes[id] = SchemaNode(
            acceptsNull: node.acceptsNull, start: tables.checks.count, count: node.checks.count)
        tables.checks.append(contentsOf: node.checks)
    }

    /// Adds `value` to a table; its index.
    private func append<Value>(_ value: Value, to table: inout [Value]) -> Int {
        table.append(value)
        return table.count - 1
    }

    private mutating func compileObject(_ schema: JSONValue, at pointer: String) -> PendingNode {
        var node = PendingNode()
        let base = baseAt[pointer] ?? documentBase
        let draft4 = dialect.isDraft4Family

        if let reference = schema["$ref"] {
            if let text = reference.stringValue, let target = target(of: text, base: base),
                let targetValue = JSONPointer.resolve(target, in: document)
            {
                let at = keyword(pointer, "$ref")
                node.checks.append(.reference(compile(targetValue, at: target), at: at))
            } else {
                warn(
                    JSONPointer.appending(pointer, "$ref"),
                    "cannot resolve \(reference.stringValue.map { "'\($0)'" } ?? "a $ref that is not a string"): "
                        + "it accepts any value"
                )
            }
            // Draft 4 and OpenAPI 3.0: `$ref` replaces whatever stands beside it.
            if draft4 { return node }
        }

        // `nullable: true` lets null through the whole schema object, with or without a `type`
        // beside it: documents write it beside `anyOf` and `$ref`-less `allOf` (Stripe's do),
        // meaning that the value may be null.
        if dialect == .openAPI30, schema["nullable"]?.boolValue == true {
            node.acceptsNull = true
        }
        if let type = schema["type"] { compileType(type, pointer, into: &node) }
        if let values = schema["enum"] {
            if case .array(let elements) = values {
                var enumeration = EnumValues(all: elements)
                for element in elements {
                    if case .string(let string) = element {
                        enumeration.strings.insert(string)
                    } else {
                        enumeration.others.append(element)
                    }
                }
                node.checks.append(.enumeration(append(enumeration, to: &tables.enums), at: keyword(pointer, "enum")))
            } else {
                warn(JSONPointer.appending(pointer, "enum"), "enum must be an array: left out")
            }
        }
        if !draft4, let constant = schema["const"] {
            node.checks.append(.constant(append(constant, to: &tables.constants), at: keyword(pointer, "const")))
        }
        compileApplicators(schema, pointer, into: &node)
        compileNumber(schema, pointer, into: &node)
        compileString(schema, pointer, into: &node)
        if let rules = compileObjectRules(schema, pointer) {
            node.checks.append(.object(append(rules, to: &tables.objects)))
        }
        if let rules = compileArrayRules(schema, pointer) {
            node.checks.append(.array(append(rules, to: &tables.arrays)))
        }
        return node
    }

    private mutating func compileType(_ type: JSONValue, _ pointer: String, into node: inout PendingNode) {
        let names = type.stringValue.map { [$0] } ?? type.arrayValue?.compactMap(\.stringValue) ?? []
        var set: TypeSet = []
        for name in names {
            guard let match = TypeSet.names.first(where: { $0.0 == name }) else {
                warn(JSONPointer.appending(pointer, "type"), "unknown type '\(name)'")
                continue
            }
            set.insert(match.1)
        }
        if set.contains(.number) { set.insert(.integer) }
        if !set.isEmpty { node.checks.append(.type(set, at: keyword(pointer, "type"))) }
    }

    private mutating func schemaList(_ schema: JSONValue, _ name: String, _ pointer: String) -> [Int]? {
        guard let value = schema[name] else { return nil }
        guard case .array(let elements) = value, !elements.isEmpty else {
            warn(JSONPointer.appending(pointer, name), "\(name) must be a non-empty array of schemas: left out")
            return nil
        }
        let listPointer = JSONPointer.appending(pointer, name)
        return elements.enumerated().map { compileChild($0.element, listPointer + "/\($0.offset)") }
    }

    private mutating func compileApplicators(_ schema: JSONValue, _ pointer: String, into node: inout PendingNode) {
        if let list = schemaList(schema, "allOf", pointer) {
            node.checks.append(.allOf(append(list, to: &tables.lists)))
        }
        if let list = schemaList(schema, "anyOf", pointer) {
            node.checks.append(.anyOf(append(list, to: &tables.lists), at: keyword(pointer, "anyOf")))
        }
        if let list = schemaList(schema, "oneOf", pointer) {
            node.checks.append(.oneOf(append(list, to: &tables.lists), at: keyword(pointer, "oneOf")))
        }
        if let not = schema["not"] {
            let child = compileChild(not, JSONPointer.appending(pointer, "not"))
            node.checks.append(.not(child, at: keyword(pointer, "not")))
        }
        if !dialect.isDraft4Family, let condition = schema["if"] {
            let conditionNode = compileChild(condition, JSONPointer.appending(pointer, "if"))
            let then = schema["then"].map { compileChild($0, JSONPointer.appending(pointer, "then")) }
            let otherwise = schema["else"].map { compileChild($0, JSONPointer.appending(pointer, "else")) }
            if then != nil || otherwise != nil {
                node.checks.append(.conditional(if: conditionNode, then: then ?? -1, else: otherwise ?? -1))
            }
        }
    }

    private mutating func number(_ schema: JSONValue, _ name: String, _ pointer: String) -> (Double, String)? {
        guard let value = schema[name] else { return nil }
        guard case .number(let text) = value, let double = Double(text) else {
            if case .bool = value, dialect.isDraft4Family, name.hasPrefix("exclusive") { return nil }
            warn(JSONPointer.appending(pointer, name), "\(name) must be a number: left out")
            return nil
        }
        return (double, text)
    }

    private mutating func count(_ schema: JSONValue, _ name: String, _ pointer: String) -> Int? {
        guard let value = schema[name] else { return nil }
        guard let count = value.intValue, count >= 0 else {
            warn(JSONPointer.appending(pointer, name), "\(name) must be a whole number of 0 or more: left out")
            return nil
        }
        return count
    }

    private mutating func compileNumber(_ schema: JSONValue, _ pointer: String, into node: inout PendingNode) {
        let draft4 = dialect.isDraft4Family
        for (name, exclusiveName, isLower) in [
            ("minimum", "exclusiveMinimum", true), ("maximum", "exclusiveMaximum", false),
        ] {
            if let (value, text) = number(schema, name, pointer) {
                let exclusive = draft4 && schema[exclusiveName]?.boolValue == true
                let bound = NumberBound(
                    value: value, text: text, isLower: isLower, exclusive: exclusive, at: keyword(pointer, name))
                node.checks.append(.bound(append(bound, to: &tables.bounds)))
            }
            if !draft4, let (value, text) = number(schema, exclusiveName, pointer) {
                let bound = NumberBound(
                    value: value, text: text, isLower: isLower, exclusive: true, at: keyword(pointer, exclusiveName))
                node.checks.append(.bound(append(bound, to: &tables.bounds)))
            }
        }
        if let (_, text) = number(schema, "multipleOf", pointer) {
            if let divisor = JSONNumber.Divisor(text) {
                node.checks.append(
                    .multipleOf(append((divisor, text), to: &tables.divisors), at: keyword(pointer, "multipleOf")))
            } else {
                warn(JSONPointer.appending(pointer, "multipleOf"), "multipleOf must be greater than 0: left out")
            }
        }
    }

    private mutating func pattern(_ source: String, _ pointer: String) -> SchemaPattern? {
        do {
            return try SchemaPattern(source)
        } catch {
            warn(pointer, "'\(source)' is not a regular expression this engine reads: left out")
            return nil
        }
    }

    private mutating func compileString(_ schema: JSONValue, _ pointer: String, into node: inout PendingNode) {
        let minimum = count(schema, "minLength", pointer)
        let maximum = count(schema, "maxLength", pointer)
        if minimum != nil || maximum != nil {
            node.checks.append(
                .length(
                    min: minimum ?? -1, max: maximum ?? -1, atMin: keyword(pointer, "minLength"),
                    atMax: keyword(pointer, "maxLength")))
        }
        if let source = schema["pattern"]?.stringValue,
            let compiled = pattern(source, JSONPointer.appending(pointer, "pattern"))
        {
            node.checks.append(.pattern(append(compiled, to: &tables.patterns), at: keyword(pointer, "pattern")))
        }
        if assertsFormats, let name = schema["format"]?.stringValue, let format = SchemaFormat(rawValue: name) {
            node.checks.append(.format(format, at: keyword(pointer, "format")))
        }
    }

    private mutating func compileObjectRules(_ schema: JSONValue, _ pointer: String) -> ObjectRules? {
        let draft4 = dialect.isDraft4Family
        var entries: [String: ObjectRules.Entry] = [:]
        var order: [String] = []
        var any = false
        if let properties = schema["properties"]?.members {
            any = true
            let propertiesPointer = JSONPointer.appending(pointer, "properties")
            for member in properties {
                if entries[member.key] == nil { order.append(member.key) }
                entries[member.key, default: .init()].property = compileChild(
                    member.value, JSONPointer.appending(propertiesPointer, member.key))
            }
        }
        var required: [String] = []
        if let names = schema["required"]?.arrayValue {
            any = true
            for name in names.compactMap(\.stringValue) where entries[name]?.requiredSlot == nil {
                if entries[name] == nil { order.append(name) }
                entries[name, default: .init()].requiredSlot = required.count
                required.append(name)
            }
        }
        var patterns: [(SchemaPattern, Int)] = []
        if let members = schema["patternProperties"]?.members {
            any = true
            let patternsPointer = JSONPointer.appending(pointer, "patternProperties")
            for member in members {
                let memberPointer = JSONPointer.appending(patternsPointer, member.key)
                if let compiled = pattern(member.key, memberPointer) {
                    patterns.append((compiled, compileChild(member.value, memberPointer)))
                }
            }
        }
        var additional = ObjectRules.Additional.any
        if let value = schema["additionalProperties"] {
            any = true
            let additionalPointer = JSONPointer.appending(pointer, "additionalProperties")
            switch value {
            case .bool(true): break
            case .bool(false): additional = .forbidden(at: keyword(pointer, "additionalProperties"))
            default: additional = .schema(compileChild(value, additionalPointer))
            }
        }
        let minimum = count(schema, "minProperties", pointer)
        let maximum = count(schema, "maxProperties", pointer)
        var propertyNames: Int?
        if !draft4, let names = schema["propertyNames"] {
            any = true
            propertyNames = compileChild(names, JSONPointer.appending(pointer, "propertyNames"))
        }
        var dependentRequired: [(String, [String], at: Int)] = []
        var dependentSchemas: [(String, Int)] = []
        let dependencyKeywords = draft4 ? ["dependencies"] : ["dependentRequired", "dependentSchemas"]
        for name in dependencyKeywords {
            guard let members = schema[name]?.members else { continue }
            any = true
            let dependencyPointer = JSONPointer.appending(pointer, name)
            for member in members {
                if case .array(let names) = member.value, name != "dependentSchemas" {
                    dependentRequired.append(
                        (member.key, names.compactMap(\.stringValue), at: keyword(dependencyPointer, member.key)))
                } else if name != "dependentRequired" {
                    dependentSchemas.append(
                        (member.key, compileChild(member.value, JSONPointer.appending(dependencyPointer, member.key))))
                }
            }
        }
        guard any || minimum != nil || maximum != nil else { return nil }
        return ObjectRules(
            entries: order.map { ($0, entries[$0]!) }, required: required,
            requiredAt: required.isEmpty ? 0 : keyword(pointer, "required"),
            patterns: patterns, additional: additional,
            minProperties: minimum, maxProperties: maximum,
            minAt: keyword(pointer, "minProperties"), maxAt: keyword(pointer, "maxProperties"),
            propertyNames: propertyNames, dependentRequired: dependentRequired, dependentSchemas: dependentSchemas)
    }

    private mutating func compileArrayRules(_ schema: JSONValue, _ pointer: String) -> ArrayRules? {
        var prefix: [Int] = []
        var rest = ArrayRules.Rest.any
        var any = false
        func restRule(_ value: JSONValue, _ name: String, _ compiler: inout SchemaCompiler) -> ArrayRules.Rest {
            switch value {
            case .bool(true): return .any
            case .bool(false): return .forbidden(at: compiler.keyword(pointer, name))
            default: return .schema(compiler.compileChild(value, JSONPointer.appending(pointer, name)))
            }
        }
        if dialect.isDraft4Family {
            if let items = schema["items"] {
                any = true
                if case .array(let elements) = items {
                    let itemsPointer = JSONPointer.appending(pointer, "items")
                    prefix = elements.enumerated().map { compileChild($0.element, itemsPointer + "/\($0.offset)") }
                    if let additional = schema["additionalItems"] {
                        rest = restRule(additional, "additionalItems", &self)
                    }
                } else {
                    rest = restRule(items, "items", &self)
                }
            }
        } else {
            if let prefixItems = schema["prefixItems"]?.arrayValue {
                any = true
                let prefixPointer = JSONPointer.appending(pointer, "prefixItems")
                prefix = prefixItems.enumerated().map { compileChild($0.element, prefixPointer + "/\($0.offset)") }
            }
            if let items = schema["items"] {
                any = true
                rest = restRule(items, "items", &self)
            }
        }
        var contains: Int?
        var minContains = 1
        var maxContains: Int?
        if !dialect.isDraft4Family, let value = schema["contains"] {
            any = true
            contains = compileChild(value, JSONPointer.appending(pointer, "contains"))
            minContains = count(schema, "minContains", pointer) ?? 1
            maxContains = count(schema, "maxContains", pointer)
        }
        let minimum = count(schema, "minItems", pointer)
        let maximum = count(schema, "maxItems", pointer)
        let unique = schema["uniqueItems"]?.boolValue == true ? keyword(pointer, "uniqueItems") : nil
        guard any || minimum != nil || maximum != nil || unique != nil else { return nil }
        return ArrayRules(
            prefix: prefix, rest: rest, minItems: minimum, maxItems: maximum,
            minAt: keyword(pointer, "minItems"), maxAt: keyword(pointer, "maxItems"), unique: unique,
            contains: contains,
            containsAt: keyword(pointer, schema["minContains"] != nil && contains != nil ? "minContains" : "contains"),
            minContains: minContains, maxContains: maxContains)
    }
}
