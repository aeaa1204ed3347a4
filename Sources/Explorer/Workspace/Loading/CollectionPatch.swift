import Foundation
import Synchronization
import Yams

/// A large collection edited within one endpoint or environment, read again from that entry's
/// lines alone.
///
/// Saving a change to a collection of 10,000 endpoints would otherwise parse 9 MB of YAML for
/// one changed line. The last large parses this process made are kept (`remember`), and a new
/// text of the same file is compared with its: when everything that differs lies within one
/// entry of `endpoints:` (at any folder depth) or `environments:` in block style (from its `- `
/// line to the next line with text indented no deeper than the dash), only that entry is
/// composed and read, at its own lines, and put in the old parse's place; every place written
/// after it moves by the lines the entry gained or lost.
///
/// It gives up (and the file is parsed whole, which says what is wrong) whenever the result
/// might differ from a whole parse: a text with anchors, aliases or merge keys, or a line break
/// other than LF or CR LF; an entry that does not read alone, is no longer one endpoint (or
/// environment), has or had a warning, or takes another's address (or name); a text over the
/// size limit; a `requires:` that no longer holds. `CollectionPatchTests` holds the result to
/// a whole parse's on every kind of edit.
enum CollectionPatch {
    /// A parse to patch: the text it was made from and the `.env` values its environments hold.
    struct Base: Sendable {
        var path: String
        var text: String
        var dotEnv: [String: String]
        var parsed: ParsedCollection
    }

    /// The last large parses of this process, the newest last: a few files (the TUI has one
    /// open), each the text it last loaded.
    private static let kept = Mutex<[Base]>([])
    /// The most files kept.
    static let maximumKept = 4

    /// Keeps a parse of a large collection to patch the next load of the same file from.
    static func remember(_ base: Base) {
        guard base.parsed.patchable, base.text.utf8.count >= CollectionCache.minimumBytes else { return }
        kept.withLock { kept in
            kept.removeAll { $0.path == base.path }
            kept.append(base)
            if kept.count > maximumKept { kept.removeFirst() }
        }
    }

    /// The parse kept for a file, when its `.env` values are the same.
    static func base(path: String, dotEnv: [String: String]) -> Base? {
        kept.withLock { kept in kept.last { $0.path == path && $0.dotEnv == dotEnv } }
    }

    /// The parse of `text` from `base`'s, or `nil` when it must be parsed whole.
    static func patched(_ base: Base, text: String, limits: DocumentLimits = .current) -> ParsedCollection? {
        guard base.parsed.patchable, base.parsed.templateCounts.count == base.parsed.templateTexts.count,
            (try? limits.checkSize(text.utf8.count, file: base.path)) != nil
        else { return nil }
        var oldText = base.text
        var newText = text
        return oldText.withUTF8 { old in
            newText.withUTF8 { new in
                try? Edit(base: base, old: old, new: new, limits: limits).patch()
            }
        }
    }

    /// One patch: the two texts and where they differ.
    private struct Edit {
        let base: Base
        let old: UnsafeBufferPointer<UInt8>
        let new: UnsafeBufferPointer<UInt8>
        let limits: DocumentLimits

        /// Thrown where the patch gives up.
        struct GiveUp: Error {}

        func patch() throws -> ParsedCollection {
            // Where the texts start and stop differing.
            var prefix = 0
            let shorter = min(old.count, new.count)
            while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
            if prefix == old.count, prefix == new.count { return base.parsed }
            var suffix = 0
            while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }

