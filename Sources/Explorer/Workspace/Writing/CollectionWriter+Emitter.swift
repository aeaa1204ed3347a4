import Yams

/// Writes a YAML document tree as text, byte for byte as `Yams.serialize` writes it with the
/// options `CollectionWriter.yaml(of:)` gives (indent 2, no line width, Unicode kept).
///
/// Yams turns each node into an event for libyaml, which analyses every scalar and writes
/// through its own buffer; the text is then decoded into a `String`. For a large import that
/// was a fifth of the command's time. This writes the same text in one pass over the tree,
/// following libyaml's rules: the style a scalar gets (plain, single- or double-quoted, from
/// what its characters allow where it stands), the escapes of a double-quoted scalar, the
/// line breaks of a single-quoted one, indentation, the flow form of empty collections and
/// the `? ` form of keys that are long or span lines.
///
/// It covers the trees the collection writer makes. A tree it does not cover (an anchor or
/// an alias, a literal or folded scalar, a collection with a tag that would be written)
/// gives `nil`, and Yams writes that tree.
struct CollectionYAMLEmitter {
    private var out: [UInt8] = []
    /// The column the next character goes to, in characters.
    private var column = 0
    /// Whether the last thing written was whitespace (an indentation or an opening bracket).
    private var whitespace = true
    /// Whether only indentation (and `- ` or `? ` indicators) is on the line so far.
    private var indention = true
    /// The current indentation; -1 before the root.
    private var indent = -1
    /// How many flow collections (`[…]`, `{…}`) the current node is inside.
    private var flowLevel = 0

    /// The tree as YAML text, or `nil` when it holds what this emitter does not write.
    static func text(of node: Node) -> String? {
        var emitter = CollectionYAMLEmitter()
        emitter.out.reserveCapacity(1 << 16)
        guard emitter.emit(node, mapping: false, simpleKey: false) else { return nil }
        emitter.writeIndent()  // The document's end: a line break after the last line.
        return String(decoding: emitter.out, as: UTF8.self)
    }

    // MARK: - Nodes

    private mutating func emit(_ node: Node, mapping inMapping: Bool, simpleKey: Bool) -> Bool {
        switch node {
        case .scalar(let scalar):
            guard scalar.anchor == nil else { return false }
            return emitScalar(scalar, simpleKey: simpleKey)
        case .sequence(let sequence):
            guard sequence.anchor == nil, Self.tagIsImplicit(sequence.tag, "tag:yaml.org,2002:seq") else {
                return false
            }
            if flowLevel > 0 || sequence.style == .flow || sequence.isEmpty { return emitFlowSequence(sequence) }
            return emitBlockSequence(sequence, inMapping: inMapping)
        case .mapping(let mapping):
            guard mapping.anchor == nil, Self.tagIsImplicit(mapping.tag, "tag:yaml.org,2002:map") else {
                return false
            }
            if flowLevel > 0 || mapping.style == .flow || mapping.isEmpty { return emitFlowMapping(mapping) }
            return emitBlockMapping(mapping)
        case .alias:
            return false
        }
    }

    /// Whether Yams leaves a collection's tag unwritten: none, `!`, or the default one.
    private static func tagIsImplicit(_ tag: Tag, _ defaultName: String) -> Bool {
        let name = tag.description
        return name.isEmpty || name == "!" || name == defaultName
    }

    private mutating func emitBlockSequence(_ sequence: Node.Sequence, inMapping: Bool) -> Bool {
        let saved = indent
        // A sequence that is a mapping's value starts at the key's column (`key:\n- item`).
        if indent < 0 {
            indent = 0
        } else if !(inMapping && !indention) {
            indent += 2
        }
        for item in sequence {
            writeIndent()
            writeIndicator(UInt8(ascii: "-"), needsWhitespace: true, isWhitespace: false, isIndention: true)
            guard emit(item, mapping: false, simpleKey: false) else { return false }
        }
        indent = saved
        return true
    }

