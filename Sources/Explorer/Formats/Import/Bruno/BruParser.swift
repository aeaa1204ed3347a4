import Foundation

/// A `.bru` file taken apart into its blocks, as Bruno's own grammar (bruno-lang v2) reads it.
///
/// A block is a name, then a dictionary (`headers { name: value }`), a text
/// (`body:json { … }`, `docs { … }`) or a list (`vars:secret [ a, b ]`), ending at a line that
/// starts with `}` (or `]`). A dictionary line is `name: value`: a `~` before the name switches
/// it off, a name may be quoted (`"key with spaces": v`, `\"` inside), a value may be a
/// `'''` block over several lines (each line's four-space indent removed) or a `[ … ]` list,
/// and a line `@name(…)` before a pair is an annotation of it. A text block's lines lose two
/// spaces of indent, as Bruno's `outdentString` removes them.
struct BruFile: Sendable {
    /// One `name: value` line of a dictionary block.
    struct Pair: Sendable, Equatable {
        /// The name, without its `~` or quotes.
        var name: String
        /// The value (a `'''` block's text, or the items of a list joined by newlines).
        var value: String
        /// The items of a `[ … ]` value; `nil` for a text value.
        var list: [String]?
        /// `false` for a `~name:` line.
        var enabled: Bool
        /// The line the pair starts on (1-based).
        var line: Int
        /// The `@name(argument)` annotations written above the pair.
        var annotations: [(name: String, argument: String?)] = []

        static func == (lhs: Pair, rhs: Pair) -> Bool {
            lhs.name == rhs.name && lhs.value == rhs.value && lhs.list == rhs.list && lhs.enabled == rhs.enabled
        }
    }

    /// What a block holds.
    enum Content: Sendable {
        case pairs([Pair])
        case text(String)
        case list([String])
    }

    /// One block.
    struct Block: Sendable {
        var name: String
        var line: Int
        var content: Content

        /// The pairs of a dictionary block (none for another kind).
        var pairs: [Pair] {
            if case .pairs(let pairs) = content { return pairs }
            return []
        }

        /// The text of a text block (`nil` for another kind).
        var text: String? {
            if case .text(let text) = content { return text }
            return nil
        }

        /// The value of the first enabled pair of that name.
        func value(_ name: String) -> String? { pairs.first { $0.name == name && $0.enabled }?.value }
    }

    /// Why a `.bru` file cannot be read, at a line.
    struct ParseError: Error, Sendable, Equatable {
        var line: Int
        var reason: String
    }

    /// The blocks, in the order written.
    var blocks: [Block]

    /// The blocks whose content is text, not `name: value` lines.
    static let textBlocks: Set<String> = [
        "body", "body:json", "body:text", "body:xml", "body:sparql", "body:graphql", "body:graphql:vars",
        "script:pre-request", "script:post-response", "tests", "docs", "example",
    ]

    /// The blocks whose names may have spaces and colons before the `:` (`res.body.x isString`
    /// is not one, but `res.headers['a b']` is).
    static let freeKeyBlocks: Set<String> = ["assert"]

    /// The first block of that name.
    func block(_ name: String) -> Block? { blocks.first { $0.name == name } }

    /// Every block of that name, in order.
    func blocks(_ name: String) -> [Block] { blocks.filter { $0.name == name } }

