import NetworkingCore

extension JSONPrettyPrinter {
    /// The line (0-based) a JSON pointer's value starts on in the body as the printer lays it
    /// out: every member and element on a line of its own, an object's or array's closing
    /// bracket on its own line, an empty one (`{}`, `[]`) on one line.
    ///
    /// - Returns: `nil` when the pointer names nothing in `value`.
    static func line(of pointer: String, in value: JSONValue) -> Int? {
        guard pointer.isEmpty || pointer.hasPrefix("/") else { return nil }
        let tokens =
            pointer.isEmpty
            ? []
            : pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~") }
        var line = 0
        var current = value
        for token in tokens {
            // A child starts on the line after its container's opening one, below its elder siblings.
            line += 1
            switch current {
            case .object(let members):
                guard let index = members.firstIndex(where: { $0.key == token }) else { return nil }
                line += members[..<index].reduce(0) { $0 + lineCount(of: $1.value) }
                current = members[index].value
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                line += elements[..<index].reduce(0) { $0 + lineCount(of: $1) }
                current = elements[index]
            default:
                return nil
            }
        }
        return line
    }

    /// How many lines a value takes as printed.
    private static func lineCount(of value: JSONValue) -> Int {
        switch value {
        case .object(let members) where !members.isEmpty: 2 + members.reduce(0) { $0 + lineCount(of: $1.value) }
        case .array(let elements) where !elements.isEmpty: 2 + elements.reduce(0) { $0 + lineCount(of: $1) }
        default: 1
        }
    }
}
