/// A string with `{{name}}` placeholders, split into literal text and variable references.
///
/// `{{ name }}` may have spaces inside the braces; an unclosed `{{` is literal text.
struct Template: Sendable, Hashable {
    /// One piece of a template.
    enum Segment: Sendable, Hashable {
        /// Text taken as written.
        case literal(String)
        /// A `{{name}}` reference, with the name trimmed.
        case variable(String)
    }

    /// The pieces, in order.
    var segments: [Segment]

    /// Splits a string into literal text and `{{name}}` references.
    init(_ text: String) {
        var segments: [Segment] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if open.lowerBound > rest.startIndex { segments.append(.literal(String(rest[..<open.lowerBound]))) }
            if name.isEmpty {
                segments.append(.literal(String(rest[open.lowerBound..<close.upperBound])))
            } else {
                segments.append(.variable(name))
            }
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
        self.segments = segments
    }

    /// The names referenced, in order of first use.
    var variableNames: [String] {
        var seen: Set<String> = []
        return segments.compactMap {
            if case .variable(let name) = $0, seen.insert(name).inserted { return name }
            return nil
        }
    }

    /// The text with each `{{name}}` replaced by what `replacement` gives for the name
    /// (another tool's spelling of a variable); literal text stays as it is.
    static func rewritingVariables(in text: String, _ replacement: (String) -> String) -> String {
        Template(text).segments.map { segment in
            switch segment {
            case .literal(let literal): return literal
            case .variable(let name): return replacement(name)
            }
        }.joined()
    }

    /// Whether the text holds any `{{name}}` reference.
    static func containsVariables(_ text: String) -> Bool {
        Template(text).segments.contains { if case .variable = $0 { return true } else { return false } }
    }
}
