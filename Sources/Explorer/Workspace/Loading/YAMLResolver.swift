import Yams

extension Resolver {
    /// What the explorer's own YAML files (collections, the configuration, themes) are read
    /// with: no rule, every plain scalar is text to Yams. `Node.int`, `.float` and `.null` read
    /// the text itself, a boolean is read by `Node.flag`, and a `json:` body is converted by
    /// scalar style, not by tag (`JSONValue(yaml:)`).
    ///
    /// Each rule of `Resolver.default` is a regular expression run over every plain scalar;
    /// compiling even the one for booleans (and loading ICU for it) took about 1.5 ms of every
    /// start.
    package static let explorerFiles = Resolver.basic
}

extension Node {
    /// A boolean as the explorer's files have always been read: a plain (unquoted) `true` or
    /// `false`, `yes` or `no`, `on` or `off`, in any case (what `Node.bool` gives for a plain
    /// scalar whose tag is not resolved yet); a quoted one is text.
    package var flag: Bool? {
        guard let scalar, scalar.style == .plain else { return nil }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }
}

extension Node.Mapping {
    /// The value of a key, found by its text: the last pair with that key wins, as in Yams'
    /// own `mapping["key"]`, which builds a node of the key and compares whole nodes (their
    /// tags resolved) with each pair's, after copying every pair: a quarter of the time a large
    /// collection took to read.
    package func value(_ key: String) -> Node? {
        // By index: iterating a mapping (or `reversed()`) copies all its pairs first.
        for index in (startIndex..<endIndex).reversed() where self[index].key.scalar?.string == key {
            return self[index].value
        }
        return nil
    }

    /// The pairs' keys and values, read once, for the many lookups of one mapping (an
    /// endpoint's keys).
    package var fields: MappingFields {
        var fields = MappingFields()
        fields.keys.reserveCapacity(count)
        fields.values.reserveCapacity(count)
        for index in startIndex..<endIndex {
            let pair = self[index]
            fields.keys.append(pair.key.scalar?.string)
            fields.values.append(pair.value)
        }
        return fields
    }
}

/// A mapping's keys and values, looked up as `Node.Mapping.value(_:)` does (the last pair
/// with the key wins) without copying the pairs passed.
package struct MappingFields {
    /// Each pair's key, nil where it is not text.
    var keys: [String?] = []
    /// Each pair's value.
    var values: [Node] = []

    /// The value of `key`, or nil.
    package func value(_ key: String) -> Node? {
        for index in keys.indices.reversed() where keys[index] == key { return values[index] }
        return nil
    }
}
