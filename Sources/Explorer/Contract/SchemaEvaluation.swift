import NetworkingCore

/// One run of a compiled schema over an instance: the place in the instance, the violations
/// found so far, and whether they are being collected (inside `anyOf`, `oneOf`, `not`, `if`
/// and `contains` only the answer counts).
struct SchemaEvaluation {
    /// A step into the instance: a member's key or an element's index.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// `$ref` followed this many times without a step into the instance means a loop.
    static let maximumDepth = 256

    let program: SchemaProgram
    /// The program's nodes and checks, borrowed for the run (`JSONSchema.validate` holds them).
    let nodes: UnsafeBufferPointer<SchemaNode>
    let checks: UnsafeBufferPointer<Check>
    let limit: Int
    var violations: [SchemaViolation] = []
    private var quiet = 0
    private var path: [Step] = []
    private var depth = 0

    init(program: SchemaProgram, nodes: UnsafeBufferPointer<SchemaNode>, checks: UnsafeBufferPointer<Check>, limit: Int)
    {
        self.program = program
        self.nodes = nodes
        self.checks = checks
        self.limit = limit
    }

    /// Whether a failure is to be written down (else the first one decides).
    var collecting: Bool { quiet == 0 && violations.count < limit }

    private var instancePointer: String {
        var pointer = ""
        for step in path {
            switch step {
            case .key(let key): pointer += "/" + JSONPointer.escape(key)
            case .index(let index): pointer += "/\(index)"
            }
        }
        return pointer
    }

    private mutating func report(_ at: Int, _ message: @autoclosure () -> String) {
        guard collecting else { return }
        violations.append(
            SchemaViolation(
                instancePointer: instancePointer, schemaPointer: program.keywordPointers[at], message: message()))
    }

    /// Whether `value` passes `node`, without writing anything down.
    private mutating func passesQuietly(_ value: JSONValue, _ node: Int) -> Bool {
        quiet += 1
        defer { quiet -= 1 }
        return valid(value, node)
    }

    // MARK: - Nodes

    /// Whether `value` passes the node; violations written down while collecting.
    mutating func valid(_ value: JSONValue, _ node: Int) -> Bool {
        let schema = nodes[node]
        if schema.acceptsNull, case .null = value { return true }
        var passes = true
        for index in schema.start..<(schema.start + schema.count) where !self.passes(checks[index], value) {
            passes = false
            if !collecting { return false }
        }
        return passes
    }

    private mutating func child(_ value: JSONValue, _ node: Int, _ step: Step) -> Bool {
        path.append(step)
        let savedDepth = depth
        depth = 0
        defer {
            path.removeLast()
            depth = savedDepth
        }
        return valid(value, node)
    }

