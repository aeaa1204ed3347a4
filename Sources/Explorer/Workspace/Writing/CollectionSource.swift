import NetworkingCore
import Yams

/// A collection file's text, changed one endpoint at a time so that everything else stays as
/// the user wrote it: comments, blank lines, quoting, key order, anchors elsewhere.
///
/// An endpoint's lines are found from the marks of the YAML's nodes: an entry of a block list
/// (`- name: …`) starts at its dash and ends where the next entry, or anything less indented,
/// begins; the comment lines right above it at its indentation belong to it. A new entry is
/// written by `CollectionWriter` at the list's indentation. Whatever this cannot place (a flow
/// list `[…]`, an empty list) makes the change return `false`, and the caller rewrites the file;
/// callers also check the result with `holds(_:)` before writing it.
package struct CollectionSource: Sendable {
    /// The file's text as changed so far.
    package private(set) var text: String

    /// Starts from a file's text.
    package init(_ text: String) {
        self.text = text
    }

    /// Whether the text reads back as exactly `collection` (its endpoint tree, environments
    /// and variables): the check before the text replaces a file.
    package func holds(_ collection: APICollection) -> Bool {
        guard let read = try? CollectionLoader.parse(text) else { return false }
        return read.items == collection.items && read.variables == collection.variables
            && read.environments.map(\.name) == collection.environments.map(\.name)
            && read.openAPI == collection.openAPI
    }

    /// Adds a top-level `key: value` the file does not have yet, on the line after `name:`
    /// (or first, when there is no `name:` at the top), the value double-quoted when YAML
    /// would read it otherwise.
    ///
    /// - Returns: false when the key is there already or the text is not a mapping.
    @discardableResult
    package mutating func addTopLevel(_ key: String, _ value: String) -> Bool {
        guard let root = try? Yams.compose(yaml: text, .explorerFiles), let mapping = root.mapping, mapping[key] == nil
        else { return false }
        var lines = self.lines
        let nameLine = mapping.first { $0.key.string == "name" }.flatMap { $0.key.mark?.line }
        let plain =
            value.range(of: #"^[A-Za-z0-9_./][A-Za-z0-9_./ -]*$"#, options: .regularExpression) != nil
            && !value.hasSuffix(" ")
        let written = plain ? value : JSONValue.string(value).serialized()
        let position = nameLine.map { min($0, lines.count) } ?? 0
        lines.insert("\(key): \(written)", at: position)
        text = lines.joined(separator: "\n")
        return true
    }

    /// Removes an endpoint's lines, with the comment lines right above it.
    ///
    /// - Returns: false when the endpoint's lines cannot be found.
    @discardableResult
    package mutating func remove(endpointWithID id: String) -> Bool {
        guard let (list, index) = locate(id) else { return false }
        var lines = self.lines
        lines.removeSubrange(list.leadStart(of: index, in: lines)..<list.end(of: index, in: lines))
        text = lines.joined(separator: "\n")
        return true
    }

    /// Replaces an endpoint's lines with `endpoint` as `CollectionWriter` writes it, keeping
    /// the comments above it; when its folder changed, it moves to the end of its new folder.
    ///
    /// - Returns: false when the endpoint's lines cannot be found.
    @discardableResult
    package mutating func replace(endpointWithID id: String, with endpoint: Endpoint) -> Bool {
        guard let (list, index) = locate(id) else { return false }
        guard list.folderPath == endpoint.folderPath else {
            return remove(endpointWithID: id) && insert(endpoint)
        }
        var lines = self.lines
        let start = list.itemLines[index]
        lines.replaceSubrange(
            start..<list.end(of: index, in: lines), with: Self.lines(for: .endpoint(endpoint), indent: list.indent))
        text = lines.joined(separator: "\n")
        return true
    }

    /// Inserts an endpoint into the folder its `folderPath` names, at `index` among the
    /// folder's entries (the end when nil or beyond); a folder that is missing is added at the
    /// end of the deepest one there is.
    ///
    /// - Returns: false when the list it goes into cannot be placed in the text.
    @discardableResult
    package mutating func insert(_ endpoint: Endpoint, at index: Int? = nil) -> Bool {
        guard let root = try? Yams.compose(yaml: text, .explorerFiles) else { return false }
        var path = endpoint.folderPath[...]
        var folders: [String] = []
        let lines = self.lines
        guard var list = BlockList(root.mapping?["endpoints"], folderPath: [], in: lines) else { return false }
        while let name = path.first, let folder = list.folder(named: name),
            let inner = BlockList(folder.mapping?["endpoints"], folderPath: folders + [name], in: lines)
        {
            folders.append(name)
            list = inner
            path = path.dropFirst()
        }
        var item = CollectionItem.endpoint(endpoint)
        var position = index
        for name in path.reversed() {
            item = .folder(Folder(name: name, items: [item]))
            position = nil
        }
        var edited = lines
        let line =
            if let position, position < list.itemLines.count {
                list.leadStart(of: max(0, position), in: lines)
            } else {
                list.end(of: list.itemLines.count - 1, in: lines)
            }
        edited.insert(contentsOf: Self.lines(for: item, indent: list.indent), at: line)
        text = edited.joined(separator: "\n")
        return true
    }

    private var lines: [String] { text.components(separatedBy: "\n") }

    /// The list an endpoint is in and its index there.
    private func locate(_ id: String) -> (BlockList, Int)? {
        let lines = self.lines
        guard let root = try? Yams.compose(yaml: text, .explorerFiles),
            var list = BlockList(root.mapping?["endpoints"], folderPath: [], in: lines)
        else { return nil }
        var parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)[...]
        // Folder names may hold a "/": try the longest folder prefix first, as the loader's ids do.
        while parts.count > 1 {
            if let index = list.endpointIndex(named: parts.joined(separator: "/")) { return (list, index) }
            guard let name = parts.first, let folder = list.folder(named: name),
                let inner = BlockList(folder.mapping?["endpoints"], folderPath: list.folderPath + [name], in: lines)
            else { return nil }
            list = inner
            parts = parts.dropFirst()
        }
        return list.endpointIndex(named: parts.joined(separator: "/")).map { (list, $0) }
    }

    /// An entry as `CollectionWriter` writes it, each line indented to a list's dashes.
    private static func lines(for item: CollectionItem, indent: Int) -> [String] {
        guard
            let written = try? Yams.serialize(
                node: Node([CollectionWriter.itemNode(item)], .implicit), indent: 2, width: -1, allowUnicode: true)
        else { return [] }
        let pad = String(repeating: " ", count: indent)
        return written.components(separatedBy: "\n").filter { !$0.isEmpty }.map { pad + $0 }
    }
}

