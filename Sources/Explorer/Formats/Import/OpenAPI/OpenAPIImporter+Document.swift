import Foundation
import NetworkingCore
import Workspace
import Yams

/// The document read as a tree of `JSONValue`s, within `DocumentLimits`, before anything is
/// read from it: YAML as the tools the documents are written with read it (YAML 1.2's core schema,
/// so `enum: [no]` stays text and `9223372036854775807` stays an exact integer), with what
/// libyaml refuses but those tools accept (control characters, Unicode line separators, tabs
/// in indentation) mended with a warning naming the line.
extension OpenAPIImporter {
    /// How many lines with a tab in their indentation are mended before the YAML is refused.
    static let maximumMendedLines = 200

    /// Reads a document's text as a tree.
    ///
    /// - Parameters:
    ///   - text: the document.
    ///   - path: the path shown in errors and warnings.
    ///   - limits: what the document may hold.
    ///   - warnings: where what was mended is told.
    /// - Throws: `ImportError.invalidOpenAPI` naming the line of a syntax error or of a limit.
    static func documentTree(_ text: String, path: String, limits: DocumentLimits, warnings: inout [String]) throws
        -> JSONValue
    {
        do {
            try limits.checkSize(text.utf8.count, file: path)
        } catch {
            throw ImportError.invalidOpenAPI(path: path, reason: "\(error.problem). \(error.advice)")
        }
        if text.drop(while: \.isWhitespace).first == "{" {
            do {
                return try JSONValue(parsing: text, maximumDepth: limits.maxDepth)
            } catch {
                // YAML in flow style (`{_type: export, …}`, as inso writes an export) starts the
                // same way: read as YAML when it is that, else refused as the JSON it looks like.
                var yamlWarnings: [String] = []
                if let tree = try? yamlTree(text, path: path, limits: limits, warnings: &yamlWarnings),
                    case .object = tree
                {
                    warnings += yamlWarnings
                    return tree
                }
                throw ImportError.invalidOpenAPI(path: path, reason: "it is not valid JSON: \(error)")
            }
        }
        return try yamlTree(text, path: path, limits: limits, warnings: &warnings)
    }

    /// Reads YAML as a tree, mending what libyaml refuses and YAML 1.2 tools accept.
    private static func yamlTree(_ text: String, path: String, limits: DocumentLimits, warnings: inout [String])
        throws -> JSONValue
    {
        var yaml = mendingCharacters(text, path: path, warnings: &warnings)
        var mended: [Int] = []
        var tabbedBlocks: [Int] = []
        while true {
            do {
                guard let root = try BoundedYAML.compose(yaml, file: path, resolver: .explorerFiles, limits: limits)
                else {
                    throw ImportError.invalidOpenAPI(path: path, reason: "the document is empty.")
                }
                if !mended.isEmpty {
                    warnings.append(
                        "\(path): a tab in the indentation of "
                            + "line\(mended.count == 1 ? "" : "s") \(listed(mended)) was read as spaces."
                    )
                }
                if !tabbedBlocks.isEmpty {
                    warnings.append(
                        "\(path): the tab that starts the block text of line\(tabbedBlocks.count == 1 ? "" : "s") "
                            + "\(listed(tabbedBlocks)) was read as text, as PyYAML reads it (libyaml refuses it)."
                    )
                }
                return JSONValue(coreYAML: root)
            } catch let error as DocumentLimitError {
                throw ImportError.invalidOpenAPI(
                    path: path, reason: "line \(error.line): \(error.problem). \(error.advice)")
            } catch let error as YamlError {
                if tabbedBlocks.count < maximumMendedLines,
                    let (line, fixed) = indentingBlockScalar(of: error, in: yaml)
                {
                    yaml = fixed
                    tabbedBlocks.append(line)
                    continue
                }
                if mended.count < maximumMendedLines, let line = tabLine(of: error),
                    let fixed = replacingIndentationTabs(in: yaml, line: line)
                {
                    yaml = fixed
                    mended.append(line)
                    continue
                }
                throw ImportError.invalidOpenAPI(
                    path: path,
                    reason: "it is not valid YAML: line \(error.line), column \(error.column): \(error.problem)")
            }
        }
    }