    private mutating func emitFlowSequence(_ sequence: Node.Sequence) -> Bool {
        writeIndicator(UInt8(ascii: "["), needsWhitespace: true, isWhitespace: true, isIndention: false)
        let saved = indent
        indent = indent < 0 ? 2 : indent + 2
        flowLevel += 1
        var first = true
        for item in sequence {
            if !first {
                writeIndicator(UInt8(ascii: ","), needsWhitespace: false, isWhitespace: false, isIndention: false)
            }
            first = false
            guard emit(item, mapping: false, simpleKey: false) else { return false }
        }
        flowLevel -= 1
        indent = saved
        writeIndicator(UInt8(ascii: "]"), needsWhitespace: false, isWhitespace: false, isIndention: false)
        return true
    }

    private mutating func emitBlockMapping(_ mapping: Node.Mapping) -> Bool {
        let saved = indent
        indent = indent < 0 ? 0 : indent + 2
        for (key, value) in mapping {
            writeIndent()
            if Self.isSimpleKey(key) {
                guard emit(key, mapping: true, simpleKey: true) else { return false }
                writeIndicator(UInt8(ascii: ":"), needsWhitespace: false, isWhitespace: false, isIndention: false)
            } else {
                writeIndicator(UInt8(ascii: "?"), needsWhitespace: true, isWhitespace: false, isIndention: true)
                guard emit(key, mapping: true, simpleKey: false) else { return false }
                writeIndent()
                writeIndicator(UInt8(ascii: ":"), needsWhitespace: true, isWhitespace: false, isIndention: true)
            }
            guard emit(value, mapping: true, simpleKey: false) else { return false }
        }
        indent = saved
        return true
    }

    private mutating func emitFlowMapping(_ mapping: Node.Mapping) -> Bool {
        writeIndicator(UInt8(ascii: "{"), needsWhitespace: true, isWhitespace: true, isIndention: false)
        let saved = indent
        indent = indent < 0 ? 2 : indent + 2
        flowLevel += 1
        var first = true
        for (key, value) in mapping {
            if !first {
                writeIndicator(UInt8(ascii: ","), needsWhitespace: false, isWhitespace: false, isIndention: false)
            }
            first = false
            if Self.isSimpleKey(key) {
                guard emit(key, mapping: true, simpleKey: true) else { return false }
                writeIndicator(UInt8(ascii: ":"), needsWhitespace: false, isWhitespace: false, isIndention: false)
            } else {
                writeIndicator(UInt8(ascii: "?"), needsWhitespace: true, isWhitespace: false, isIndention: false)
                guard emit(key, mapping: true, simpleKey: false) else { return false }
                writeIndicator(UInt8(ascii: ":"), needsWhitespace: true, isWhitespace: false, isIndention: false)
            }
            guard emit(value, mapping: true, simpleKey: false) else { return false }
        }
        flowLevel -= 1
        indent = saved
        writeIndicator(UInt8(ascii: "}"), needsWhitespace: false, isWhitespace: false, isIndention: false)
        return true
    }

    /// Whether a key is written as `key: value` rather than `? key\n: value`: a scalar on one
    /// line of at most 128 bytes, or an empty collection.
    private static func isSimpleKey(_ key: Node) -> Bool {
        switch key {
        case .scalar(let scalar):
            var text = scalar.string
            return text.withUTF8 { $0.count <= 128 && !ScalarAnalysis.containsBreak($0) }
        case .sequence(let sequence): return sequence.isEmpty
        case .mapping(let mapping): return mapping.isEmpty
        case .alias: return false
        }
    }

    // MARK: - Scalars

    private enum Style { case plain, singleQuoted, doubleQuoted }

