import Foundation
import Query
import Yams

/// Reading an endpoint's `capture:`, `assert:`, `retry:` and `requires:`, each error at the
/// line and column of the word at fault.
extension Reader {
    /// Reads the four check keys of an endpoint's mapping into it.
    ///
    /// - Throws: `CollectionError.invalidCheck` or `.wrongType`.
    func readChecks(_ mapping: Node.Mapping, into endpoint: inout Endpoint) throws {
        let name = endpoint.name
        if let node = mapping.value("capture") {
            endpoint.captures = try captures(node, endpoint: name)
        }
        if let node = mapping.value("assert") {
            endpoint.assertions = try assertions(node, endpoint: name)
        }
        if let node = mapping.value("retry") {
            endpoint.retry = try retry(node, endpoint: name)
        }
        if let node = mapping.value("requires") {
            endpoint.requirements = try requirements(node, endpoint: name)
        }
    }

    /// The location of a character inside a scalar: the node's own, moved right by `offset`
    /// (and by the opening quote of a quoted scalar) when the scalar is on one line.
    func location(_ node: Node, offset: Int) -> FileLocation {
        var place = location(node)
        guard case .scalar(let scalar) = node, !scalar.string.contains("\n") else { return place }
        switch scalar.style {
        case .plain: place.column += offset
        case .singleQuoted, .doubleQuoted:
            // Escapes in the source shift columns; point at the start of the value then.
            if !scalar.string.contains("\\"), !scalar.string.contains("'") { place.column += offset + 1 }
        default: break
        }
        return place
    }

    private func invalid(_ node: Node, offset: Int = 0, key: String, endpoint: String, _ problem: String)
        -> CollectionError
    {
        .invalidCheck(location(node, offset: offset), key: key, endpoint: endpoint, problem: problem)
    }

    func assertions(_ node: Node, endpoint: String) throws -> [Assertion] {
        if node.null != nil { return [] }
        guard case .sequence(let sequence) = node else {
            throw CollectionError.wrongType(
                location(node), key: "assert", expected: "a list of assertions (- status == 200)")
        }
        return try sequence.map { item in
            guard case .scalar(let scalar) = item else {
                throw invalid(
                    item, key: "assert", endpoint: endpoint,
                    "each assertion is one line of text, as in: - status == 200 (quote it when it holds \": \" or starts with a quote)."
                )
            }
            do throws(CheckSyntaxError) {
                var assertion = try Assertion(parsing: scalar.string)
                assertion.location = location(item)
                return assertion
            } catch {
                throw invalid(item, offset: error.offset, key: "assert", endpoint: endpoint, error.problem)
            }
        }
    }