    /// Lines as `3, 7 and 12` (the first ten, then how many more).
    static func listed(_ lines: [Int]) -> String {
        let shown: [String] = lines.prefix(10).map { String($0) }
        if lines.count > 10 { return shown.joined(separator: ", ") + " and \(lines.count - 10) more" }
        guard let last = shown.last else { return "" }
        let rest: [String] = Array(shown.dropLast())
        return rest.isEmpty ? last : rest.joined(separator: ", ") + " and " + last
    }

    /// The text with what libyaml refuses and YAML 1.2 tools accept replaced: a control
    /// character by U+FFFD (visible, where libyaml stops the whole document), U+2028 and U+2029
    /// (line breaks to libyaml, text to YAML 1.2) by a space.
    static func mendingCharacters(_ text: String, path: String, warnings: inout [String]) -> String {
        func refused(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x85: return false
            case 0...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF: return true
            default: return false
            }
        }
        let isSeparator: (Unicode.Scalar) -> Bool = { $0.value == 0x2028 || $0.value == 0x2029 }
        guard text.unicodeScalars.contains(where: { refused($0) || isSeparator($0) }) else { return text }
        var out = String.UnicodeScalarView()
        var line = 1
        var controlLines: [Int] = []
        var separatorLines: [Int] = []
        for scalar in text.unicodeScalars {
            if scalar == "\n" { line += 1 }
            if refused(scalar) {
                if controlLines.last != line { controlLines.append(line) }
                out.append("\u{FFFD}")
            } else if isSeparator(scalar) {
                if separatorLines.last != line { separatorLines.append(line) }
                out.append(" ")
            } else {
                out.append(scalar)
            }
        }
        if !controlLines.isEmpty {
            warnings.append(
                "\(path): control characters on line\(controlLines.count == 1 ? "" : "s") \(listed(controlLines)) were "
                    + "read as U+FFFD (YAML does not allow them)."
            )
        }
        if !separatorLines.isEmpty {
            warnings.append(
                "\(path): Unicode line or paragraph separators on line\(separatorLines.count == 1 ? "" : "s") "
                    + "\(listed(separatorLines)) were read as spaces."
            )
        }
        return String(out)
    }

    /// The line of a libyaml error about a tab where indentation was expected.
    private static func tabLine(of error: YamlError) -> Int? {
        switch error {
        case .scanner(let context, let problem, let mark, _)
        where problem.contains("tab") || (context?.text.contains("tab") ?? false):
            return mark.line
        case .scanner(_, let problem, let mark, let yaml) where problem.contains("cannot start any token"):
            // A tab at the start of a line's content is "a character that cannot start any token".
            let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            guard mark.line >= 1, mark.line <= lines.count,
                lines[mark.line - 1].prefix(while: { $0 == " " || $0 == "\t" }).contains("\t")
            else { return nil }
            return mark.line
        default:
            return nil
        }
    }

    /// A block scalar (`|`, `>`) whose first line of text starts with a tab after its
    /// indentation: libyaml refuses it ("found a tab character where an indentation space is
    /// expected") where PyYAML reads the tab as the first character of the text, the
    /// indentation being the spaces before it. The same reading for libyaml: the header given
    /// that indentation explicitly (`|` becomes `|2`). Nil for any other error.
    ///
    /// - Returns: the line of the tab and the mended text.
    private static func indentingBlockScalar(of error: YamlError, in text: String) -> (Int, String)? {
        guard case .scanner(let context?, let problem, let mark, _) = error,
            context.text.contains("block scalar"), problem.contains("tab character")
        else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let headerIndex = context.mark.line - 1
        let tabIndex = mark.line - 1
        guard headerIndex >= 0, tabIndex > headerIndex, tabIndex < lines.count else { return nil }
        let tabLine = lines[tabIndex]
        let spaces = tabLine.prefix(while: { $0 == UInt8(ascii: " ") }).count
        guard spaces < tabLine.count, tabLine[spaces] == UInt8(ascii: "\t") else { return nil }
        // Only blank lines between the header and the tab: it is the scalar's first line of text.
        for index in (headerIndex + 1)..<tabIndex
        where lines[index].contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) {
            return nil
        }
        var header = lines[headerIndex]
        var at = context.mark.column - 1
        guard at >= 0, at < header.count, header[at] == UInt8(ascii: "|") || header[at] == UInt8(ascii: ">") else {
            return nil
        }
        at += 1
        while at < header.count, header[at] == UInt8(ascii: "-") || header[at] == UInt8(ascii: "+") { at += 1 }
        if at < header.count, header[at] >= UInt8(ascii: "0"), header[at] <= UInt8(ascii: "9") { return nil }
        // The block's own indentation: the key's column on the header line (past `- `), or the
        // last dash's when the scalar is an item of a sequence.
        var start = header.prefix(while: { $0 == UInt8(ascii: " ") }).count
        var parent = start
        while start + 1 < header.count, header[start] == UInt8(ascii: "-"), header[start + 1] == UInt8(ascii: " ") {
            parent = start
            start += 2
            while start < header.count, header[start] == UInt8(ascii: " ") { start += 1 }
        }
        if start != context.mark.column - 1 { parent = start }
        let increment = spaces - parent
        guard (1...9).contains(increment) else { return nil }
        header.insert(UInt8(ascii: "0") + UInt8(increment), at: at)
        lines[headerIndex] = header
        let mended = lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        return (mark.line, mended)
    }

    /// The text with the tabs of one line's indentation replaced by spaces: as many as the
    /// previous line's indentation when that is deeper (the line continues a block), else one
    /// per tab. Nil when the line has no tab in its indentation.
    private static func replacingIndentationTabs(in text: String, line: Int) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard line >= 1, line <= lines.count else { return nil }
        let current = lines[line - 1]
        let indentation = current.prefix(while: { $0 == " " || $0 == "\t" })
        guard indentation.contains("\t") else { return nil }
        var previous = 0
        for index in stride(from: line - 2, through: 0, by: -1)
        where !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
            previous = lines[index].prefix(while: { $0 == " " }).count
            break
        }
        let width = max(previous, indentation.count)
        lines[line - 1] = String(repeating: " ", count: width) + current.dropFirst(indentation.count)
        return lines.joined(separator: "\n")
    }
}