    private mutating func emitScalar(_ scalar: Node.Scalar, simpleKey: Bool) -> Bool {
        var requested: Style
        switch scalar.style {
        case .any, .plain: requested = .plain
        case .singleQuoted: requested = .singleQuoted
        case .doubleQuoted: requested = .doubleQuoted
        case .literal, .folded: return false
        }
        var text = scalar.string
        text.withUTF8 { bytes in
            let analysis = ScalarAnalysis(bytes)
            if simpleKey && analysis.multiline { requested = .doubleQuoted }
            if requested == .plain {
                if (flowLevel > 0 && !analysis.flowPlainAllowed) || (flowLevel == 0 && !analysis.blockPlainAllowed)
                    || (bytes.isEmpty && (flowLevel > 0 || simpleKey))
                {
                    requested = .singleQuoted
                }
            }
            if requested == .singleQuoted && !analysis.singleQuotedAllowed { requested = .doubleQuoted }
            let saved = indent
            indent = indent < 0 ? 2 : indent + 2
            switch requested {
            case .plain: writePlain(bytes)
            case .singleQuoted: writeSingleQuoted(bytes)
            case .doubleQuoted: writeDoubleQuoted(bytes)
            }
            indent = saved
        }
        return true
    }

    private mutating func writePlain(_ bytes: UnsafeBufferPointer<UInt8>) {
        if !whitespace && (!bytes.isEmpty || flowLevel > 0) { put(UInt8(ascii: " ")) }
        out.append(contentsOf: bytes)
        column += Self.characterCount(bytes)
        whitespace = false
        indention = false
    }

    private mutating func writeSingleQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        writeIndicator(UInt8(ascii: "'"), needsWhitespace: true, isWhitespace: false, isIndention: false)
        var breaks = false
        var index = 0
        while index < bytes.count {
            let width = ScalarAnalysis.width(bytes[index])
            if bytes[index] == UInt8(ascii: " ") {
                out.append(UInt8(ascii: " "))
                column += 1
            } else if let breakWidth = ScalarAnalysis.breakWidth(bytes, index) {
                if !breaks && bytes[index] == UInt8(ascii: "\n") { putBreak() }
                if bytes[index] == UInt8(ascii: "\n") {
                    putBreak()
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + breakWidth]))
                    column = 0
                }
                indention = true
                breaks = true
            } else {
                if breaks { writeIndent() }
                if bytes[index] == UInt8(ascii: "'") { put(UInt8(ascii: "'")) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + width]))
                column += 1
                indention = false
                breaks = false
            }
            index += width
        }
        if breaks { writeIndent() }
        writeIndicator(UInt8(ascii: "'"), needsWhitespace: false, isWhitespace: false, isIndention: false)
        whitespace = false
        indention = false
    }

    private mutating func writeDoubleQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        writeIndicator(UInt8(ascii: "\""), needsWhitespace: true, isWhitespace: false, isIndention: false)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let width = ScalarAnalysis.width(byte)
            let escaped =
                !ScalarAnalysis.isPrintable(bytes, index) || ScalarAnalysis.breakWidth(bytes, index) != nil
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            guard escaped else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + width]))
                column += 1
                index += width
                continue
            }
            var value = UInt32(
                width == 1 ? byte & 0x7F : width == 2 ? byte & 0x1F : width == 3 ? byte & 0x0F : byte & 0x07)
            for offset in 1..<max(width, 1) { value = (value << 6) + UInt32(bytes[index + offset] & 0x3F) }
            index += width
            put(UInt8(ascii: "\\"))
            if let short = Self.shortEscapes[value] {
                put(short)
                continue
            }
            let digits = value <= 0xFF ? 2 : value <= 0xFFFF ? 4 : 8
            put(digits == 2 ? UInt8(ascii: "x") : digits == 4 ? UInt8(ascii: "u") : UInt8(ascii: "U"))
            for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                let digit = UInt8((value >> UInt32(shift)) & 0x0F)
                put(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
            }
        }
        writeIndicator(UInt8(ascii: "\""), needsWhitespace: false, isWhitespace: false, isIndention: false)
        whitespace = false
        indention = false
    }

    /// The escapes libyaml writes with one letter after the backslash.
    private static let shortEscapes: [UInt32: UInt8] = [
        0x00: UInt8(ascii: "0"), 0x07: UInt8(ascii: "a"), 0x08: UInt8(ascii: "b"), 0x09: UInt8(ascii: "t"),
        0x0A: UInt8(ascii: "n"), 0x0B: UInt8(ascii: "v"), 0x0C: UInt8(ascii: "f"), 0x0D: UInt8(ascii: "r"),
        0x1B: UInt8(ascii: "e"), 0x22: UInt8(ascii: "\""), 0x5C: UInt8(ascii: "\\"), 0x85: UInt8(ascii: "N"),
        0xA0: UInt8(ascii: "_"), 0x2028: UInt8(ascii: "L"), 0x2029: UInt8(ascii: "P"),
    ]

    private static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    // MARK: - Writing

    private mutating func put(_ byte: UInt8) {
        out.append(byte)
        column += 1
    }

    private mutating func putBreak() {
        out.append(UInt8(ascii: "\n"))
        column = 0
    }

    private mutating func writeIndent() {
        let target = max(indent, 0)
        if !indention || column > target || (column == target && !whitespace) { putBreak() }
        while column < target { put(UInt8(ascii: " ")) }
        whitespace = true
        indention = true
    }

    private mutating func writeIndicator(
        _ indicator: UInt8, needsWhitespace: Bool, isWhitespace: Bool, isIndention: Bool
    ) {
        if needsWhitespace && !whitespace { put(UInt8(ascii: " ")) }
        put(indicator)
        whitespace = isWhitespace
        indention = indention && isIndention
    }
}