            // The entry written last at or before the first changed line: an endpoint's or an
            // environment's. Lines are counted as libyaml counts them only when every break is
            // a line feed (or CR LF).
            let before = lines(in: old, 0..<prefix)
            guard !before.otherBreaks else { throw GiveUp() }
            let changedLine = 1 + before.feeds
            let collection = base.parsed.collection
            var walk = Walk(before: changedLine)
            walk.visit(collection.items, at: [], depth: 0)
            let environmentIndex = collection.environments.indices.last {
                (collection.environments[$0].location?.line ?? Int.max) <= changedLine
            }
            let entry: Entry
            let location: FileLocation
            if let index = environmentIndex, let place = collection.environments[index].location,
                place.line > walk.found?.endpoint.location?.line ?? 0
            {
                (entry, location) = (.environment(index), place)
            } else if let found = walk.found, let place = found.endpoint.location {
                (entry, location) = (.endpoint(found.endpoint, found.path), place)
            } else {
                throw GiveUp()
            }
            let startLine = location.line
            let start = try lineStart(line: startLine, near: prefix, changedLine: changedLine)
            guard prefix >= start, let indent = dashIndent(at: start, in: old, column: location.column),
                dashIndent(at: start, in: new, column: nil) == indent
            else { throw GiveUp() }
            let oldEnd = entryEnd(after: start, indent: indent, in: old)
            let newEnd = entryEnd(after: start, indent: indent, in: new)
            // The rest of both texts is the same and lies after the entry.
            guard old.count - oldEnd == new.count - newEnd, old.count - oldEnd <= suffix else { throw GiveUp() }
            let oldLines = lines(in: old, start..<oldEnd)
            let newLines = lines(in: new, start..<newEnd)
            guard !oldLines.otherBreaks, !newLines.otherBreaks else { throw GiveUp() }
            let oldEndLine = startLine + oldLines.feeds
            let newEndLine = startLine + newLines.feeds
            let shift = LineShift(from: oldEndLine, by: newEndLine - oldEndLine)
            guard !collection.warnings.contains(where: { (startLine..<oldEndLine).contains($0.location.line) }) else {
                throw GiveUp()
            }

            // The entry as it was, for the templates it held, and as it is.
            var folderDepth = 0
            if case .endpoint(let endpoint, _) = entry { folderDepth = endpoint.folderPath.count }
            let was = try compose(old, start..<oldEnd, line: startLine, folderDepth: folderDepth)
            let now = try compose(new, start..<newEnd, line: startLine, folderDepth: folderDepth)
            var reader = Reader(file: base.path)
            reader.source = now.text
            var patched = collection
            // Every environment after the entry moved (read back with its places moved).
            patched.environments = try collection.environments.map { environment in
                guard (environment.location?.line ?? 0) >= oldEndLine else { return environment }
                return try shift.apply(environment, userInfo: [.dotEnv: base.dotEnv])
            }
            switch entry {
            case .endpoint(let old, let path):
                let endpoint = try read(endpoint: now.root, replacing: old, reader: &reader, in: collection)
                patched.items = try CollectionPatch.replacing(
                    in: collection.items, at: path[...], with: endpoint, shift: shift)
            case .environment(let index):
                guard case .sequence(let sequence) = now.root, sequence.count == 1, let node = sequence.first else {
                    throw GiveUp()
                }
                let environment = try reader.environment(
                    node, collectionVariables: collection.variables, dotEnv: base.dotEnv,
                    allowsInsecureRedirects: collection.allowsInsecureRedirects, traces: collection.traces)
                // A name another environment has is a duplicate the whole parse names.
                guard reader.warnings.isEmpty,
                    !collection.environments.indices.contains(where: {
                        $0 != index && collection.environments[$0].name == environment.name
                    })
                else { throw GiveUp() }
                patched.environments[index] = environment
                patched.items = try collection.items.map { try shift.apply($0) }
            }
            patched.warnings = collection.warnings.map { warning in
                var warning = warning
                warning.location = shift.apply(warning.location)
                return warning
            }
            if let auth = collection.auth { patched.auth = try shift.apply(auth) }
            try reader.checkRequirements(in: patched.items)
            patched.sourceHasComments = try hasComments(
                old: collection.sourceHasComments, was: was.text, now: now.text)

            var parsed = ParsedCollection(collection: patched, templateTexts: [], patchable: true)
            (parsed.templateTexts, parsed.templateCounts) = CollectionPatch.templates(
                base.parsed, removing: was.composed, adding: now.composed)
            return parsed
        }

        /// The entry patched: an endpoint at its place in the tree, or an environment.
        private enum Entry {
            case endpoint(Endpoint, [Int])
            case environment(Int)
        }

        /// The endpoint an entry now holds, in the place of `old`.
        private func read(
            endpoint root: Node, replacing old: Endpoint, reader: inout Reader, in collection: APICollection
        )
            throws -> Endpoint
        {
            var seen: [String: Int] = [:]
            let read = try reader.items(root, folderPath: old.folderPath, seen: &seen)
            guard read.count == 1, case .endpoint(let endpoint) = read[0], reader.warnings.isEmpty else {
                throw GiveUp()
            }
            // A new address another endpoint has is a duplicate the whole parse names (an
            // address ends with the name: only those that end so are joined).
            if endpoint.name != old.name {
                let address = endpoint.id
                var taken = false
                collection.forEachEndpoint { other in
                    taken = taken || (address.hasSuffix(other.name) && other.id == address)
                }
                guard !taken else { throw GiveUp() }
            }
            return endpoint
        }

