import Foundation
import NetworkingCore
import Query

/// The structural difference of two JSON documents: objects compared member by member by
/// key (their order does not matter), arrays element by element by position, or by an
/// id-like member when every element of both has one (`id`, `_id`, `uuid`, `guid`, `key`,
/// `slug`, or a member whose name ends in `Id` or `_id`), so that an element inserted at the
/// front is one addition rather than a change of every element after it.
///
/// Nodes an ignore query selects (RFC 9535 JSONPath, evaluated on each document) are left out
/// with everything below them.
///
/// ```swift
/// let diff = JSONDiff(ignoring: [try JSONPath(strict: "$.requestId")])
/// diff.differences(first, second)   // [JSONDifference(kind: .string, path: "$.user.email", …)]
/// ```
package struct JSONDiff: Sendable {
    /// The queries whose matches are left out.
    package var ignoring: [JSONPath]
    /// The most differences reported; the count of those left out is given besides.
    package var limit: Int
    /// How many nodes and how long each ignore query may take.
    package var evaluationLimits: EvaluationLimits

    /// The most differences reported by default.
    package static let defaultLimit = 1000

    /// Member names that identify an array's element, in the order they are tried.
    static let identityKeys = ["id", "_id", "uuid", "guid", "key", "slug"]

    /// A diff that leaves out what `ignoring` selects.
    ///
    /// - Parameters:
    ///   - ignoring: JSONPath queries; their matches in either document are not compared.
    ///   - limit: the most differences listed (`Result.omitted` counts the rest).
    ///   - evaluationLimits: how many nodes and how long each ignore query may take.
    package init(
        ignoring: [JSONPath] = [], limit: Int = JSONDiff.defaultLimit, evaluationLimits: EvaluationLimits = .current
    ) {
        self.ignoring = ignoring
        self.limit = max(1, limit)
        self.evaluationLimits = evaluationLimits
    }

    /// The differences found, and how many more there were past the limit.
    package struct Result: Sendable, Hashable {
        /// The differences, in the first document's order (additions after their siblings).
        package var differences: [JSONDifference]
        /// How many differences past `limit` were not listed.
        package var omitted: Int
        /// How many nodes an ignore query left out (in either document).
        package var ignoredNodes: Int
        /// The ignore queries that stopped at an evaluation limit, each with the sentence that
        /// says which and how to raise it: they left nothing out, so what they would have
        /// hidden is compared and listed, and the report says why.
        package var unappliedIgnores: [String] = []

        /// Whether the documents are the same, ignored nodes aside.
        package var isSame: Bool { differences.isEmpty && omitted == 0 }
    }

    /// Compares two documents.
    ///
    /// - Parameters:
    ///   - first: the first document (the first environment's body).
    ///   - second: the second document.
    /// - Returns: the differences and how many were left out.
    package func compare(_ first: JSONValue, _ second: JSONValue) -> Result {
        // An ignore query past its node or time limit (EvaluationLimits) leaves nothing out:
        // what it would have hidden is compared and shown, never hidden by a partial result,
        // and the result says which query and why.
        var unapplied: [String] = []
        func located(_ document: JSONValue) -> Set<String> {
            var paths = Set<String>()
            for query in ignoring {
                do {
                    paths.formUnion(try query.locate(document, limits: evaluationLimits).map(\.path))
                } catch {
                    let sentence =
                        "the ignore rule \(query.description) was not applied: "
                        + "\(error.limit?.description ?? error.description)"
                    if !unapplied.contains(sentence) { unapplied.append(sentence) }
                }
            }
            return paths
        }
        var walk = Walk(limit: limit, ignoredFirst: located(first), ignoredSecond: located(second))
        walk.compare(first, second, at: Place.root)
        return Result(
            differences: walk.found, omitted: walk.omitted, ignoredNodes: walk.ignoredNodes, unappliedIgnores: unapplied
        )
    }

    /// The differences of two documents (at most `limit`).
    package func differences(_ first: JSONValue, _ second: JSONValue) -> [JSONDifference] {
        compare(first, second).differences
    }
}

