import CYaml
import Yams

/// Composes a collection's YAML into Yams' nodes straight from libyaml's events, for a
/// document that reads without a problem; anything else is left to Yams' own composer, which
/// gives its errors as they have always been worded.
///
/// Yams' composer allocates an event object and a tag per node, decodes every scalar through
/// Foundation and checks each mapping's keys for duplicates by hashing whole nodes: most of
/// what composing a large collection cost. Here the tags without a name of their own are
/// shared (`!!str` for every scalar, as Yams resolves them under `Resolver.explorerFiles`;
/// `!!map` and `!!seq`), scalars are decoded from their bytes, and duplicate keys are found by
/// their text. The texts that may name a template (`{{`) are gathered on the way, so what the
/// collection reaches is read from them rather than from a second walk of the tree.
enum EventComposer {
    /// A composed document.
    struct Composed {
        /// The root node, or nil for an empty document.
        var root: Node?
        /// Every distinct text with `{{`, keys and values, in document order of their first
        /// appearance (an imported API repeats the same `{{env.API_KEY}}` in each endpoint).
        var templateTexts: [Node] = []
        /// How many times each of `templateTexts` is written, in the same order.
        var templateCounts: [Int] = []
        /// Whether a mapping has a `<<` key (a merge to apply).
        var hasMergeKeys = false
        /// Whether the document has an alias.
        var hasAliases = false
        /// Whether the document names a node with an anchor.
        var hasAnchors = false
        /// How deep its mappings and sequences nest (the root's is 1, as `BoundedYAML` counts).
        var depth = 0
    }

    /// Why the fast path gave up: the text goes to Yams' composer, which says what is wrong or
    /// composes what is unusual (a key that is not text, a tag on a key).
    struct Unusual: Error {}

    /// The tags of nodes written without one. Never renamed: Yams resolves a tag in place only
    /// while its name is implicit or `!`, so sharing these across threads is safe.
    private enum SharedTag {
        nonisolated(unsafe) static let text = Tag(.str, .explorerFiles, .default)
        nonisolated(unsafe) static let mapping = Tag(.map, .explorerFiles, .default)
        nonisolated(unsafe) static let sequence = Tag(.seq, .explorerFiles, .default)
    }

    /// Composes `text`, one document.
    ///
    /// - Returns: the document, or nil when Yams' composer must read it (not YAML, more than
    ///   one document, a duplicate or non-text key, an undefined alias).
    static func compose(_ text: String) -> Composed? {
        var text = text
        return text.withUTF8 { bytes -> Composed? in
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
            defer {
                parser.deallocate()
                event.deallocate()
            }
            guard yaml_parser_initialize(parser) == 1 else { return nil }
            defer { yaml_parser_delete(parser) }
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
            var composer = Composer(parser: parser, event: event)
            defer { composer.release() }
            return try? composer.document()
        }
    }

    /// Reads events one at a time; `event` holds the current one.
    private struct Composer {
        let parser: UnsafeMutablePointer<yaml_parser_t>
        let event: UnsafeMutablePointer<yaml_event_t>
        var holdsEvent = false
        var anchors: [String: Node] = [:]
        var composed = Composed(root: nil)
        /// The index in `templateTexts` of each text seen.
        var templateTextIndexes: [String: Int] = [:]

        init(parser: UnsafeMutablePointer<yaml_parser_t>, event: UnsafeMutablePointer<yaml_event_t>) {
            self.parser = parser
            self.event = event
        }

        mutating func release() {
            if holdsEvent { yaml_event_delete(event) }
            holdsEvent = false
        }

        /// The next event, in `event`.
        mutating func next() throws(Unusual) -> yaml_event_type_t {
            release()
            guard yaml_parser_parse(parser, event) == 1 else { throw Unusual() }
            holdsEvent = true
            return event.pointee.type
        }

        mutating func document() throws(Unusual) -> Composed {
            guard try next() == YAML_STREAM_START_EVENT else { throw Unusual() }
            switch try next() {
            case YAML_STREAM_END_EVENT:
                return Composed(root: nil)
            case YAML_DOCUMENT_START_EVENT:
                break
            default:
                throw Unusual()
            }
            _ = try next()
            let root = try node(depth: 1)
            guard try next() == YAML_DOCUMENT_END_EVENT, try next() == YAML_STREAM_END_EVENT else { throw Unusual() }
            composed.root = root
            composed.hasAnchors = !anchors.isEmpty
            return composed
        }