/// What libyaml's emitter finds in a scalar's text before it picks the scalar's style.
private struct ScalarAnalysis {
    var multiline = false
    var flowPlainAllowed = true
    var blockPlainAllowed = true
    var singleQuotedAllowed = true

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else {
            flowPlainAllowed = false
            return
        }
        // Most texts (names, paths, identifiers) hold nothing any rule looks at: every style
        // is allowed.
        if Self.isPlainEverywhere(bytes) { return }
        var blockIndicators = false
        var flowIndicators = false
        var lineBreaks = false
        var specialCharacters = false
        var leadingSpace = false
        var leadingBreak = false
        var trailingSpace = false
        var trailingBreak = false
        var breakSpace = false
        var spaceBreak = false
        var previousSpace = false
        var previousBreak = false
        if bytes.count >= 3,
            (bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-") && bytes[2] == UInt8(ascii: "-"))
                || (bytes[0] == UInt8(ascii: ".") && bytes[1] == UInt8(ascii: ".") && bytes[2] == UInt8(ascii: "."))
        {
            blockIndicators = true
            flowIndicators = true
        }
        var precededByWhitespace = true
        var followedByWhitespace = Self.isBlankOrEnd(bytes, Self.width(bytes[0]))
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let width = Self.width(byte)
            if index == 0 {
                switch byte {
                case UInt8(ascii: "#"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
                    UInt8(ascii: "}"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"),
                    UInt8(ascii: ">"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"),
                    UInt8(ascii: "`"):
                    flowIndicators = true
                    blockIndicators = true
                case UInt8(ascii: "?"), UInt8(ascii: ":"):
                    flowIndicators = true
                    if followedByWhitespace { blockIndicators = true }
                case UInt8(ascii: "-"):
                    if followedByWhitespace {
                        flowIndicators = true
                        blockIndicators = true
                    }
                default: break
                }
            } else {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
                    UInt8(ascii: "}"):
                    flowIndicators = true
                case UInt8(ascii: ":"):
                    flowIndicators = true
                    if followedByWhitespace { blockIndicators = true }
                case UInt8(ascii: "#"):
                    if precededByWhitespace {
                        flowIndicators = true
                        blockIndicators = true
                    }
                default: break
                }
            }
            if !Self.isPrintable(bytes, index) { specialCharacters = true }
            let isBreak = Self.breakWidth(bytes, index) != nil
            if isBreak { lineBreaks = true }
            if byte == UInt8(ascii: " ") {
                if index == 0 { leadingSpace = true }
                if index + width == bytes.count { trailingSpace = true }
                if previousBreak { breakSpace = true }
                previousSpace = true
                previousBreak = false
            } else if isBreak {
                if index == 0 { leadingBreak = true }
                if index + width == bytes.count { trailingBreak = true }
                if previousSpace { spaceBreak = true }
                previousSpace = false
                previousBreak = true
            } else {
                previousSpace = false
                previousBreak = false
            }
            precededByWhitespace = Self.isBlankOrEnd(bytes, index)
            index += width
            if index < bytes.count { followedByWhitespace = Self.isBlankOrEnd(bytes, index + Self.width(bytes[index])) }
        }
        multiline = lineBreaks
        if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks {
            flowPlainAllowed = false
            blockPlainAllowed = false
        }
        if breakSpace || spaceBreak || specialCharacters {
            flowPlainAllowed = false
            blockPlainAllowed = false
            singleQuotedAllowed = false
        }
        if flowIndicators { flowPlainAllowed = false }
        if blockIndicators { blockPlainAllowed = false }
    }

    /// Whether a text starts with a letter, a digit, `_`, `/` or `$`, ends with no space, and
    /// holds nothing but those, spaces, `.`, `-`, `(`, `)`, `=`, `+`, `~`, `;` and `<`: none is an
    /// indicator where it stands, a line break, or a character written escaped.
    static func isPlainEverywhere(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last, last != UInt8(ascii: " "),
            safeFirst[Int(first)]
        else { return false }
        for byte in bytes where !safeInside[Int(byte)] { return false }
        return true
    }

    private static let safeFirst: [Bool] = (0..<256).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "_/$".unicodeScalars.contains(scalar)
    }

