/// A string with `{{name}}` placeholders, split into literal text and variable references.
///
/// `{{ name }}` may have spaces inside the braces; an unclosed `{{` is literal text.
package struct Template: Sendable, Hashable {
    /// One piece of a template.
    package enum Segment: Sendable, Hashable {
        /// Text taken as written.
        case literal(String)
        /// A `{{name}}` reference, with the name trimmed.
        case variable(String)
    }

    /// The pieces, in order.
    package var segments: [Segment]

    /// One `{{…}}` of a text: where it stands, what is written between its braces, and the
    /// name (or function call) that text is read as.
    package struct Placeholder {
        /// From `{{` to `}}`.
        var range: Range<String.Index>
        /// Between the braces, as written.
        package var inner: Range<String.Index>
        /// The inner text without the spaces around it; empty for `{{ }}`, which is literal.
        package var name: String
    }

    /// Every `{{…}}` of a text, in order: the one reading of placeholders that expansion,
    /// previews and imports share.
    package static func placeholders(in text: String) -> [Placeholder] {
        var found: [Placeholder] = []
        let utf8 = text.utf8
        var next = utf8.startIndex
        while let open = firstPair(of: UInt8(ascii: "{"), in: utf8, from: next) {
            let innerStart = utf8.index(open, offsetBy: 2)
            guard let close = firstPair(of: UInt8(ascii: "}"), in: utf8, from: innerStart) else { break }
            let inner = innerStart..<close
            next = utf8.index(close, offsetBy: 2)
            found.append(
                Placeholder(range: open..<next, inner: inner, name: text[inner].trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    /// Where the first two `byte`s in a row start, searched byte by byte (Foundation's
    /// `range(of:)` goes through a string comparison per call: most of what reading a large
    /// collection's texts cost).
    private static func firstPair(of byte: UInt8, in utf8: String.UTF8View, from start: String.Index) -> String.Index? {
        var index = start
        var previous: String.Index?
        while index < utf8.endIndex {
            if utf8[index] == byte {
                if let previous { return previous }
                previous = index
            } else {
                previous = nil
            }
            utf8.formIndex(after: &index)
        }
        return nil
    }

    /// Splits a string into literal text and `{{name}}` references.
    package init(_ text: String) {
        var segments: [Segment] = []
        var start = text.startIndex
        for placeholder in Self.placeholders(in: text) {
            if placeholder.range.lowerBound > start {
                segments.append(.literal(String(text[start..<placeholder.range.lowerBound])))
            }
            segments.append(
                placeholder.name.isEmpty ? .literal(String(text[placeholder.range])) : .variable(placeholder.name))
            start = placeholder.range.upperBound
        }
        if start < text.endIndex { segments.append(.literal(String(text[start...]))) }
        self.segments = segments
    }

    /// The names referenced, in order of first use.
    package var variableNames: [String] {
        var seen: Set<String> = []
        return segments.compactMap {
            if case .variable(let name) = $0, seen.insert(name).inserted { return name }
            return nil
        }
    }

    /// The text with each `{{name}}` replaced by what `replacement` gives for the name
    /// (another tool's spelling of a variable); literal text stays as it is.
    package static func rewritingVariables(in text: String, _ replacement: (String) -> String) -> String {
        Template(text).segments.map { segment in
            switch segment {
            case .literal(let literal): return literal
            case .variable(let name): return replacement(name)
            }
        }.joined()
    }

    /// Whether the text holds any `{{name}}` reference.
    package static func containsVariables(_ text: String) -> Bool {
        Template(text).segments.contains { if case .variable = $0 { return true } else { return false } }
    }
}
