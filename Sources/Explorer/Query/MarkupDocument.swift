import Foundation

/// An XML or HTML body read into a small tree for `xpath` queries.
///
/// The reader is written here rather than borrowed from Foundation's `XMLDocument`, whose
/// libxml2 prints parse errors straight to stderr (over the TUI's screen), and which refuses
/// the HTML that servers really send. It is lenient the way browsers are: HTML void elements
/// (`<br>`, `<meta>` …) need no end tag, an end tag closes the elements left open inside it,
/// a stray end tag is ignored, `<script>` and `<style>` hold text, comments, processing
/// instructions and the doctype are skipped, and the common entities are decoded. It never
/// prints anything; the only failures are a body with no element at all and nesting deeper
/// than `maximumDepth`.
///
/// Nodes live in one array in document order (a node's index is its position), so results
/// come out in document order by sorting indices.
package struct MarkupDocument: Sendable {
    /// What a node is.
    package enum Kind: Sendable {
        /// The document itself (index 0), the parent of the top-level nodes.
        case document
        /// An element, by name (lower-cased in HTML), with its attributes in written order.
        case element(name: String, attributes: [(name: String, value: String)])
        /// A run of text (entities decoded; runs of only whitespace are left out).
        case text(String)
    }

    /// One node of the tree.
    package struct Node: Sendable {
        package var kind: Kind
        /// The parent's index (`nil` for the document).
        package var parent: Int?
        /// The children's indices, in order.
        package var children: [Int] = []
    }

    /// Every node, the document first, in document order.
    package private(set) var nodes: [Node] = [Node(kind: .document, parent: nil)]
    /// Whether names were read as HTML (case-insensitive, lower-cased).
    package let isHTML: Bool

    /// The deepest nesting read.
    package static let maximumDepth = 1000

    /// Why a body could not be read as markup.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Elements that never have content in HTML.
    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is text up to their end tag in HTML.
    private static let rawTextElements: Set<String> = ["script", "style"]

    /// Reads a body.
    ///
    /// - Parameters:
    ///   - text: the body as text.
    ///   - html: read as HTML (names case-insensitive, void elements); `nil` decides from the
    ///     text (a doctype or an `<html>` element makes it HTML).
    /// - Throws: `Failure` when the body holds no element, or nests deeper than `maximumDepth`.
    package init(_ text: String, html: Bool? = nil) throws(Failure) {
        let scalars = Array(text.unicodeScalars)
        isHTML = html ?? Self.looksLikeHTML(text)
        var open: [Int] = [0]
        var index = 0
        var textStart = 0

        while index < scalars.count {
            guard scalars[index] == "<", index + 1 < scalars.count else {
                index += 1
                continue
            }
            let next = scalars[index + 1]
            if Self.hasPrefix(scalars, at: index, "<!--") {
                appendText(scalars, textStart..<index, to: open.last!)
                index = Self.find(scalars, "-->", from: index + 4).map { $0 + 3 } ?? scalars.count
                textStart = index
            } else if Self.hasPrefix(scalars, at: index, "<![CDATA[") {
                appendText(scalars, textStart..<index, to: open.last!)
                let end = Self.find(scalars, "]]>", from: index + 9) ?? scalars.count
                let content = String(String.UnicodeScalarView(scalars[(index + 9)..<end]))
                if !content.isEmpty { append(.text(content), to: open.last!) }
                index = min(scalars.count, end + 3)
                textStart = index
            } else if next == "!" || next == "?" {
                appendText(scalars, textStart..<index, to: open.last!)
                index = Self.find(scalars, ">", from: index + 2).map { $0 + 1 } ?? scalars.count
                textStart = index
            } else if next == "/" {
                appendText(scalars, textStart..<index, to: open.last!)
                var cursor = index + 2
                let name = Self.readName(scalars, &cursor)
                index = Self.find(scalars, ">", from: cursor).map { $0 + 1 } ?? scalars.count
                textStart = index
                let wanted = isHTML ? name.lowercased() : name
                // Close up to the matching element; a stray end tag closes nothing.
                if let depth = open.lastIndex(where: { elementName(of: $0) == wanted }), depth > 0 {
                    open.removeSubrange(depth...)
                }
            } else if Self.isNameStart(next) {
                appendText(scalars, textStart..<index, to: open.last!)
                var cursor = index + 1
                var name = Self.readName(scalars, &cursor)
                if isHTML { name = name.lowercased() }
                let (attributes, selfClosing, end) = Self.readAttributes(scalars, from: cursor, html: isHTML)
                index = end
                textStart = index
                let node = append(.element(name: name, attributes: attributes), to: open.last!)
                if selfClosing || (isHTML && Self.voidElements.contains(name)) { continue }
                if isHTML && Self.rawTextElements.contains(name) {
                    let close = Self.findCaseInsensitive(scalars, "</\(name)", from: index) ?? scalars.count
                    let content = String(String.UnicodeScalarView(scalars[index..<close]))
                    if !content.allSatisfy(\.isWhitespace) { append(.text(content), to: node) }
                    index = Self.find(scalars, ">", from: close).map { $0 + 1 } ?? scalars.count
                    textStart = index
                    continue
                }
                open.append(node)
                guard open.count <= Self.maximumDepth + 1 else {
                    throw Failure(description: "the body nests elements deeper than \(Self.maximumDepth) levels")
                }
            } else {
                index += 1
            }
        }
        appendText(scalars, textStart..<scalars.count, to: open.last!)
        guard nodes.contains(where: { if case .element = $0.kind { true } else { false } }) else {
            throw Failure(description: "the body holds no XML or HTML element")
        }
    }

    /// Adds the text between two tags, unless it is only whitespace.
    private mutating func appendText(_ scalars: [Unicode.Scalar], _ range: Range<Int>, to parent: Int) {
        guard !range.isEmpty else { return }
        let raw = String(String.UnicodeScalarView(scalars[range]))
        if !raw.allSatisfy(\.isWhitespace) { append(.text(Self.decodeEntities(raw)), to: parent) }
    }

    @discardableResult
    private mutating func append(_ kind: Kind, to parent: Int) -> Int {
        nodes.append(Node(kind: kind, parent: parent))
        nodes[parent].children.append(nodes.count - 1)
        return nodes.count - 1
    }

    private func elementName(of index: Int) -> String? {
        if case .element(let name, _) = nodes[index].kind { return name }
        return nil
    }

    // MARK: - Reading values

    /// The text of a node: a text node's own, an element's (and the document's) every
    /// descendant text joined, trimmed of surrounding whitespace.
    package func stringValue(of index: Int) -> String {
        var parts: [String] = []
        var pending = [index]
        while let next = pending.popLast() {
            if case .text(let text) = nodes[next].kind { parts.append(text) }
            pending.append(contentsOf: nodes[next].children.reversed())
        }
        return parts.joined().trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The node and every node under it, in document order.
    package func descendantsOrSelf(of index: Int) -> [Int] {
        var found: [Int] = []
        var pending = [index]
        while let next = pending.popLast() {
            found.append(next)
            pending.append(contentsOf: nodes[next].children.reversed())
        }
        return found
    }

    // MARK: - Scanning

    private static func looksLikeHTML(_ text: String) -> Bool {
        let start = text.prefix(1024).lowercased()
        return start.contains("<!doctype html") || start.contains("<html")
    }

    private static func hasPrefix(_ scalars: [Unicode.Scalar], at index: Int, _ prefix: String) -> Bool {
        let wanted = Array(prefix.unicodeScalars)
        guard index + wanted.count <= scalars.count else { return false }
        return Array(scalars[index..<(index + wanted.count)]) == wanted
    }

    private static func find(_ scalars: [Unicode.Scalar], _ text: String, from start: Int) -> Int? {
        let wanted = Array(text.unicodeScalars)
        var index = start
        while index + wanted.count <= scalars.count {
            if scalars[index] == wanted[0] && Array(scalars[index..<(index + wanted.count)]) == wanted { return index }
            index += 1
        }
        return nil
    }

    private static func findCaseInsensitive(_ scalars: [Unicode.Scalar], _ text: String, from start: Int) -> Int? {
        let wanted = Array(text.lowercased().unicodeScalars)
        var index = start
        while index + wanted.count <= scalars.count {
            if scalars[index] == "<",
                String(String.UnicodeScalarView(scalars[index..<(index + wanted.count)])).lowercased()
                    == text.lowercased()
            {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar == "_" || scalar == ":"
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "."
    }

    private static func readName(_ scalars: [Unicode.Scalar], _ cursor: inout Int) -> String {
        let start = cursor
        while cursor < scalars.count, isNameCharacter(scalars[cursor]) { cursor += 1 }
        return String(String.UnicodeScalarView(scalars[start..<cursor]))
    }

    /// The attributes of a start tag from `start` (just after its name) to its `>`: the
    /// pairs, whether it ends with `/>`, and the index after it.
    private static func readAttributes(
        _ scalars: [Unicode.Scalar], from start: Int, html: Bool
    ) -> (attributes: [(name: String, value: String)], selfClosing: Bool, end: Int) {
        var attributes: [(name: String, value: String)] = []
        var cursor = start
        while cursor < scalars.count {
            let scalar = scalars[cursor]
            if scalar == ">" { return (attributes, false, cursor + 1) }
            if scalar == "/" && cursor + 1 < scalars.count && scalars[cursor + 1] == ">" {
                return (attributes, true, cursor + 2)
            }
            guard !scalar.properties.isWhitespace, scalar != "/" else {
                cursor += 1
                continue
            }
            var name = String(scalar)
            cursor += 1
            while cursor < scalars.count, !scalars[cursor].properties.isWhitespace,
                !"=>/".unicodeScalars.contains(scalars[cursor])
            {
                name.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
            while cursor < scalars.count, scalars[cursor].properties.isWhitespace { cursor += 1 }
            var value = ""
            if cursor < scalars.count, scalars[cursor] == "=" {
                cursor += 1
                while cursor < scalars.count, scalars[cursor].properties.isWhitespace { cursor += 1 }
                if cursor < scalars.count, scalars[cursor] == "\"" || scalars[cursor] == "'" {
                    let quote = scalars[cursor]
                    let close = scalars[(cursor + 1)...].firstIndex(of: quote) ?? scalars.count
                    value = String(String.UnicodeScalarView(scalars[(cursor + 1)..<close]))
                    cursor = min(scalars.count, close + 1)
                } else {
                    let begin = cursor
                    while cursor < scalars.count, !scalars[cursor].properties.isWhitespace, scalars[cursor] != ">" {
                        cursor += 1
                    }
                    value = String(String.UnicodeScalarView(scalars[begin..<cursor]))
                }
            }
            attributes.append((html ? name.lowercased() : name, decodeEntities(value)))
        }
        return (attributes, false, scalars.count)
    }

    private static let namedEntities: [String: String] = [
        "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "hellip": "…",
        "mdash": "—", "ndash": "–",
    ]

    /// Text with `&lt;`, `&#65;`, `&#x41;` and the common named entities decoded; an unknown
    /// one stays as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            out += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = String(after[..<semicolon])
            var decoded: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            } else {
                decoded = namedEntities[name]
            }
            if let decoded {
                out += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}