    private static let safeInside: [Bool] = (0..<256).map { byte in
        safeFirst[byte] || " .-()=+~;<".unicodeScalars.contains(Unicode.Scalar(UInt8(byte)))
    }

    /// The bytes of the UTF-8 character a lead byte starts.
    static func width(_ byte: UInt8) -> Int {
        byte & 0x80 == 0 ? 1 : byte & 0xE0 == 0xC0 ? 2 : byte & 0xF0 == 0xE0 ? 3 : byte & 0xF8 == 0xF0 ? 4 : 1
    }

    /// The width of the line break at `index` (`\r`, `\n`, U+0085, U+2028, U+2029), or `nil`.
    static func breakWidth(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
        switch bytes[index] {
        case UInt8(ascii: "\r"), UInt8(ascii: "\n"): return 1
        case 0xC2: return index + 1 < bytes.count && bytes[index + 1] == 0x85 ? 2 : nil
        case 0xE2:
            return index + 2 < bytes.count && bytes[index + 1] == 0x80
                && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9) ? 3 : nil
        default: return nil
        }
    }

    static func containsBreak(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || byte == 0xC2 || byte == 0xE2,
                breakWidth(bytes, index) != nil
            {
                return true
            }
            index += width(byte)
        }
        return false
    }

    /// A blank, a line break, a NUL or the text's end at `index` (libyaml's `IS_BLANKZ`: the
    /// text it reads ends with a NUL).
    static func isBlankOrEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        guard index < bytes.count else { return true }
        let byte = bytes[index]
        return byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == 0 || breakWidth(bytes, index) != nil
    }

    /// Whether libyaml writes the character at `index` as it is in a double-quoted scalar
    /// (besides `"` and `\`): line feeds, printable ASCII, and the Unicode of the basic
    /// multilingual plane but surrogates, U+0080–U+009F, U+FEFF, U+FFFE and U+FFFF.
    static func isPrintable(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        let byte = bytes[index]
        switch byte {
        case 0x0A, 0x20...0x7E, 0xC3...0xEC, 0xEE: return true
        case 0xC2: return bytes[index + 1] >= 0xA0
        case 0xED: return bytes[index + 1] < 0xA0
        case 0xEF:
            let second = bytes[index + 1]
            let third = bytes[index + 2]
            return !(second == 0xBB && third == 0xBF) && !(second == 0xBF && (third == 0xBE || third == 0xBF))
        default: return false
        }
    }
}