    /// Reads a `.bru` file's text.
    ///
    /// - Throws: `ParseError` with the line of the first thing Bruno's grammar would refuse.
    init(parsing text: String) throws(ParseError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0] = lines[0].dropFirst() }
        var reader = LineReader(lines: lines)
        blocks = []
        while let (number, line) = reader.next() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let opening = trimmed.firstIndex(where: { $0 == "{" || $0 == "[" }) else {
                throw ParseError(line: number, reason: "\"\(Self.excerpt(trimmed))\" does not open a block (NAME {).")
            }
            let name = trimmed[..<opening].trimmingCharacters(in: .whitespaces)
            let rest = trimmed[trimmed.index(after: opening)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy(Self.isNameCharacter) else {
                throw ParseError(line: number, reason: "\"\(Self.excerpt(trimmed))\" does not open a block (NAME {).")
            }
            let isList = trimmed[opening] == "["
            let closer: Character = isList ? "]" : "}"
            if rest == String(closer) {
                // `meta {}` on one line: an empty block.
                blocks.append(Block(name: name, line: number, content: isList ? .list([]) : .pairs([])))
                continue
            }
            guard rest.isEmpty else {
                throw ParseError(
                    line: number,
                    reason: "the block \(name) has text after its \(trimmed[opening]); start it on the next line.")
            }
            if isList {
                blocks.append(
                    Block(
                        name: name, line: number,
                        content: .list(try reader.listItems(closer: "]", from: number, block: name))))
            } else if Self.textBlocks.contains(name) {
                blocks.append(
                    Block(name: name, line: number, content: .text(try reader.textBlock(from: number, block: name))))
            } else {
                let pairs = try reader.dictionary(
                    from: number, block: name, freeKeys: Self.freeKeyBlocks.contains(name))
                blocks.append(Block(name: name, line: number, content: .pairs(pairs)))
            }
        }
    }

    /// A block name: letters, digits, `:`, `-`, `_`.
    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || ":-_".contains(character))
    }

    /// The start of a line, for a message.
    static func excerpt(_ text: some StringProtocol) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : String(text)
    }
}

/// The lines of a `.bru` file, read once from the top.
private struct LineReader {
    let lines: [Substring]
    var index = 0

    /// The next line and its number (1-based).
    mutating func next() -> (Int, Substring)? {
        guard index < lines.count else { return nil }
        defer { index += 1 }
        return (index + 1, lines[index])
    }

    /// Whether a line ends the block: it starts with the closing character.
    private func closes(_ line: Substring, _ closer: Character) -> Bool { line.first == closer }

    /// A text block's lines up to its closing `}`, two spaces of indent removed from each,
    /// leading empty lines skipped.
    mutating func textBlock(from start: Int, block: String) throws(BruFile.ParseError) -> String {
        var collected: [Substring] = []
        while let (_, line) = next() {
            if closes(line, "}") { return collected.joined(separator: "\n") }
            // Bruno's grammar skips the empty lines right after the {.
            if collected.isEmpty && line.isEmpty { continue }
            collected.append(line.hasPrefix("  ") ? line.dropFirst(2) : line)
        }
        throw BruFile.ParseError(line: start, reason: "the block \(block) is not closed: no line starts with }.")
    }

    /// A list block's items (`vars:secret [ a, b ]`), separated by commas or lines.
    mutating func listItems(closer: Character, from start: Int, block: String) throws(BruFile.ParseError) -> [String] {
        var items: [String] = []
        while let (_, line) = next() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix(String(closer)) { return items }
            items += trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        throw BruFile.ParseError(line: start, reason: "the list \(block) is not closed: no line starts with \(closer).")
    }