    private mutating func passes(_ check: Check, _ value: JSONValue) -> Bool {
        switch check {
        case .never(let at):
            report(at, "no value is allowed here")
            return false
        case .type(let types, let at):
            if Self.value(value, isOneOf: types) { return true }
            report(at, "\(Self.describe(value)) is not of type \(types.description)")
            return false
        case .enumeration(let table, let at):
            let values = program.enums[table]
            if case .string(let string) = value {
                if values.strings.contains(string),
                    JSONNumber.isASCII(string) || values.all.contains(where: { JSONNumber.equal($0, value) })
                {
                    return true
                }
            } else if values.others.contains(where: { JSONNumber.equal($0, value) }) {
                return true
            }
            report(at, "\(Self.describe(value)) is not one of \(Self.list(values.all))")
            return false
        case .constant(let table, let at):
            let constant = program.constants[table]
            if JSONNumber.equal(constant, value) { return true }
            report(at, "\(Self.describe(value)) is not \(Self.describe(constant))")
            return false
        case .reference(let target, let at):
            depth += 1
            defer { depth -= 1 }
            guard depth < Self.maximumDepth else {
                report(at, "$ref followed \(Self.maximumDepth) times without reaching a value: the schema loops")
                return false
            }
            return valid(value, target)
        case .allOf(let list):
            var passes = true
            for node in program.lists[list] where !valid(value, node) {
                passes = false
                if !collecting { return false }
            }
            return passes
        case .anyOf(let list, let at):
            let nodes = program.lists[list]
            for node in nodes where passesQuietly(value, node) { return true }
            report(at, "\(Self.describe(value)) matches none of the \(nodes.count) schemas of anyOf")
            return false
        case .oneOf(let list, let at):
            let nodes = program.lists[list]
            var matches = 0
            for node in nodes where passesQuietly(value, node) {
                matches += 1
                if matches > 1 { break }
            }
            if matches == 1 { return true }
            report(
                at,
                matches == 0
                    ? "\(Self.describe(value)) matches none of the \(nodes.count) schemas of oneOf"
                    : "\(Self.describe(value)) matches more than one of the schemas of oneOf")
            return false
        case .not(let node, let at):
            if !passesQuietly(value, node) { return true }
            report(at, "\(Self.describe(value)) must not match the schema of not")
            return false
        case .conditional(let condition, let then, let otherwise):
            let next = passesQuietly(value, condition) ? then : otherwise
            return next < 0 || valid(value, next)
        case .object(let table):
            guard case .object(let members) = value else { return true }
            return object(members, program.objects[table], value)
        case .array(let table):
            guard case .array(let elements) = value else { return true }
            return array(elements, program.arrays[table])
        case .length(let minimum, let maximum, let atMin, let atMax):
            guard case .string(let string) = value else { return true }
            // A string has at most as many code points as UTF-8 bytes, and at least a quarter.
            let bytes = string.utf8.count
            if (maximum < 0 || bytes <= maximum) && (bytes + 3) / 4 >= minimum { return true }
            let length = string.unicodeScalars.count
            if length < minimum {
                report(atMin, "\(Self.describe(value)) is shorter than \(minimum) characters")
                return false
            }
            if maximum >= 0, length > maximum {
                report(atMax, "\(Self.describe(value)) is longer than \(maximum) characters")
                return false
            }
            return true
        case .pattern(let table, let at):
            let pattern = program.patterns[table]
            guard case .string(let string) = value, !pattern.matches(string) else { return true }
            report(at, "\(Self.describe(value)) does not match the pattern \(JSONValue.quote(pattern.source))")
            return false
        case .format(let format, let at):
            guard case .string(let string) = value, !format.accepts(string) else { return true }
            report(at, "\(Self.describe(value)) is not a valid \(format.rawValue)")
            return false
        case .bound(let table):
            let bound = program.bounds[table]
            guard case .number(let text) = value, let number = Double(text) else { return true }
            let passes =
                bound.isLower
                ? (bound.exclusive ? number > bound.value : number >= bound.value)
                : (bound.exclusive ? number < bound.value : number <= bound.value)
            if passes { return true }
            let relation =
                bound.isLower
                ? (bound.exclusive ? "greater than" : "at least") : (bound.exclusive ? "less than" : "at most")
            report(bound.at, "\(text) is not \(relation) \(bound.text)")
            return false
        case .multipleOf(let table, let at):
            let (divisor, divisorText) = program.divisors[table]
            guard case .number(let text) = value, !JSONNumber.isMultiple(text, of: divisor) else { return true }
            report(at, "\(text) is not a multiple of \(divisorText)")
            return false
        }
    }

    // MARK: - Objects and arrays

    private func has(_ members: [(key: String, value: JSONValue)], _ key: String) -> Bool {
        members.contains { $0.key == key }
    }

    private mutating func object(_ members: [(key: String, value: JSONValue)], _ rules: ObjectRules, _ value: JSONValue)
        -> Bool
    {
        var passes = true
        if let minimum = rules.minProperties, members.count < minimum {
            report(rules.minAt, "the object has \(members.count) properties, fewer than \(minimum)")
            passes = false
            if !collecting { return false }
        }
        if let maximum = rules.maxProperties, members.count > maximum {
            report(rules.maxAt, "the object has \(members.count) properties, more than \(maximum)")
            passes = false
            if !collecting { return false }
        }
        // The required names seen: bits for the first 64, an array beyond.
        var seenBits: UInt64 = 0
        var seenMore = rules.required.count > 64 ? [Bool](repeating: false, count: rules.required.count) : []
        let checksEntries = !rules.keys.isEmpty
        var guess = 0
        for member in members {
            var matched = false
            if checksEntries, let index = rules.entry(of: member.key, guess: guess) {
                guess = index + 1
                let entry = rules.keyEntries[index]
                if let slot = entry.requiredSlot {
                    if slot < 64 { seenBits |= 1 << UInt64(slot) } else { seenMore[slot] = true }
                }
                if let property = entry.property {
                    matched = true
                    if !child(member.value, property, .key(member.key)) {
                        passes = false
                        if !collecting { return false }
                    }
                }
            }
            for (pattern, node) in rules.patterns where pattern.matches(member.key) {
                matched = true
                if !child(member.value, node, .key(member.key)) {
                    passes = false
                    if !collecting { return false }
                }
            }
            if !matched {
                switch rules.additional {
                case .any:
                    break
                case .forbidden(let at):
                    path.append(.key(member.key))
                    report(at, "the property \(JSONValue.quote(member.key)) is not allowed")
                    path.removeLast()
                    passes = false
                    if !collecting { return false }
                case .schema(let node):
                    if !child(member.value, node, .key(member.key)) {
                        passes = false
                        if !collecting { return false }
                    }
                }
            }
            if let names = rules.propertyNames, !child(.string(member.key), names, .key(member.key)) {
                passes = false
                if !collecting { return false }
            }
        }
        for (slot, name) in rules.required.enumerated()
        where !(slot < 64 ? seenBits & (1 << UInt64(slot)) != 0 : seenMore[slot]) {
            report(rules.requiredAt, "the required property \(JSONValue.quote(name)) is missing")
            passes = false
            if !collecting { return false }
        }
        for (name, needed, at) in rules.dependentRequired where has(members, name) {
            for other in needed where !has(members, other) {
                report(
                    at, "the property \(JSONValue.quote(other)) is required when \(JSONValue.quote(name)) is present")
                passes = false
                if !collecting { return false }
            }
        }
        for (name, node) in rules.dependentSchemas where has(members, name) && !valid(value, node) {
            passes = false
            if !collecting { return false }
        }
        return passes
    }