        /// The node that starts at the current event, `depth` levels down.
        mutating func node(depth: Int) throws(Unusual) -> Node {
            let current = event.pointee
            let mark = Self.mark(line: current.start_mark.line + 1, column: current.start_mark.column + 1)
            switch current.type {
            case YAML_ALIAS_EVENT:
                guard let name = Self.text(current.data.alias.anchor), let node = anchors[name] else {
                    throw Unusual()
                }
                composed.hasAliases = true
                return node
            case YAML_SCALAR_EVENT:
                let scalar = current.data.scalar
                let bytes = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
                let string = String(decoding: bytes, as: UTF8.self)
                let tag: Tag
                if scalar.quoted_implicit == 1 {
                    tag = SharedTag.text
                } else if let name = Self.text(scalar.tag) {
                    tag = Tag(Tag.Name(rawValue: name), .explorerFiles, .default)
                } else {
                    tag = SharedTag.text
                }
                let anchor = Self.text(scalar.anchor)
                let style = Node.Scalar.Style(rawValue: numericCast(scalar.style.rawValue)) ?? .any
                let node = Node.scalar(Node.Scalar(string, tag, style, mark, anchor.map(Anchor.init(stringLiteral:))))
                if Self.hasOpeningBraces(bytes) {
                    if let index = templateTextIndexes[string] {
                        composed.templateCounts[index] += 1
                    } else {
                        templateTextIndexes[string] = composed.templateTexts.count
                        composed.templateTexts.append(node)
                        composed.templateCounts.append(1)
                    }
                }
                if let anchor { anchors[anchor] = node }
                return node
            case YAML_SEQUENCE_START_EVENT:
                let start = current.data.sequence_start
                let tag = try Self.collectionTag(implicit: start.implicit, name: start.tag, shared: SharedTag.sequence)
                let anchor = Self.text(start.anchor)
                composed.depth = max(composed.depth, depth)
                var nodes: [Node] = []
                while try next() != YAML_SEQUENCE_END_EVENT {
                    nodes.append(try node(depth: depth + 1))
                }
                // Yams reads the style from the end event, which has none: `.any`.
                let style =
                    Node.Sequence.Style(rawValue: numericCast(event.pointee.data.sequence_start.style.rawValue)) ?? .any
                let node = Node.sequence(
                    Node.Sequence(nodes, tag, style, mark, anchor.map(Anchor.init(stringLiteral:))))
                if let anchor { anchors[anchor] = node }
                return node
            case YAML_MAPPING_START_EVENT:
                let start = current.data.mapping_start
                let tag = try Self.collectionTag(implicit: start.implicit, name: start.tag, shared: SharedTag.mapping)
                let anchor = Self.text(start.anchor)
                var pairs: [(Node, Node)] = []
                composed.depth = max(composed.depth, depth)
                var keys: [String] = []
                while try next() != YAML_MAPPING_END_EVENT {
                    let key = try node(depth: depth + 1)
                    guard case .scalar(let scalar) = key, scalar.tag === SharedTag.text else { throw Unusual() }
                    if scalar.string == "<<" { composed.hasMergeKeys = true }
                    keys.append(scalar.string)
                    _ = try next()
                    pairs.append((key, try node(depth: depth + 1)))
                }
                try Self.checkUnique(keys)
                let style =
                    Node.Mapping.Style(rawValue: numericCast(event.pointee.data.mapping_start.style.rawValue)) ?? .any
                let node = Node.mapping(Node.Mapping(pairs, tag, style, mark, anchor.map(Anchor.init(stringLiteral:))))
                if let anchor { anchors[anchor] = node }
                return node
            default:
                throw Unusual()
            }
        }

        /// A place in the text. Yams offers no initializer of `Mark`: one is made of its two
        /// stored `Int`s in their declared order (line, column), which `EventComposerTests`
        /// checks against the marks of Yams' own composer.
        private static func mark(line: Int, column: Int) -> Mark {
            unsafeBitCast((line, column), to: Mark.self)
        }

        /// A mapping's or sequence's tag: the shared one when none is written.
        private static func collectionTag(implicit: Int32, name: UnsafeMutablePointer<UInt8>?, shared: Tag)
            throws(Unusual) -> Tag
        {
            guard implicit == 0, let written = text(name) else { return shared }
            return Tag(Tag.Name(rawValue: written), .explorerFiles, .default)
        }

        /// Throws when a key is written twice (Yams' composer then names the keys).
        private static func checkUnique(_ keys: [String]) throws(Unusual) {
            if keys.count <= 12 {
                for index in keys.indices.dropFirst() where keys[..<index].contains(keys[index]) { throw Unusual() }
            } else if Set(keys).count != keys.count {
                throw Unusual()
            }
        }

        /// Whether the bytes have `{{`.
        private static func hasOpeningBraces(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count > 1 else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                if byte == UInt8(ascii: "{"), previous == byte { return true }
                previous = byte
            }
            return false
        }

        /// A C string of libyaml's, or nil.
        private static func text(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
            guard let pointer else { return nil }
            return String(cString: pointer)
        }
    }
}