// MARK: - Places

extension JSONDiff {
    /// Where a node is: the readable query shown to the user, and its normalized path (RFC
    /// 9535 §2.7) in each document, which the ignore queries' matches are compared with.
    struct Place {
        var shown: String
        var first: String
        var second: String

        static let root = Place(shown: "$", first: "$", second: "$")

        func member(_ name: String) -> Place {
            let normalized = "['\(JSONPath.escapedName(name))']"
            return Place(shown: shown + Self.memberStep(name), first: first + normalized, second: second + normalized)
        }

        func element(first firstIndex: Int, second secondIndex: Int) -> Place {
            Place(
                shown: shown + "[\(firstIndex)]", first: first + "[\(firstIndex)]", second: second + "[\(secondIndex)]")
        }

        func element(key: String, value: JSONValue, first firstIndex: Int?, second secondIndex: Int?) -> Place {
            let literal: String
            switch value {
            case .string(let text): literal = "'\(JSONPath.escapedName(text))'"
            default: literal = value.serialized()
            }
            return Place(
                shown: shown + "[?@\(Self.memberStep(key))==\(literal)]",
                first: first + "[\(firstIndex ?? -1)]", second: second + "[\(secondIndex ?? -1)]")
        }

        /// `.name` when the name is a shorthand member name, else `['name']`.
        static func memberStep(_ name: String) -> String {
            guard let head = name.unicodeScalars.first,
                isNameFirst(head), name.unicodeScalars.allSatisfy({ isNameFirst($0) || ("0"..."9").contains($0) })
            else { return "['\(JSONPath.escapedName(name))']" }
            return "." + name
        }

        private static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
        }
    }
}

// MARK: - Walking both documents

extension JSONDiff {
    struct Walk {
        let limit: Int
        let ignoredFirst: Set<String>
        let ignoredSecond: Set<String>
        var found: [JSONDifference] = []
        var omitted = 0
        var ignoredNodes = 0

        init(limit: Int, ignoredFirst: Set<String>, ignoredSecond: Set<String>) {
            self.limit = limit
            self.ignoredFirst = ignoredFirst
            self.ignoredSecond = ignoredSecond
        }

        mutating func note(_ kind: JSONDifference.Kind, _ place: Place, _ first: JSONValue?, _ second: JSONValue?) {
            if found.count < limit {
                found.append(JSONDifference(kind: kind, path: place.shown, first: first, second: second))
            } else {
                omitted += 1
            }
        }

        func isIgnored(first place: Place) -> Bool { ignoredFirst.contains(place.first) }
        func isIgnored(second place: Place) -> Bool { ignoredSecond.contains(place.second) }

        mutating func compare(_ first: JSONValue, _ second: JSONValue, at place: Place) {
            if isIgnored(first: place) || isIgnored(second: place) {
                ignoredNodes += 1
                return
            }
            switch (first, second) {
            case (.object(let a), .object(let b)):
                compareObjects(a, b, at: place)
            case (.array(let a), .array(let b)):
                if let key = JSONDiff.identityKey(a, b) {
                    compareArrays(a, b, byKey: key, at: place)
                } else {
                    compareArrays(a, b, at: place)
                }
            case (.string(let a), .string(let b)):
                if a != b { note(.string, place, first, second) }
            case (.number(let a), .number(let b)):
                if !JSONDiff.sameNumber(a, b) { note(.number, place, first, second) }
            case (.bool(let a), .bool(let b)):
                if a != b { note(.boolean, place, first, second) }
            case (.null, .null):
                return
            default:
                note(.type, place, first, second)
            }
        }

