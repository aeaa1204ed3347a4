import Foundation
import Testing
import Yams

@testable import Workspace

/// A collection using what YAML offers: anchors, aliases, merge keys, flow and block styles,
/// block scalars, quoted texts, explicit tags, empty and null values, non-ASCII text.
private let richYAML = """
    # A comment
    name: Rich ünïcode
    x-defaults: &defaults
      headers: &headers
        Accept: application/json
        X-Token: "{{env.TOKEN}}"
    x-empty:
    variables: {host: "example.test", port: '8080', nothing: ~}
    environments:
      - name: dev
        base_url: http://{{host}}:{{port}}
        tags: [a, "b", 'c']
    endpoints:
      - name: List
        <<: *defaults
        path: /items
        query:
          - limit: 10
          - cursor: "{{file ../cursor.txt}}"
      - folder: Nested
        endpoints:
          - name: Create
            method: POST
            path: /items
            body: |
              {"a": 1,
               "b": "{{command date}}"}
            description: >
              folded
              text
          - name: Tagged
            path: !!str /tagged
            json: !custom {k: [1, 2.5, true, null]}
          - name: Aliased
            path: /aliased
            headers: *headers
    """

/// The tag a node ends with once Yams resolves it under `Resolver.explorerFiles`.
private func resolvedTagName(_ node: Node) -> String {
    let (tag, fallback): (Yams.Tag, Yams.Tag.Name) =
        switch node {
        case .scalar(let scalar): (scalar.tag, .str)
        case .mapping(let mapping): (mapping.tag, .map)
        case .sequence(let sequence): (sequence.tag, .seq)
        case .alias(let alias): (alias.tag, .str)
        }
    return tag.description == Yams.Tag.Name.implicit.rawValue ? fallback.rawValue : tag.description
}

/// Differences between two trees, by path: kind, text, resolved tag, style, place and anchor.
private func differences(_ left: Node, _ right: Node, at path: String = "$") -> [String] {
    var found: [String] = []
    if resolvedTagName(left) != resolvedTagName(right) {
        found.append("\(path): tag \(resolvedTagName(left)) vs \(resolvedTagName(right))")
    }
    if left.mark?.description != right.mark?.description {
        found.append("\(path): mark \(String(describing: left.mark)) vs \(String(describing: right.mark))")
    }
    if left.anchor?.rawValue != right.anchor?.rawValue { found.append("\(path): anchor") }
    switch (left, right) {
    case (.scalar(let a), .scalar(let b)):
        if a.string != b.string { found.append("\(path): \(a.string) vs \(b.string)") }
        if a.style != b.style { found.append("\(path): style") }
    case (.mapping(let a), .mapping(let b)):
        if a.style != b.style { found.append("\(path): style") }
        guard a.count == b.count else { return found + ["\(path): \(a.count) vs \(b.count) pairs"] }
        for (index, (pairA, pairB)) in zip(a, b).enumerated() {
            found += differences(pairA.key, pairB.key, at: "\(path).key[\(index)]")
            found += differences(pairA.value, pairB.value, at: "\(path).\(pairA.key.string ?? "?")")
        }
    case (.sequence(let a), .sequence(let b)):
        if a.style != b.style { found.append("\(path): style") }
        guard a.count == b.count else { return found + ["\(path): \(a.count) vs \(b.count) items"] }
        for (index, (itemA, itemB)) in zip(a, b).enumerated() {
            found += differences(itemA, itemB, at: "\(path)[\(index)]")
        }
    default:
        found.append("\(path): different kinds")
    }
    return found
}

@Suite struct EventComposerTests {
    @Test func itComposesTheTreeYamsComposes() throws {
        let fast = try #require(EventComposer.compose(richYAML)?.root)
        let yams = try #require(try Yams.compose(yaml: richYAML, .explorerFiles))
        #expect(differences(fast, yams) == [])
        #expect(fast == yams)
    }

    @Test func anEmptyDocumentHasNoRoot() throws {
        let composed = try #require(EventComposer.compose("# nothing but a comment\n"))
        #expect(composed.root == nil)
        #expect(composed.templateTexts.isEmpty)
    }

    @Test func itGathersEachTextWithATemplateOnceKeysIncluded() throws {
        let composed = try #require(
            EventComposer.compose("a: '{{x}}'\n\"{{key}}\": b\nc: [d, \"x{{y}}z\", '{ {no}', '{{x}}']\n"))
        #expect(composed.templateTexts.compactMap(\.string) == ["{{x}}", "{{key}}", "x{{y}}z"])
    }

    @Test(arguments: [
        "a: 1\na: 2\n",  // a duplicate key: Yams names it
        "? [a, b]\n: c\n",  // a key that is not text
        "!!str a: 1\n",  // a key with a tag of its own
        "a: 1\n---\nb: 2\n",  // two documents
        "a: *nowhere\n",  // an undefined alias
        "a: [1, 2\n",  // not YAML
    ])
    func whatIsUnusualIsLeftToYams(_ yaml: String) {
        #expect(EventComposer.compose(yaml) == nil)
    }

    @Test func theLoaderStillNamesADuplicateKeyWithFileAndLine() {
        let yaml = "name: Dup\nendpoints:\n  - name: A\n    path: /a\n    path: /b\n"
        #expect {
            try CollectionLoader.parse(yaml, file: "dup.yaml")
        } throws: { error in
            let text = (error as? CollectionError)?.description ?? ""
            return text.hasPrefix("dup.yaml:4:") && text.contains("duplicate keys path")
        }
    }

    @Test func whatALoadedCollectionReachesIsWhatItsWholeTreeReaches() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("composer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("rich.yaml")
        try richYAML.write(to: file, atomically: true, encoding: .utf8)

        let loaded = try CollectionLoader.loadReaching(from: file)
        let tree = try #require(try BoundedYAML.compose(richYAML, file: file.path))
        let whole = CollectionReach(loaded.collection, texts: tree, folder: folder)
        #expect(loaded.reach == whole)
        #expect(loaded.reach.references.contains(.environmentVariable("TOKEN")))
        #expect(loaded.reach.references.contains(.command("date")))
        #expect(loaded.reach.references.contains { if case .file = $0 { true } else { false } })
    }

    /// What `BoundedYAML.compose` says of a document over a limit (nil: it reads).
    private static func refusal(_ compose: () throws -> Void) -> String? {
        do {
            try compose()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test(arguments: [
        ("a: 1\nb: " + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "\n", 20, 1_000),
        (String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n", 100_000, 1_000),
        ("a: &a [1, 2]\nb: [*a, *a]\n", 100, 5),
        ("a: &a [1, 2]\nb: [*a, *a]\n", 100, 1_000),
        (billionLaughsYAML, 100, 1_000_000),
        ("a:\n  b:\n    c: [1]\n", 3, 1_000),
        ("a:\n  b:\n    c: [1]\n", 4, 1_000),
    ])
    func theCollectionsComposerRefusesWhatComposeRefuses(_ yaml: String, maxDepth: Int, maxAliasNodes: Int) {
        let limits = DocumentLimits(maxDepth: maxDepth, maxAliasNodes: maxAliasNodes)
        let general = Self.refusal { _ = try BoundedYAML.compose(yaml, file: "l.yaml", limits: limits) }
        let collections = Self.refusal { _ = try BoundedYAML.composeCollection(yaml, file: "l.yaml", limits: limits) }
        #expect(collections == general)
    }
}
