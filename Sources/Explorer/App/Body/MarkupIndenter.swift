import Terminal

/// Indents XML and HTML that arrive on few lines, and colours tags.
///
/// The layout is bounded, since the markup comes from a server: indentation stops growing at
/// `maximumIndentedDepth` levels, and markup whose laid-out text would pass
/// `layoutBudget(for:)` bytes is not laid out at all (the view shows it as received, with a
/// note), so a body of 100,000 nested `<div>` costs a few megabytes, not 2 × 10¹⁰ bytes.
enum MarkupIndenter {
    /// Elements nested deeper are indented as this level (64 columns): past it, indentation
    /// only pushes the text off the screen.
    static let maximumIndentedDepth = 32
    /// The laid-out text may take this many times the body's size, plus `layoutAllowance`.
    static let layoutFactor = 4
    /// What the laid-out text may take beyond `layoutFactor` times the body's size.
    static let layoutAllowance = 1 << 20

    /// Markup laid out, or why it was not.
    enum Layout: Equatable {
        /// One tag or run of text a line, indented two spaces a level (or, when its author
        /// already put it on lines, the text as it is).
        case laidOut([UInt8])
        /// Laid out, the text would pass `layoutBudget(for:)`: it is to be shown as received.
        /// `deepest` is how deeply its elements nest.
        case overBudget(deepest: Int)
    }

    /// The most bytes the layout of `count` bytes of markup may take.
    static func layoutBudget(for count: Int) -> Int {
        count.multipliedReportingOverflow(by: layoutFactor).partialValue + layoutAllowance
    }

    /// Lays markup out one tag or run of text a line.
    ///
    /// - Parameters:
    ///   - input: the markup, UTF-8.
    ///   - html: whether it is HTML, whose void elements (`<br>`, `<img>` …) have no end tag.
    /// - Returns: the laid-out text, or `.overBudget` with how deeply the markup nests.
    static func layout(_ input: [UInt8], html: Bool = false) -> Layout {
        let newlines = input.lazy.filter { $0 == 0x0A }.count
        // Already laid out by its author: keep it.
        if newlines > input.count / 200 { return .laidOut(input) }
        let budget = layoutBudget(for: input.count)
        var output: [UInt8] = []
        output.reserveCapacity(min(budget, input.count + input.count / 4))
        var fits = true
        var depth = 0
        var deepest = 0
        // After the last `>`, a `<` opens no tag: the rest is text.
        let lastClose = input.lastIndex(of: 0x3E) ?? -1
        // Copied a line at a time as one block of bytes.
        let indentation = [UInt8](repeating: 0x20, count: maximumIndentedDepth * 2)

        func put(_ piece: ArraySlice<UInt8>) {
            guard fits else { return }
            let indent = min(depth, maximumIndentedDepth) * 2
            guard output.count + indent + piece.count + 1 <= budget else {
                fits = false
                output = []
                return
            }
            output.append(contentsOf: indentation[..<indent])
            output.append(contentsOf: piece)
            output.append(0x0A)
        }

        var index = 0
        while index < input.count {
            guard input[index] == 0x3C, index < lastClose, let close = input[index...].firstIndex(of: 0x3E) else {
                let end = input[(index + 1)...].firstIndex(of: 0x3C) ?? input.count
                let text = input[index..<end].drop { $0.isJSONWhitespace }
                if !text.isEmpty { put(text) }
                index = end
                continue
            }
            let tag = input[index...close]
            let isClosing = tag.count > 1 && tag[tag.startIndex + 1] == 0x2F
            let isSelfContained =
                tag.dropLast().last == 0x2F || tag.dropFirst().first == 0x3F || tag.dropFirst().first == 0x21
                || (html && isVoidElement(tag))
            if isClosing { depth = max(0, depth - 1) }
            put(tag)
            if !isClosing && !isSelfContained {
                depth += 1
                deepest = max(deepest, depth)
            }
            index = close + 1
        }
        return fits ? .laidOut(output) : .overBudget(deepest: deepest)
    }

    /// HTML's elements that have no end tag (WHATWG HTML, "void elements").
    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]

    /// Whether a start tag opens one of HTML's void elements.
    private static func isVoidElement(_ tag: ArraySlice<UInt8>) -> Bool {
        let name = tag.dropFirst().prefix { $0 != 0x3E && $0 != 0x2F && !$0.isJSONWhitespace }
        guard name.count <= 6 else { return false }
        return voidElements.contains(String(decoding: name, as: UTF8.self).lowercased())
    }

    static func spans(_ line: String) -> [Span] {
        var spans: [Span] = []
        var current = ""
        var inTag = false
        for character in line {
            if character == "<" && !inTag {
                if !current.isEmpty { spans.append(Span(current)) }
                current = "<"
                inTag = true
            } else if character == ">" && inTag {
                current.append(">")
                spans.append(Span(current, role: .jsonKey))
                current = ""
                inTag = false
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { spans.append(Span(current, role: inTag ? .jsonKey : .text)) }
        return spans
    }
}