        mutating func compareObjects(
            _ a: [(key: String, value: JSONValue)], _ b: [(key: String, value: JSONValue)], at place: Place
        ) {
            // The last of a repeated key wins, as `JSONValue[key]` reads it.
            var firstValues: [String: JSONValue] = [:]
            for member in a { firstValues[member.key] = member.value }
            var secondValues: [String: JSONValue] = [:]
            for member in b { secondValues[member.key] = member.value }
            var visited = Set<String>()
            for member in a where visited.insert(member.key).inserted {
                let value = firstValues[member.key] ?? member.value
                let child = place.member(member.key)
                if let other = secondValues[member.key] {
                    compare(value, other, at: child)
                } else if isIgnored(first: child) {
                    ignoredNodes += 1
                } else {
                    note(.removed, child, value, nil)
                }
            }
            var added = Set<String>()
            for member in b where firstValues[member.key] == nil && added.insert(member.key).inserted {
                let child = place.member(member.key)
                if isIgnored(second: child) {
                    ignoredNodes += 1
                } else {
                    note(.added, child, nil, secondValues[member.key])
                }
            }
        }

        mutating func compareArrays(_ a: [JSONValue], _ b: [JSONValue], at place: Place) {
            for index in 0..<max(a.count, b.count) {
                let child = place.element(first: index, second: index)
                switch (index < a.count, index < b.count) {
                case (true, true):
                    compare(a[index], b[index], at: child)
                case (true, false):
                    if isIgnored(first: child) { ignoredNodes += 1 } else { note(.removed, child, a[index], nil) }
                default:
                    if isIgnored(second: child) { ignoredNodes += 1 } else { note(.added, child, nil, b[index]) }
                }
            }
        }

        mutating func compareArrays(_ a: [JSONValue], _ b: [JSONValue], byKey key: String, at place: Place) {
            var secondIndex: [JSONValue: Int] = [:]
            for (index, element) in b.enumerated() {
                if let id = element[key] { secondIndex[JSONDiff.identity(id)] = index }
            }
            var matched = Set<Int>()
            for (index, element) in a.enumerated() {
                guard let id = element[key] else { continue }
                let otherIndex = secondIndex[JSONDiff.identity(id)]
                let child = place.element(key: key, value: id, first: index, second: otherIndex)
                if let otherIndex {
                    matched.insert(otherIndex)
                    compare(element, b[otherIndex], at: child)
                } else if isIgnored(first: child) {
                    ignoredNodes += 1
                } else {
                    note(.removed, child, element, nil)
                }
            }
            for (index, element) in b.enumerated() where !matched.contains(index) {
                guard let id = element[key] else { continue }
                let child = place.element(key: key, value: id, first: nil, second: index)
                if isIgnored(second: child) { ignoredNodes += 1 } else { note(.added, child, nil, element) }
            }
        }
    }
}

// MARK: - Values

extension JSONDiff {
    /// The member that identifies the elements of both arrays, if there is one: every element
    /// is an object with a string or number under it, no two alike in either array.
    ///
    /// - Returns: the member's name, or `nil` to compare by position.
    static func identityKey(_ a: [JSONValue], _ b: [JSONValue]) -> String? {
        guard !a.isEmpty, !b.isEmpty, case .object(let members)? = a.first else { return nil }
        let suffixed = members.map(\.key).filter {
            $0.count > 2 && ($0.hasSuffix("Id") || $0.hasSuffix("_id") || $0.hasSuffix("ID"))
        }
        let candidates = identityKeys.filter { key in members.contains { $0.key == key } } + suffixed
        return candidates.first { key in identifies(key, a) && identifies(key, b) }
    }

    private static func identifies(_ key: String, _ elements: [JSONValue]) -> Bool {
        var seen = Set<JSONValue>()
        for element in elements {
            guard case .object = element, let id = element[key] else { return false }
            switch id {
            case .string, .number: break
            default: return false
            }
            guard seen.insert(identity(id)).inserted else { return false }
        }
        return true
    }

    /// An id as the key it is matched by: numbers by value (`3` and `3.0` match).
    static func identity(_ id: JSONValue) -> JSONValue {
        if case .number(let text) = id, let value = Decimal(string: text) {
            return .number(NSDecimalNumber(decimal: value).stringValue)
        }
        return id
    }

    /// Whether two number texts are the same number (`1`, `1.0` and `1e0` are).
    static func sameNumber(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard let x = Decimal(string: a), let y = Decimal(string: b) else { return false }
        return x == y
    }
}