/// A block list of endpoints and folders in the text: its entries' nodes, the line each
/// starts on (0-based) and the column of their dashes.
private struct BlockList {
    var folderPath: [String]
    var items: [Node]
    var itemLines: [Int]
    var indent: Int

    init?(_ node: Node?, folderPath: [String], in text: [String]) {
        guard let sequence = node?.sequence, !sequence.isEmpty else { return nil }
        var lines: [Int] = []
        var indent: Int?
        for item in sequence {
            // libyaml marks a block mapping in a list at its first key: the dash is two
            // columns before it, on the same line, with only spaces before it (`- name: …`).
            // Anything else (a flow list, `-   name`) is not placed here.
            guard item.mapping != nil, let mark = item.mark, mark.column >= 3, text.indices.contains(mark.line - 1)
            else { return nil }
            let dash = mark.column - 3
            let line = Array(text[mark.line - 1].unicodeScalars.prefix(dash + 2))
            guard line.count == dash + 2, line[dash] == "-", line[dash + 1] == " ",
                line[..<dash].allSatisfy({ $0 == " " })
            else { return nil }
            if let indent, indent != dash { return nil }
            indent = dash
            lines.append(mark.line - 1)
        }
        self.folderPath = folderPath
        self.items = Array(sequence)
        self.itemLines = lines
        self.indent = indent ?? 0
    }

    func folder(named name: String) -> Node? {
        items.first { $0.mapping?["folder"]?.string == name }
    }

    func endpointIndex(named name: String) -> Int? {
        items.firstIndex { $0.mapping?["folder"] == nil && $0.mapping?["name"]?.string == name }
    }

    /// Where an entry's lines start: its dash line, or the comment lines right above it at
    /// the same indentation.
    func leadStart(of index: Int, in lines: [String]) -> Int {
        var start = itemLines[index]
        while start > 0, Self.isComment(lines[start - 1], at: indent) { start -= 1 }
        return start
    }

    /// The line after an entry's last line: before the next entry's leading comments, or
    /// before the first line less indented than its content; blank lines at its end are left.
    func end(of index: Int, in lines: [String]) -> Int {
        var end: Int
        if index + 1 < itemLines.count {
            end = leadStart(of: index + 1, in: lines)
        } else {
            end = itemLines[index] + 1
            while end < lines.count {
                let line = lines[end]
                let trimmed = line.drop { $0 == " " }
                let column = line.count - trimmed.count
                if !trimmed.isEmpty, column <= indent,
                    !(trimmed.hasPrefix("#") && column == indent && Self.continues(lines, after: end, indent: indent))
                {
                    break
                }
                end += 1
            }
            // Comments at the dashes' indentation at the end belong to what follows.
            while end > itemLines[index] + 1, Self.isComment(lines[end - 1], at: indent) { end -= 1 }
        }
        while end > itemLines[index] + 1, lines[end - 1].allSatisfy({ $0 == " " }) { end -= 1 }
        return end
    }

    private static func isComment(_ line: String, at indent: Int) -> Bool {
        let trimmed = line.drop { $0 == " " }
        return trimmed.hasPrefix("#") && line.count - trimmed.count == indent
    }

    /// Whether, after comment lines, the entry's content goes on (a line more indented).
    private static func continues(_ lines: [String], after index: Int, indent: Int) -> Bool {
        for line in lines[(index + 1)...] {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            return line.count - trimmed.count > indent
        }
        return false
    }
}
