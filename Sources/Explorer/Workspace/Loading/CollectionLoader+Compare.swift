import Foundation
import Yams

extension CollectionLoader {
    /// The keys of the collection's `compare:`.
    static let compareKeys = ["ignore"]
}

extension Reader {
    /// The collection's `compare:`: `{ ignore: [$.requestId, header Date] }`, each rule a
    /// JSONPath query (RFC 9535) or `header NAME`, checked here so that a wrong one is an
    /// error at its line rather than a comparison that silently ignores nothing.
    ///
    /// - Throws: `CollectionError.wrongType` at the rule that cannot be read.
    mutating func compareRules(_ node: Node) throws -> CompareRules {
        guard case .mapping(let mapping) = node else {
            throw CollectionError.wrongType(location(node), key: "compare", expected: "a mapping with ignore: [rules]")
        }
        checkKeys(mapping, known: CollectionLoader.compareKeys, in: "compare")
        guard let ignoreNode = mapping.value("ignore") else { return CompareRules() }
        let items: [Node]
        switch ignoreNode {
        case .sequence(let sequence): items = Array(sequence)
        case .scalar: items = [ignoreNode]
        default:
            throw CollectionError.wrongType(
                location(ignoreNode), key: "compare.ignore",
                expected: "a list of rules such as [$.requestId, header Date]")
        }
        var rules: [CompareRules.IgnoreRule] = []
        for item in items {
            let text = try string(item, key: "compare.ignore")
            do {
                rules.append(try CompareRules.IgnoreRule(parsing: text))
            } catch {
                throw CollectionError.wrongType(
                    location(item), key: "compare.ignore",
                    expected:
                        "a JSONPath query such as $.requestId or header NAME such as header Date (\(error.description))"
                )
            }
        }
        return CompareRules(ignore: rules)
    }
}
