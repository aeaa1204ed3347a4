import Yams

extension CollectionWriter {
    /// An endpoint's `capture:`, `assert:`, `retry:` and `requires:`, written as the loader
    /// reads them (a capture's shorthand when it is a plain JSONPath).
    static func checkPairs(_ endpoint: Endpoint) -> [(Node, Node)] {
        var pairs: [(Node, Node)] = []
        if !endpoint.captures.isEmpty {
            pairs.append(("capture", Node(endpoint.captures.map { (scalar($0.name), captureNode($0)) }, .implicit)))
        }
        if !endpoint.assertions.isEmpty {
            pairs.append(("assert", Node(endpoint.assertions.map { scalar($0.text) }, .implicit)))
        }
        if let retry = endpoint.retry {
            pairs.append(
                (
                    "retry",
                    Node(
                        [("count", Node(String(retry.count))), ("interval", Node(retry.intervalText))], .implicit, .flow
                    )
                ))
        }
        if !endpoint.requirements.isEmpty {
            let plain = endpoint.requirements.allSatisfy { $0.maxAge == nil }
            pairs.append(
                (
                    "requires",
                    Node(
                        endpoint.requirements.map { requirement -> Node in
                            guard let maxAge = requirement.maxAge else {
                                return plain
                                    ? scalar(requirement.endpoint)
                                    : Node([("endpoint", scalar(requirement.endpoint))], .implicit, .flow)
                            }
                            return Node(
                                [
                                    ("endpoint", scalar(requirement.endpoint)),
                                    ("max_age", Node(DurationText.format(maxAge))),
                                ], .implicit, .flow)
                        }, .implicit, plain ? .flow : .block)
                ))
        }
        return pairs
    }

    private static func captureNode(_ capture: Capture) -> Node {
        var pairs: [(Node, Node)]
        switch capture.source {
        case .jsonpath(let expression):
            if !capture.isSecret { return scalar(expression) }
            pairs = [("jsonpath", scalar(expression))]
        case .xpath(let expression): pairs = [("xpath", scalar(expression))]
        case .header(let name): pairs = [("header", scalar(name))]
        case .cookie(let name): pairs = [("cookie", scalar(name))]
        case .regex(let pattern, let inHeaders):
            pairs = [("regex", scalar(pattern)), ("from", Node(inHeaders ? "headers" : "body"))]
        case .status: pairs = [("status", Node("true"))]
        case .body: pairs = [("body", Node("true"))]
        }
        if capture.isSecret { pairs.append(("secret", Node("true"))) }
        return keyed(pairs, .flow)
    }
}