    /// A dictionary block's pairs up to its closing `}`.
    mutating func dictionary(from start: Int, block: String, freeKeys: Bool) throws(BruFile.ParseError)
        -> [BruFile.Pair]
    {
        var pairs: [BruFile.Pair] = []
        var annotations: [(name: String, argument: String?)] = []
        while let (number, line) = next() {
            if closes(line, "}") { return pairs }
            var rest = line.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { continue }
            if rest.first == "@", rest.contains("('''"), !rest.contains("''')") {
                // An annotation whose ''' argument runs over several lines.
                let start = rest.range(of: "('''")!.upperBound
                var argument: [Substring] = [rest[start...]]
                var closed = false
                while let (_, following) = next() {
                    if let end = following.range(of: "''')") {
                        argument.append(following[..<end.lowerBound])
                        closed = true
                        break
                    }
                    argument.append(following)
                }
                guard closed else {
                    throw BruFile.ParseError(
                        line: number, reason: "the annotation that starts here is not closed with ''').")
                }
                let name = rest.dropFirst().prefix { $0 != "(" }
                let text = argument.map { Self.dropIndent($0, 4) }.joined(separator: "\n")
                annotations.append((String(name), text.trimmingCharacters(in: .whitespacesAndNewlines)))
                continue
            }
            if rest.first == "@", let annotation = Self.annotation(rest) {
                annotations.append(annotation)
                continue
            }
            var enabled = true
            let name: String
            if rest.hasPrefix("~\"") || rest.hasPrefix("\"") {
                if rest.first == "~" {
                    enabled = false
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
                var key = ""
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\\", rest.first == "\"" {
                        key.append("\"")
                        rest = rest.dropFirst()
                    } else if character == "\"" {
                        closed = true
                        break
                    } else {
                        key.append(character)
                    }
                }
                guard closed else {
                    throw BruFile.ParseError(
                        line: number, reason: "the quoted name \"\(BruFile.excerpt(line))\" has no closing quote.")
                }
                name = key
                rest = rest.drop { $0 == " " || $0 == "\t" }
                guard rest.first == ":" else {
                    throw BruFile.ParseError(
                        line: number,
                        reason: "\"\(BruFile.excerpt(line.trimmingCharacters(in: .whitespaces)))\" is not name: value.")
                }
                rest = rest.dropFirst()
            } else {
                guard let colon = rest.firstIndex(of: ":") else {
                    throw BruFile.ParseError(
                        line: number,
                        reason:
                            "\"\(BruFile.excerpt(line.trimmingCharacters(in: .whitespaces)))\" in \(block) is not name: value."
                    )
                }
                var key = rest[..<colon].trimmingCharacters(in: .whitespaces)
                if !freeKeys, key.contains(where: { $0 == " " || $0 == "\t" }) {
                    throw BruFile.ParseError(
                        line: number,
                        reason: "\"\(BruFile.excerpt(line.trimmingCharacters(in: .whitespaces)))\" in \(block) is not "
                            + "name: value (a name with a space is quoted).")
                }
                if key.hasPrefix("~") {
                    enabled = false
                    key.removeFirst()
                }
                name = key
                rest = rest[rest.index(after: colon)...]
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
            var pair = BruFile.Pair(
                name: name, value: "", list: nil, enabled: enabled, line: number, annotations: annotations)
            annotations = []
            if rest.hasPrefix("'''") {
                pair.value = try multiline(after: rest.dropFirst(3), from: number)
            } else if rest.trimmingCharacters(in: .whitespaces) == "[" {
                let items = try listItems(closer: "]", from: number, block: "\(block) \(name)")
                pair.list = items
                pair.value = items.joined(separator: "\n")
            } else {
                pair.value = rest.trimmingCharacters(in: .whitespaces)
            }
            pairs.append(pair)
        }
        throw BruFile.ParseError(line: start, reason: "the block \(block) is not closed: no line starts with }.")
    }

    /// A `'''` value: the text up to the closing `'''`, four characters of indent removed from
    /// each line, trimmed; an `@contentType(…)` after the closing quotes is kept after a space.
    private mutating func multiline(after first: Substring, from start: Int) throws(BruFile.ParseError) -> String {
        var collected: [Substring] = []
        var current = first
        while true {
            if let end = current.range(of: "'''") {
                collected.append(current[..<end.lowerBound])
                let tail = current[end.upperBound...].trimmingCharacters(in: .whitespaces)
                let text = collected.map { Self.dropIndent($0, 4) }.joined(separator: "\n")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                return tail.isEmpty ? text : text + " " + tail
            }
            collected.append(current)
            guard let (_, line) = next() else {
                throw BruFile.ParseError(line: start, reason: "the ''' text that starts here is not closed with '''.")
            }
            current = line
        }
    }

    /// The line without up to `count` leading spaces or tabs.
    private static func dropIndent(_ line: Substring, _ count: Int) -> Substring {
        var rest = line
        var dropped = 0
        while dropped < count, let first = rest.first, first == " " || first == "\t" {
            rest = rest.dropFirst()
            dropped += 1
        }
        return rest
    }

    /// An annotation line `@name` or `@name(argument)`, or `nil` when the line is a pair
    /// whose name starts with `@` (`@local: value`).
    private static func annotation(_ text: Substring) -> (name: String, argument: String?)? {
        let body = text.dropFirst()
        let nameEnd = body.firstIndex { "() \t:".contains($0) } ?? body.endIndex
        let name = String(body[..<nameEnd])
        guard !name.isEmpty else { return nil }
        var rest = body[nameEnd...]
        var argument: String?
        if rest.first == "(" {
            guard let close = rest.lastIndex(of: ")") else { return nil }
            var inner = rest[rest.index(after: rest.startIndex)..<close]
            if inner.count >= 2, let first = inner.first, first == "'" || first == "\"", inner.last == first {
                inner = inner.dropFirst().dropLast()
            }
            argument = String(inner)
            rest = rest[rest.index(after: close)...]
        }
        guard rest.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return (name, argument)
    }
}
