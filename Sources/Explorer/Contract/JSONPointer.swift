import NetworkingCore

/// RFC 6901 JSON pointers: how a violation names a place in the body and in the document.
package enum JSONPointer {
    /// One token escaped for a pointer: `~` becomes `~0`, `/` becomes `~1`.
    package static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The tokens of a pointer (`/a/b~1c` gives `a`, `b/c`); `nil` when it does not start with `/`
    /// and is not empty.
    package static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value `pointer` names in `root`, or `nil` when it names nothing.
    package static func resolve(_ pointer: String, in root: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = root
        for token in tokens {
            switch current {
            case .object(let members):
                guard let member = members.last(where: { $0.key == token }) else { return nil }
                current = member.value
            case .array(let elements):
                guard let index = Int(token), token == String(index), elements.indices.contains(index) else {
                    return nil
                }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// `pointer` with one more token.
    package static func appending(_ pointer: String, _ token: String) -> String {
        pointer + "/" + escape(token)
    }
}