        /// Whether the new text has comments: the old text had none, or had one outside the entry.
        private func hasComments(old: Bool, was: String, now: String) throws -> Bool {
            if CollectionMerger.hasComments(now) { return true }
            if !old { return false }
            if !CollectionMerger.hasComments(was) { return true }
            return CollectionMerger.hasComments(String(decoding: new, as: UTF8.self))
        }

        /// Composes the lines `range` of `bytes` alone, at their own line numbers (blank lines
        /// before them), within the nesting they have left at their depth.
        private func compose(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int, folderDepth: Int)
            throws -> (text: String, root: Node, composed: EventComposer.Composed)
        {
            // The entry's mapping nests 3 deep at the top (the collection, `endpoints:`, the
            // entry), 2 more in each folder; alone it nests 2 deep (its sequence, itself).
            var entryLimits = limits
            entryLimits.maxDepth = limits.maxDepth - 1 - 2 * folderDepth
            guard entryLimits.maxDepth > 2 else { throw GiveUp() }
            let text =
                String(repeating: "\n", count: line - 1)
                + String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            let (root, composed) = try BoundedYAML.composeCollection(text, file: base.path, limits: entryLimits)
            guard let root, let composed, !composed.hasAnchors, !composed.hasAliases, !composed.hasMergeKeys else {
                throw GiveUp()
            }
            return (text, root, composed)
        }

        /// The byte offset of line `line`'s start, found back from `offset` on `changedLine`.
        private func lineStart(line: Int, near offset: Int, changedLine: Int) throws -> Int {
            var index = offset
            var lines = changedLine
            while true {
                while index > 0, old[index - 1] != UInt8(ascii: "\n") { index -= 1 }
                if lines == line { return index }
                guard index > 0 else { throw GiveUp() }
                index -= 1
                lines -= 1
            }
        }
    }

    /// The endpoint to patch: the one whose entry starts last at or before a line, with its
    /// place in the tree.
    private struct Walk {
        let before: Int
        var found: (endpoint: Endpoint, path: [Int])?

        mutating func visit(_ items: [CollectionItem], at path: [Int], depth: Int) {
            for index in items.indices {
                switch items[index] {
                case .folder(let folder): visit(folder.items, at: path + [index], depth: depth + 1)
                case .endpoint(let endpoint):
                    let line = endpoint.location?.line ?? 0
                    if line <= before, line > (found?.endpoint.location?.line ?? 0) {
                        found = (endpoint, path + [index])
                    }
                }
            }
        }
    }

    /// The tree with the endpoint at `path` replaced and every place after the old one moved.
    fileprivate static func replacing(
        in items: [CollectionItem], at path: ArraySlice<Int>, with endpoint: Endpoint, shift: LineShift
    ) throws -> [CollectionItem] {
        var items = items
        for index in items.indices {
            if index == path.first {
                if path.count == 1 {
                    items[index] = .endpoint(endpoint)
                } else if case .folder(var folder) = items[index] {
                    folder.items = try replacing(in: folder.items, at: path.dropFirst(), with: endpoint, shift: shift)
                    if let auth = folder.auth { folder.auth = try shift.apply(auth) }
                    items[index] = .folder(folder)
                }
                continue
            }
            items[index] = try shift.apply(items[index])
        }
        return items
    }

    /// The template texts and their counts with an entry's old ones taken out and its new ones
    /// put in; a text no longer written is dropped, a new one goes last.
    fileprivate static func templates(
        _ base: ParsedCollection, removing was: EventComposer.Composed, adding now: EventComposer.Composed
    ) -> ([String], [Int]) {
        var texts = base.templateTexts
        var counts = base.templateCounts
        var indexes = Dictionary(texts.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for (node, count) in zip(was.templateTexts, was.templateCounts) {
            guard let text = node.scalar?.string, let index = indexes[text] else { continue }
            counts[index] -= count
        }
        for (node, count) in zip(now.templateTexts, now.templateCounts) {
            guard let text = node.scalar?.string else { continue }
            if let index = indexes[text] {
                counts[index] += count
            } else {
                indexes[text] = texts.count
                texts.append(text)
                counts.append(count)
            }
        }
        let kept = counts.indices.filter { counts[$0] > 0 }
        return (kept.map { texts[$0] }, kept.map { counts[$0] })
    }
}

// MARK: - Lines