    func captures(_ node: Node, endpoint: String) throws -> [Capture] {
        if node.null != nil { return [] }
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(
                location(node), key: "capture",
                expected: "a mapping of variable names to where each is read (token: $.token)")
        }
        var captures: [Capture] = []
        for (key, value) in mapping {
            let name = try string(key, key: "capture")
            guard !name.isEmpty, !name.contains("{"), !name.contains("}"), !name.contains(" ") else {
                throw invalid(
                    key, key: "capture", endpoint: endpoint,
                    "\"\(name)\" cannot be a variable name; use letters, digits, _ and -.")
            }
            var capture = try self.capture(name, value, endpoint: endpoint)
            capture.location = location(key)
            captures.append(capture)
        }
        return captures
    }

    private func capture(_ name: String, _ node: Node, endpoint: String) throws -> Capture {
        switch node {
        case .scalar(let scalar):
            let expression = scalar.string.trimmingCharacters(in: .whitespaces)
            guard expression.hasPrefix("$") else {
                throw invalid(
                    node, key: "capture", endpoint: endpoint,
                    "\(name): \"\(expression)\" is not a JSONPath (it starts with $); for a header, a regex or the status write { header: NAME }, { regex: RE }, { status: true }."
                )
            }
            try validateJSONPath(expression, node, endpoint: endpoint)
            return Capture(name: name, source: .jsonpath(expression))
        case .mapping(let mapping):
            for (key, _) in mapping {
                let word = key.string ?? ""
                if !Capture.keys.contains(word) {
                    throw invalid(
                        key, key: "capture", endpoint: endpoint,
                        "\(name): \"\(word)\" is not a capture key (jsonpath, xpath, header, regex with from, status, cookie, body, secret)."
                            + CheckSyntaxError.didYouMean(word, in: Capture.keys))
                }
            }
            let sources = ["jsonpath", "xpath", "header", "regex", "status", "cookie", "body"].filter {
                mapping[$0] != nil
            }
            guard sources.count == 1, let kind = sources.first, let value = mapping[kind] else {
                throw invalid(
                    node, key: "capture", endpoint: endpoint,
                    "\(name) must say where its value is read with exactly one of jsonpath, xpath, header, regex, status, cookie and body\(sources.count > 1 ? " (it has \(sources.joined(separator: ", ")))" : "")."
                )
            }
            var isSecret = false
            if let secret = mapping.value("secret") {
                guard let flag = secret.flag else {
                    throw CollectionError.wrongType(
                        location(secret), key: "capture.\(name).secret", expected: "true or false")
                }
                isSecret = flag
            }
            if mapping.value("from") != nil && kind != "regex" {
                throw invalid(
                    mapping.value("from")!, key: "capture", endpoint: endpoint,
                    "\(name): \"from\" goes with regex only.")
            }
            let source: Capture.Source
            switch kind {
            case "jsonpath":
                let expression = try string(value, key: "capture.\(name).jsonpath")
                try validateJSONPath(expression, value, endpoint: endpoint)
                source = .jsonpath(expression)
            case "xpath":
                let expression = try string(value, key: "capture.\(name).xpath")
                do {
                    _ = try XPath(expression)
                } catch {
                    throw invalid(
                        value, key: "capture", endpoint: endpoint,
                        "\(name): the XPath \"\(expression)\" is not valid: \(error).")
                }
                source = .xpath(expression)
            case "header":
                source = .header(try string(value, key: "capture.\(name).header"))
            case "cookie":
                source = .cookie(try string(value, key: "capture.\(name).cookie"))
            case "regex":
                let pattern = try string(value, key: "capture.\(name).regex")
                guard (try? NSRegularExpression(pattern: pattern)) != nil else {
                    throw invalid(
                        value, key: "capture", endpoint: endpoint,
                        "\(name): \"\(pattern)\" is not a valid regular expression.")
                }
                var inHeaders = false
                if let from = mapping.value("from") {
                    switch try string(from, key: "capture.\(name).from") {
                    case "body": inHeaders = false
                    case "headers": inHeaders = true
                    case let other:
                        throw invalid(
                            from, key: "capture", endpoint: endpoint,
                            "\(name): from is body or headers, not \"\(other)\".")
                    }
                }
                source = .regex(pattern, inHeaders: inHeaders)
            default:
                guard value.flag == true else {
                    throw invalid(
                        value, key: "capture", endpoint: endpoint,
                        "\(name): write \(kind): true to capture the \(kind).")
                }
                source = kind == "status" ? .status : .body
            }
            return Capture(name: name, source: source, isSecret: isSecret)
        default:
            throw invalid(
                node, key: "capture", endpoint: endpoint,
                "\(name) must be a JSONPath ($.token) or a mapping ({ header: X-Request-Id }).")
        }
    }

    private func validateJSONPath(_ expression: String, _ node: Node, endpoint: String) throws {
        do {
            _ = try JSONPath(expression)
        } catch {
            throw invalid(
                node, key: "capture", endpoint: endpoint, "the JSONPath \"\(expression)\" is not valid: \(error)")
        }
    }

    func retry(_ node: Node, endpoint: String) throws -> CheckRetry {
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(
                location(node), key: "retry",
                expected: "a mapping with count and interval ({ count: 10, interval: 500ms })")
        }
        for (key, _) in mapping where !CollectionLoader.retryKeys.contains(key.string ?? "") {
            throw invalid(
                key, key: "retry", endpoint: endpoint,
                "\"\(key.string ?? "")\" is not a retry key (count, interval)."
                    + CheckSyntaxError.didYouMean(key.string ?? "", in: CollectionLoader.retryKeys))
        }
        guard let countNode = mapping.value("count") else {
            throw CollectionError.missingKey(location(node), key: "count", in: "the retry of endpoint \"\(endpoint)\"")
        }
        guard let count = countNode.int, (0...CheckRetry.maximumCount).contains(count) else {
            throw invalid(
                countNode, key: "retry", endpoint: endpoint,
                "count must be a whole number from 0 to \(CheckRetry.maximumCount).")
        }
        var interval = 1.0
        if let intervalNode = mapping.value("interval") {
            let text = try string(intervalNode, key: "retry.interval")
            guard let seconds = DurationText.seconds(text, bareUnit: 0.001), seconds <= 3600 else {
                throw invalid(
                    intervalNode, key: "retry", endpoint: endpoint,
                    "interval must be a duration up to 1h such as 500ms or 2s, not \"\(text)\".")
            }
            interval = seconds
        }
        return CheckRetry(count: count, interval: interval)
    }

    func requirements(_ node: Node, endpoint: String) throws -> [Requirement] {
        let items: [Node]
        switch node {
        case .sequence(let sequence): items = Array(sequence)
        case .scalar: items = node.null != nil ? [] : [node]
        default:
            throw CollectionError.wrongType(
                location(node), key: "requires",
                expected: "a list of endpoint names ([Login] or - { endpoint: Login, max_age: 50s })")
        }
        return try items.map { item in
            var requirement: Requirement
            switch item {
            case .scalar:
                requirement = Requirement(endpoint: try string(item, key: "requires"))
            case .mapping(let mapping):
                for (key, _) in mapping where !CollectionLoader.requirementKeys.contains(key.string ?? "") {
                    throw invalid(
                        key, key: "requires", endpoint: endpoint,
                        "\"\(key.string ?? "")\" is not a requires key (endpoint, max_age)."
                            + CheckSyntaxError.didYouMean(key.string ?? "", in: CollectionLoader.requirementKeys))
                }
                guard let target = mapping.value("endpoint") else {
                    throw CollectionError.missingKey(location(item), key: "endpoint", in: "this requires entry")
                }
                requirement = Requirement(endpoint: try string(target, key: "requires.endpoint"))
                if let ageNode = mapping.value("max_age") {
                    let text = try string(ageNode, key: "requires.max_age")
                    guard let seconds = DurationText.seconds(text, bareUnit: 1) else {
                        throw invalid(
                            ageNode, key: "requires", endpoint: endpoint,
                            "max_age must be a duration such as 50s or 5m, not \"\(text)\".")
                    }
                    requirement.maxAge = seconds
                }
            default:
                throw invalid(
                    item, key: "requires", endpoint: endpoint,
                    "each entry is an endpoint name, or { endpoint: NAME, max_age: 50s }.")
            }
            requirement.location = location(item)
            return requirement
        }
    }

    /// Checks that every `requires:` names an endpoint of the collection and that no chain
    /// of them comes back to where it started.
    ///
    /// - Throws: `CollectionError.unknownRequirement` or `.requirementCycle`.
    func checkRequirements(in items: [CollectionItem]) throws {
        let collection = APICollection(name: "", items: items)
        // Most collections have none: found without gathering the endpoints.
        var requires = false
        collection.forEachEndpoint { requires = requires || !$0.requirements.isEmpty }
        guard requires else { return }
        let endpoints = collection.endpoints
        var edges: [String: [(id: String, location: FileLocation?)]] = [:]
        for endpoint in endpoints {
            for requirement in endpoint.requirements {
                guard let target = try? collection.endpoint(named: requirement.endpoint) else {
                    let names = endpoints.map(\.id) + endpoints.map(\.name)
                    throw CollectionError.unknownRequirement(
                        requirement.location ?? endpoint.location ?? location(nil), endpoint: endpoint.id,
                        required: requirement.endpoint,
                        suggestions: Suggestions.closest(to: requirement.endpoint, in: names))
                }
                edges[endpoint.id, default: []].append((target.id, requirement.location))
            }
        }
        // Depth first, in file order: a node met again while on the path closes a cycle.
        var finished: Set<String> = []
        func visit(_ id: String, path: [String], at place: FileLocation?) throws {
            if let start = path.firstIndex(of: id) {
                throw CollectionError.requirementCycle(place ?? location(nil), cycle: Array(path[start...]) + [id])
            }
            guard !finished.contains(id) else { return }
            for edge in edges[id] ?? [] { try visit(edge.id, path: path + [id], at: edge.location) }
            finished.insert(id)
        }
        for endpoint in endpoints { try visit(endpoint.id, path: [], at: endpoint.location) }
    }
}
