import Yams

/// YAML composed within `DocumentLimits`: what every reader of a YAML file (the collection
/// loader, the importers) composes its tree with.
///
/// Yams composes an alias as the node its anchor names, shared rather than copied, so the
/// tree of a "billion laughs" is small; what expands it is every walk that follows (merge
/// keys, conversion to values). Before the tree is handed back it is measured once, each
/// mapping's and sequence's expanded size remembered, and refused when its aliases would add more
/// than `maxAliasNodes` nodes or when it nests deeper than `maxDepth`, naming the line.
package enum BoundedYAML {
    /// libyaml's own nesting limit, which no setting raises.
    package static let readerDepthLimit = 1000

    /// Composes `text` as one YAML document.
    ///
    /// - Parameters:
    ///   - text: the YAML.
    ///   - file: the path shown in errors.
    ///   - resolver: how plain scalars get their tags.
    ///   - limits: what the document may hold.
    /// - Returns: the root node, or nil for an empty document.
    /// - Throws: `DocumentLimitError` for a document over a limit, `YamlError` for one that is
    ///   not YAML.
    package static func compose(
        _ text: String, file: String, resolver: Resolver = .explorerFiles,
        limits: DocumentLimits = .current
    ) throws -> Node? {
        try composeChecked(text, file: file, resolver: resolver, limits: limits, fast: false).root
    }

    /// Composes a collection file's text as one YAML document, as `compose` does with
    /// `Resolver.explorerFiles`, through `EventComposer` when the text reads without a problem
    /// (Yams' composer otherwise, for its errors).
    ///
    /// - Parameters:
    ///   - text: the YAML.
    ///   - file: the path shown in errors.
    ///   - limits: what the document may hold.
    /// - Returns: the root node (nil for an empty document); when the fast path read it, what
    ///   it saw on the way (nil when Yams' composer did: read it from the tree).
    /// - Throws: `DocumentLimitError` for a document over a limit, `YamlError` for one that is
    ///   not YAML.
    static func composeCollection(_ text: String, file: String, limits: DocumentLimits = .current) throws -> (
        root: Node?, composed: EventComposer.Composed?
    ) {
        try composeChecked(text, file: file, limits: limits, fast: true)
    }

    /// `compose`'s checks around one of the two composers.
    private static func composeChecked(
        _ text: String, file: String, resolver: Resolver = .explorerFiles, limits: DocumentLimits, fast: Bool
    ) throws -> (root: Node?, composed: EventComposer.Composed?) {
        try limits.checkSize(text.utf8.count, file: file)
        if let line = aliasKeyLine(in: text) {
            // Yams compares a mapping's keys whole; an alias of a large node as a key would be
            // walked in full before anything here could measure it.
            throw DocumentLimitError(
                location: FileLocation(file: file, line: line, column: 1),
                problem: "an alias is used as a mapping key, which is not read", variable: nil)
        }
        let composed = fast ? EventComposer.compose(text) : nil
        var root = composed?.root
        if composed == nil {
            do {
                root = try Yams.compose(yaml: text, resolver)
            } catch let error as YamlError {
                if let nesting = nestingError(error, file: file) { throw nesting }
                throw error
            }
        }
        guard let root else { return (nil, composed) }
        // Without an alias nothing expands, and the composer knows how deep the tree nests:
        // only a tree that may be over a limit is walked.
        if let composed, !composed.hasAliases, composed.depth <= limits.maxDepth { return (root, composed) }
        var measure = Measure(file: file, limits: limits)
        _ = try measure.size(of: root, depth: 1, parent: nil)
        return (root, composed)
    }

    /// libyaml's nesting error, as a `DocumentLimitError` at its line.
    private static func nestingError(_ error: YamlError, file: String) -> DocumentLimitError? {
        switch error {
        case .parser(_, let problem, let mark, _) where problem.contains("nesting level"),
            .scanner(_, let problem, let mark, _) where problem.contains("nesting level"):
            return DocumentLimitError(
                location: FileLocation(file: file, line: mark.line, column: mark.column),
                problem: "the YAML nests deeper than \(readerDepthLimit) levels, the YAML reader's own limit",
                variable: nil)
        default:
            return nil
        }
    }

    /// The line of the first alias written as a mapping key (`*name:` or `? *name` at the start
    /// of a line, after its indentation and any `- `), when the text has anchors at all.
    ///
    /// Only an alias of an anchor the text defines counts, and only outside the text of block
    /// scalars (`|`, `>`) and of quoted scalars that run over lines: a Markdown list item
    /// `*Browse:` inside a description (Jira's) is text, as every YAML reader reads it.
    static func aliasKeyLine(in text: String) -> Int? {
        // Most files have no anchor: the text is copied only when one has.
        guard text.utf8.contains(UInt8(ascii: "&")), text.utf8.contains(UInt8(ascii: "*")) else { return nil }
        let bytes = Array(text.utf8)
        let anchors = anchorNames(in: bytes)
        guard !anchors.isEmpty else { return nil }
        var reader = KeyLineReader(bytes: bytes, anchors: anchors)
        return reader.firstAliasKeyLine()
    }

    /// Whether a byte may be part of an anchor's name, as the alias check reads one.
    fileprivate static func isAnchorByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x5F
    }

    /// The names of the anchors (`&name` after a space, `-`, `:`, `[`, `{`, `,` or at the start
    /// of a line) the text defines.
    private static func anchorNames(in bytes: [UInt8]) -> Set<ArraySlice<UInt8>> {
        var names: Set<ArraySlice<UInt8>> = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: "&") {
            if index > 0, !" \t-:[{,\n".utf8.contains(bytes[index - 1]) { continue }
            var end = index + 1
            while end < bytes.count, isAnchorByte(bytes[end]) { end += 1 }
            if end > index + 1 { names.insert(bytes[(index + 1)..<end]) }
        }
        return names
    }

    /// Reads the text line by line, knowing which lines are the text of a block scalar or of a
    /// quoted scalar begun on an earlier line.
    private struct KeyLineReader {
        let bytes: [UInt8]
        let anchors: Set<ArraySlice<UInt8>>
        /// Inside a block scalar: the indentation its lines must exceed.
        var blockParent: Int?
        /// Inside a quoted scalar begun on an earlier line: its quote.
        var openQuote: UInt8?

        init(bytes: [UInt8], anchors: Set<ArraySlice<UInt8>>) {
            self.bytes = bytes
            self.anchors = anchors
        }

        mutating func firstAliasKeyLine() -> Int? {
            var line = 1
            var index = 0
            while index < bytes.count {
                let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
                if isAliasKey(from: index, to: end) { return line }
                index = end + 1
                line += 1
            }
            return nil
        }

        /// Whether the line `start..<end` begins with an alias used as a key; notes where
        /// block and quoted scalars begin and end.
        private mutating func isAliasKey(from start: Int, to end: Int) -> Bool {
            if let quote = openQuote {
                if closing(quote, from: start, to: end) != nil { openQuote = nil }
                return false
            }
            var at = start
            while at < end, bytes[at] == 0x20 { at += 1 }
            if let parent = blockParent {
                if at == end || bytes[at] == 0x0D || at - start > parent { return false }
                blockParent = nil
            }
            var dash: Int?
            while at < end,
                bytes[at] == 0x20 || bytes[at] == 0x09
                    || bytes[at] == UInt8(ascii: "-") && at + 1 < end && bytes[at + 1] == 0x20
            {
                if bytes[at] == UInt8(ascii: "-") { dash = at - start }
                at += 1
            }
            var complexKey = false
            if at + 1 < end, bytes[at] == UInt8(ascii: "?"), bytes[at + 1] == 0x20 {
                complexKey = true
                at += 2
                while at < end, bytes[at] == 0x20 { at += 1 }
            }
            if at < end, bytes[at] == UInt8(ascii: "*") {
                var nameEnd = at + 1
                while nameEnd < end, BoundedYAML.isAnchorByte(bytes[nameEnd]) { nameEnd += 1 }
                if nameEnd > at + 1, anchors.contains(bytes[(at + 1)..<nameEnd]) {
                    if complexKey { return true }
                    while nameEnd < end, bytes[nameEnd] == 0x20 { nameEnd += 1 }
                    if nameEnd < end, bytes[nameEnd] == UInt8(ascii: ":"),
                        nameEnd + 1 == end || [0x20, 0x0D, 0x09].contains(bytes[nameEnd + 1])
                    {
                        return true
                    }
                }
            }
            scanValue(from: at, to: end, keyColumn: at - start, dash: dash)
            return false
        }

        /// Reads what follows a line's indentation (a key and its value, or a value): a quoted
        /// scalar left open or a block scalar's header.
        private mutating func scanValue(from start: Int, to end: Int, keyColumn: Int?, dash: Int? = nil) {
            var at = start
            var column = keyColumn
            // A key: quoted, or plain up to `: `.
            if at < end, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") {
                guard let close = closing(bytes[at], from: at + 1, to: end) else {
                    openQuote = bytes[at]
                    return
                }
                at = close + 1
                while at < end, bytes[at] == 0x20 { at += 1 }
                guard at < end, bytes[at] == UInt8(ascii: ":") else { return }
                at += 1
            } else {
                var colon = at
                while colon < end,
                    !(bytes[colon] == UInt8(ascii: ":")
                        && (colon + 1 == end || bytes[colon + 1] == 0x20 || bytes[colon + 1] == 0x0D))
                {
                    if bytes[colon] == UInt8(ascii: "#"), colon > at, bytes[colon - 1] == 0x20 { return }
                    colon += 1
                }
                if colon < end {
                    at = colon + 1
                } else {
                    // No key: the whole is a value (an item's, or a plain scalar's next line).
                    column = dash
                }
            }
            while at < end, bytes[at] == 0x20 { at += 1 }
            guard at < end else { return }
            switch bytes[at] {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if closing(bytes[at], from: at + 1, to: end) == nil { openQuote = bytes[at] }
            case UInt8(ascii: "|"), UInt8(ascii: ">"):
                var after = at + 1
                while after < end, "-+0123456789".utf8.contains(bytes[after]) { after += 1 }
                while after < end, bytes[after] == 0x20 { after += 1 }
                if after == end || bytes[after] == 0x0D || bytes[after] == UInt8(ascii: "#") {
                    blockParent = column ?? 0
                }
            default:
                break
            }
        }

        /// Where the quote closes on this line, if it does (`\"` escaped in double quotes,
        /// `''` in single ones).
        private func closing(_ quote: UInt8, from start: Int, to end: Int) -> Int? {
            var at = start
            while at < end {
                if quote == UInt8(ascii: "\""), bytes[at] == UInt8(ascii: "\\") {
                    at += 2
                    continue
                }
                if bytes[at] == quote {
                    if quote == UInt8(ascii: "'"), at + 1 < end, bytes[at + 1] == quote {
                        at += 2
                        continue
                    }
                    return at
                }
                at += 1
            }
            return nil
        }
    }

    /// One walk over the composed tree. An alias is the very node its anchor names (Yams keeps
    /// no anchor on the node once the parser is gone), so each mapping and sequence is known by
    /// its position: seen a second time, it is an alias, and its expanded size and height,
    /// remembered, cost a lookup rather than a walk.
    private struct Measure {
        let file: String
        let limits: DocumentLimits
        /// Expanded size and height of each mapping and sequence, by position.
        var measured: [Position: (size: Int, height: Int)] = [:]
        /// The nodes aliases have added so far.
        var added = 0

        struct Position: Hashable {
            var line: Int
            var column: Int
            var isSequence: Bool
        }

        init(file: String, limits: DocumentLimits) {
            self.file = file
            self.limits = limits
        }

        /// The expanded size and height of `node`, at `depth` (1 for the root).
        mutating func size(of node: Node, depth: Int, parent: Node?) throws(DocumentLimitError) -> (
            size: Int, height: Int
        ) {
            var position: Position?
            switch node {
            case .scalar, .alias:
                return (1, 1)
            case .sequence(let sequence):
                position = sequence.mark.map { Position(line: $0.line, column: $0.column, isSequence: true) }
            case .mapping(let mapping):
                position = mapping.mark.map { Position(line: $0.line, column: $0.column, isSequence: false) }
            }
            if let position, let known = measured[position] {
                // A second sight of a node is an alias of it.
                added += known.size
                if added > limits.maxAliasNodes {
                    let at =
                        parent?.mark.map { (line: $0.line, column: $0.column) } ?? (
                            line: position.line, column: position.column
                        )
                    throw DocumentLimitError(
                        location: FileLocation(file: file, line: at.line, column: at.column),
                        problem: "the aliases here expand the document by more than \(limits.maxAliasNodes) nodes "
                            + "(the anchored node of line \(position.line) is \(known.size) nodes; a \"billion laughs\"?)",
                        variable: DocumentLimits.aliasVariable, suggested: nil
                    )
                }
                try checkDepth(depth + known.height - 1, at: parent ?? node)
                return known
            }
            try checkDepth(depth, at: node)
            var total = 1
            var height = 1
            switch node {
            case .scalar, .alias:
                break
            case .sequence(let sequence):
                for child in sequence {
                    let measured = try size(of: child, depth: depth + 1, parent: node)
                    total += measured.size
                    height = max(height, measured.height + 1)
                }
            case .mapping(let mapping):
                for (key, value) in mapping {
                    let keySize = try size(of: key, depth: depth + 1, parent: node)
                    let valueSize = try size(of: value, depth: depth + 1, parent: node)
                    total += keySize.size + valueSize.size
                    height = max(height, keySize.height + 1, valueSize.height + 1)
                }
            }
            if let position { measured[position] = (total, height) }
            return (total, height)
        }

        private func checkDepth(_ depth: Int, at node: Node) throws(DocumentLimitError) {
            guard depth > limits.maxDepth else { return }
            let mark = node.mark
            throw DocumentLimitError(
                location: FileLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1),
                problem: "the document nests deeper than \(limits.maxDepth) levels here",
                variable: DocumentLimits.depthVariable, suggested: nil
            )
        }
    }
}