/// The line feeds in a range of bytes, and whether it has a line break YAML counts that is not
/// one (a CR alone, NEL, LS, PS), which would number the lines otherwise.
private func lines(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (feeds: Int, otherBreaks: Bool) {
    var feeds = 0
    var otherBreaks = false
    for index in range {
        switch bytes[index] {
        case UInt8(ascii: "\n"): feeds += 1
        case UInt8(ascii: "\r"):
            if index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n") { otherBreaks = true }
        case 0x85: if index > 0, bytes[index - 1] == 0xC2 { otherBreaks = true }
        case 0xA8, 0xA9:
            if index > 1, bytes[index - 1] == 0x80, bytes[index - 2] == 0xE2 { otherBreaks = true }
        default: break
        }
    }
    return (feeds, otherBreaks)
}

/// The indentation of a block sequence's dash on the line starting at `start` (spaces, `-`,
/// spaces), when the line starts so and, given a column (from 1), the entry's first key is there.
private func dashIndent(at start: Int, in bytes: UnsafeBufferPointer<UInt8>, column: Int?) -> Int? {
    var index = start
    while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    let indent = index - start
    guard index < bytes.count, bytes[index] == UInt8(ascii: "-") else { return nil }
    index += 1
    guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return nil }
    while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    if let column, index - start != column - 1 { return nil }
    return indent
}

/// Where the entry starting at `start` ends: the start of the first line after it that has
/// text (not only blanks, not a comment) indented no deeper than the dash, or the end.
private func entryEnd(after start: Int, indent: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var index = start
    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
    while index < bytes.count {
        let lineStart = index + 1
        var cursor = lineStart
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
        let spaces = cursor - lineStart
        while cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\t") || bytes[cursor] == UInt8(ascii: "\r") {
            cursor += 1
        }
        let blank = cursor >= bytes.count || bytes[cursor] == UInt8(ascii: "\n")
        let comment = !blank && bytes[cursor] == UInt8(ascii: "#")
        if !blank, !comment, spaces <= indent { return lineStart }
        index = cursor
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
    }
    return bytes.count
}

// MARK: - Moving places

/// Places at or after a line moved by a number of lines.
struct LineShift {
    /// The first line that moves.
    var from: Int
    /// How far (negative: up).
    var by: Int

    func apply(_ location: FileLocation) -> FileLocation {
        guard by != 0, location.line >= from else { return location }
        return FileLocation(file: location.file, line: location.line + by, column: location.column)
    }

    func apply(_ location: FileLocation?) -> FileLocation? { location.map { apply($0) } }

    /// A value whose places are written through `FileLocation`'s coding, moved: read back
    /// through it with the shift.
    func apply<T: Codable>(_ value: T, userInfo: [CodingUserInfoKey: Any] = [:]) throws -> T {
        guard by != 0 else { return value }
        return try CompactCoding.decode(
            T.self, from: CompactCoding.encode(value), userInfo: userInfo.merging([.lineShift: self]) { $1 })
    }

    /// An item after the patched entry, every place in it moved.
    func apply(_ item: CollectionItem) throws -> CollectionItem {
        guard by != 0 else { return item }
        switch item {
        case .folder(var folder):
            folder.items = try folder.items.map { try apply($0) }
            if let auth = folder.auth { folder.auth = try apply(auth) }
            return .folder(folder)
        case .endpoint(var endpoint):
            guard let line = endpoint.location?.line, line >= from else { return item }
            endpoint.location = apply(endpoint.location)
            endpoint.locations = endpoint.locations.mapValues { apply($0) }
            if !endpoint.disabled.isEmpty { endpoint.disabled = try apply(endpoint.disabled) }
            if !endpoint.captures.isEmpty { endpoint.captures = try apply(endpoint.captures) }
            if !endpoint.assertions.isEmpty { endpoint.assertions = try apply(endpoint.assertions) }
            if let retry = endpoint.retry { endpoint.retry = try apply(retry) }
            if !endpoint.requirements.isEmpty { endpoint.requirements = try apply(endpoint.requirements) }
            if let auth = endpoint.auth { endpoint.auth = try apply(auth) }
            if let graphql = endpoint.graphql { endpoint.graphql = try apply(graphql) }
            if let webSocket = endpoint.webSocket { endpoint.webSocket = try apply(webSocket) }
            if let grpc = endpoint.grpc { endpoint.grpc = try apply(grpc) }
            if case .multipart(let fields)? = endpoint.body { endpoint.body = .multipart(try apply(fields)) }
            return .endpoint(endpoint)
        }
    }
}

extension CodingUserInfoKey {
    /// A `LineShift` that `FileLocation`'s decoding applies.
    static let lineShift = CodingUserInfoKey(rawValue: "explorer.lineShift")!
}