extension JSONValue {
    /// A YAML node read with YAML 1.2's core schema: quoted and block scalars are text; a plain
    /// scalar is null (`null`, `~`, nothing), a boolean (`true`, `false`), a number (as written
    /// when JSON writes it the same way) or text; mapping keys are text; `<<` merges a mapping.
    init(coreYAML node: Node) {
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain else {
                self = .string(scalar.string)
                return
            }
            self = Self.plain(scalar.string)
        case .sequence(let sequence):
            self = .array(sequence.map { JSONValue(coreYAML: $0) })
        case .mapping(let mapping):
            var members: [(key: String, value: JSONValue)] = []
            var merged: [(key: String, value: JSONValue)] = []
            for (key, value) in mapping {
                let name =
                    key.scalar?.string
                    ?? (try? Yams.serialize(node: key).trimmingCharacters(in: .whitespacesAndNewlines)) ?? ""
                if name == "<<", key.scalar?.style == .plain {
                    let sources: [Node] = if case .sequence(let list) = value { Array(list) } else { [value] }
                    for source in sources {
                        if case .object(let pairs) = JSONValue(coreYAML: source) { merged += pairs }
                    }
                } else {
                    members.append((name, JSONValue(coreYAML: value)))
                }
            }
            for pair in merged where !members.contains(where: { $0.key == pair.key }) { members.append(pair) }
            self = .object(members)
        case .alias:
            self = .null
        }
    }

    /// A plain scalar by YAML 1.2's core schema.
    private static func plain(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        guard let first = text.utf8.first,
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        else { return .string(text) }
        if isJSONNumber(text) { return .number(text) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .number(String(value)) }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .number(String(value)) }
        if text.hasPrefix("+"), isJSONNumber(String(text.dropFirst())) { return .number(String(text.dropFirst())) }
        // `.5`, `1.`, `1.5E3`: YAML floats JSON writes differently.
        let numeric = text.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || "+-.eE".utf8.contains($0)
        }
        if numeric, let value = Double(text), value.isFinite { return .number(String(value)) }
        return .string(text)
    }

    /// Whether `text` is a number as JSON writes one.
    private static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
