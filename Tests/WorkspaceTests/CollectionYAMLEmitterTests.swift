import Formats
import Foundation
import TestSupport
import Testing
import Yams

@testable import Workspace

/// `CollectionYAMLEmitter` writes what the YAML library writes, byte for byte: the collection
/// files `explorer import` and the TUI write do not change with it.
@Suite struct CollectionYAMLEmitterTests {
    /// Texts that each take a different turn in libyaml's choice of a scalar's style or in its
    /// writing: indicators at the start and inside, spaces and line breaks at either end and
    /// around each other, quotes, characters it escapes, Unicode inside and outside the basic
    /// plane, the 128-byte limit of a simple key.
    static let texts: [String] = [
        "", " ", "a", "a b", " a", "a ", "a  b", "a\nb", "a\n", "\na", "a \nb", "a\n b", "a\n\nb", "a\r\nb", "a\rb",
        "\n", "\n\n", "'", "a'b", "''", "\"", "a\"b", "\\", "a\\b", "#a", "a #b", "a#b", "a: b", "a:b", "a:", ":a",
        ": a",
        "-", "- a", "-a", "a-", "---", "--- a", "...", "... a", "..", "?", "? a", "?a", "a?", "a,b", ",a", "[a]", "a[b",
        "{a}", "a}b", "&a", "*a", "!a", "|", ">", "%a", "@a", "`a", "a`", "\t", "a\tb", "\ta", "a\t", "\u{85}",
        "a\u{85}b",
        "\u{2028}", "a\u{2029}b", "\u{A0}", "a\u{A0}", "é", "日本語", "😀", "a😀b", "\u{FEFF}a", "a\u{FFFE}", "\u{FFFF}",
        "\u{0}", "a\u{0}b", "-\u{0}", "\u{7F}", "\u{80}", "\u{9F}", "\u{1B}", "\u{7}\u{8}\u{B}\u{C}", "\u{E000}",
        "\u{D7FF}", "null", "true", "~", "123", "1.5", "0x1F", "2001-12-14", "{{env.TOKEN}}", "https://a.b/c?d=e#f",
        "a' \n 'b", "x\n  y\n", " \n ", "a\u{85} b", String(repeating: "k", count: 128),
        String(repeating: "k", count: 129), String(repeating: "é", count: 64), String(repeating: "é", count: 65),
    ]

    static var styles: [Node.Scalar.Style] { [.any, .plain, .singleQuoted, .doubleQuoted] }

    static func map(_ pairs: [(Node, Node)], _ style: Node.Mapping.Style = .any) -> Node {
        Node(pairs, .implicit, style)
    }

    static func list(_ nodes: [Node], _ style: Node.Sequence.Style = .any) -> Node { Node(nodes, .implicit, style) }

    static func text(_ text: String) -> Node { Node(text, Tag(.str), .plain) }

    /// A tree that puts `scalar` everywhere a scalar can stand: a block mapping's key and
    /// value, block and flow sequences, a flow mapping's key and value, nested collections,
    /// a sequence inside a sequence, and empty collections beside it.
    static func tree(_ scalar: Node) -> Node {
        let x = text("x")
        return map([
            (text("value"), scalar),
            (scalar, text("after")),
            (text("block"), list([scalar, list([scalar, x]), map([(text("k"), scalar)]), scalar])),
            (text("flow"), list([scalar, x, scalar], .flow)),
            (text("flow map"), map([(scalar, scalar), (text("k"), list([scalar], .flow))], .flow)),
            (text("nested"), map([(scalar, list([map([(scalar, scalar), (text("empty"), list([]))])]))])),
            (text("empty map"), map([])),
            (list([]), scalar),
        ])
    }

    @Test func everyScalarIsWrittenAsTheYAMLLibraryWritesItWhereverItStands() throws {
        for text in Self.texts {
            for style in Self.styles {
                let node = Self.tree(Node(text, Tag(.str), style))
                let expected = try CollectionWriter.yamsText(of: node)
                let written = CollectionYAMLEmitter.text(of: node)
                #expect(written == expected, "\(text.debugDescription) in style \(style)")
            }
        }
    }

    @Test func randomTextsAreWrittenAsTheYAMLLibraryWritesThem() throws {
        // Pieces whose combinations reach the rules' corners: spaces next to breaks, an
        // indicator after a space, a quote after a break.
        let pieces = [
            "a", "b", " ", "  ", "\n", "\r", "\t", "'", "\"", "\\", ":", "#", "-", "?", ",", "[", "}", "&", "!", "é",
            "😀", "\u{85}", "\u{2028}", "\u{A0}", "\u{FEFF}", "\u{1}", ".", "{{x}}",
        ]
        var generator = SeededGenerator(seed: 56)
        for round in 0..<3000 {
            let text = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let style = Self.styles.randomElement(using: &generator)!
            let node = Self.tree(Node(text, Tag(.str), style))
            let expected = try CollectionWriter.yamsText(of: node)
            #expect(CollectionYAMLEmitter.text(of: node) == expected, "round \(round): \(text.debugDescription)")
        }
    }

    @Test func everyOpenAPIFixtureImportIsWrittenAsTheYAMLLibraryWritesIt() throws {
        let documents =
            try FileManager.default.contentsOfDirectory(atPath: Fixtures.url("openapi").path).sorted().map {
                "openapi/\($0)"
            } + ["stripe/spec3.json", "openapi-multifile/digitalocean/DigitalOcean-public.v2.yaml"]
        for document in documents {
            let collection = try OpenAPIImporter().importFile(at: Fixtures.url(document)).collection
            let node = CollectionWriter.node(for: collection)
            let written = try #require(CollectionYAMLEmitter.text(of: node), "\(document)")
            let expected = try CollectionWriter.yamsText(of: node)
            #expect(written == expected, "\(document)")
            #expect(try CollectionWriter.yaml(for: collection) == expected, "\(document)")
            // What is written loads back as the same collection.
            _ = try CollectionLoader.parse(written, file: document)
        }
    }

    @Test func aLiteralScalarAnAnchorOrAWrittenTagIsLeftToTheYAMLLibrary() throws {
        let literal = Self.map([(Self.text("query"), Node("{\n  a\n}\n", .implicit, .literal))])
        #expect(CollectionYAMLEmitter.text(of: literal) == nil)
        #expect(try CollectionWriter.yaml(of: literal) == CollectionWriter.yamsText(of: literal))

        let set = Node([(Self.text("a"), Self.text("b"))], Tag(Tag.Name(rawValue: "tag:yaml.org,2002:set")))
        let tagged = Self.map([(Self.text("set"), set)])
        #expect(CollectionYAMLEmitter.text(of: tagged) == nil)
        #expect(try CollectionWriter.yaml(of: tagged) == CollectionWriter.yamsText(of: tagged))

        // The node holds its anchor weakly: the test keeps it.
        let anchor = Anchor(rawValue: "x")
        let anchored = Self.map([(Self.text("a"), Node("b", .implicit, .plain, anchor))])
        #expect(CollectionYAMLEmitter.text(of: anchored) == nil)
        withExtendedLifetime(anchor) {}
    }
}

/// A small deterministic random number generator (SplitMix64), so a failing text can be found again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
