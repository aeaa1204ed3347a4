import Foundation
import Yams

extension CollectionWriter {
    /// The collection's `compare:` as a YAML mapping.
    static func compareNode(_ rules: CompareRules) -> Node {
        Node([("ignore", Node(rules.ignore.map { scalar($0.description) }, .implicit))], .implicit)
    }
}