    private mutating func array(_ elements: [JSONValue], _ rules: ArrayRules) -> Bool {
        var passes = true
        if let minimum = rules.minItems, elements.count < minimum {
            report(rules.minAt, "the array has \(elements.count) items, fewer than \(minimum)")
            passes = false
            if !collecting { return false }
        }
        if let maximum = rules.maxItems, elements.count > maximum {
            report(rules.maxAt, "the array has \(elements.count) items, more than \(maximum)")
            passes = false
            if !collecting { return false }
        }
        for (index, element) in elements.enumerated() {
            let node: Int
            if index < rules.prefix.count {
                node = rules.prefix[index]
            } else {
                switch rules.rest {
                case .any:
                    continue
                case .forbidden(let at):
                    path.append(.index(index))
                    report(at, "no item is allowed at index \(index)")
                    path.removeLast()
                    passes = false
                    if !collecting { return false }
                    continue
                case .schema(let restNode):
                    node = restNode
                }
            }
            if !child(element, node, .index(index)) {
                passes = false
                if !collecting { return false }
            }
        }
        if let contains = rules.contains {
            var matches = 0
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                if passesQuietly(element, contains) { matches += 1 }
                path.removeLast()
            }
            if matches < rules.minContains {
                report(
                    rules.containsAt,
                    "the array has \(matches) items that match contains, fewer than \(rules.minContains)")
                passes = false
                if !collecting { return false }
            }
            if let maximum = rules.maxContains, matches > maximum {
                report(rules.containsAt, "the array has \(matches) items that match contains, more than \(maximum)")
                passes = false
                if !collecting { return false }
            }
        }
        if let at = rules.unique, let (first, second) = Self.repeated(elements) {
            report(at, "items \(first) and \(second) are equal; the items must be unique")
            passes = false
        }
        return passes
    }

    /// The first two equal items, if any.
    static func repeated(_ elements: [JSONValue]) -> (Int, Int)? {
        if elements.count <= 16 {
            for first in elements.indices {
                for second in elements.indices
                where second > first && JSONNumber.equal(elements[first], elements[second]) {
                    return (first, second)
                }
            }
            return nil
        }
        var seen: [String: Int] = [:]
        for (index, element) in elements.enumerated() {
            let key = JSONNumber.canonical(element)
            if let first = seen[key] { return (first, index) }
            seen[key] = index
        }
        return nil
    }

    // MARK: - Words

    static func value(_ value: JSONValue, isOneOf types: TypeSet) -> Bool {
        switch value {
        case .null: return types.contains(.null)
        case .bool: return types.contains(.boolean)
        case .string: return types.contains(.string)
        case .array: return types.contains(.array)
        case .object: return types.contains(.object)
        case .number(let text):
            if types.contains(.number) { return true }
            return types.contains(.integer) && JSONNumber.isInteger(text)
        }
    }

    /// A short description of a value for a message: strings quoted and cut at 40 characters.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .number(let text): return text.count > 40 ? String(text.prefix(40)) + "…" : text
        case .string(let string):
            return JSONValue.quote(string.count > 40 ? String(string.prefix(40)) + "…" : string)
        case .array(let elements): return "an array of \(elements.count)"
        case .object: return "an object"
        }
    }

    static func list(_ values: [JSONValue]) -> String {
        let shown = values.prefix(8).map(describe).joined(separator: ", ")
        return values.count > 8 ? "[\(shown), … \(values.count - 8) more]" : "[\(shown)]"
    }
}
