import Foundation
import Testing

@testable import Workspace

/// `CollectionPatch`: an edit within one endpoint read alone gives what a whole parse of the new
/// text gives (every place, warning and template included), and every edit it cannot read so
/// is left to the whole parse.
// Serialized, and its loops yield: each parses a collection hundreds of times, and a test that
// holds one of the few threads of Swift's pool for seconds holds up every other suite's.
@Suite(.serialized) struct CollectionPatchTests {
    static let file = "/project/api.yaml"

    /// The collection of `CollectionCacheTests` (every part the model holds), three folders.
    static let text = CollectionCacheTests.head + (1...3).map(CollectionCacheTests.folder).joined()

    /// The patch of `old` to `new`, checked against the whole parse of `new`: equal when it
    /// patched, and no patch when the whole parse fails. Returns whether it patched.
    @discardableResult
    static func check(_ old: String, _ new: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let base = try CollectionLoader.parseWhole(old, file: file, dotEnv: [:])
        let patched = CollectionPatch.patched(
            CollectionPatch.Base(path: file, text: old, dotEnv: [:], parsed: base), text: new)
        guard let whole = try? CollectionLoader.parseWhole(new, file: file, dotEnv: [:]) else {
            #expect(patched == nil, "patched a text that does not parse", sourceLocation: sourceLocation)
            return false
        }
        guard let patched else { return false }
        #expect(
            try CachedItemsWriter.encode(patched.collection.items) == CachedItemsWriter.encode(whole.collection.items),
            "the endpoint tree (with every place) differs", sourceLocation: sourceLocation)
        #expect(patched.collection.items == whole.collection.items, sourceLocation: sourceLocation)
        #expect(patched.collection.warnings == whole.collection.warnings, sourceLocation: sourceLocation)
        #expect(
            patched.collection.environments.map(Self.describe) == whole.collection.environments.map(Self.describe),
            "the environments differ", sourceLocation: sourceLocation)
        #expect(
            patched.collection.environments.map(\.auth) == whole.collection.environments.map(\.auth),
            sourceLocation: sourceLocation)
        #expect(patched.collection.auth == whole.collection.auth, sourceLocation: sourceLocation)
        #expect(
            patched.collection.auth?.location == whole.collection.auth?.location, sourceLocation: sourceLocation)
        #expect(
            patched.collection.sourceHasComments == whole.collection.sourceHasComments,
            sourceLocation: sourceLocation)
        #expect(
            Dictionary(uniqueKeysWithValues: zip(patched.templateTexts, patched.templateCounts))
                == Dictionary(uniqueKeysWithValues: zip(whole.templateTexts, whole.templateCounts)),
            "the template texts differ", sourceLocation: sourceLocation)
        #expect(
            CollectionCacheTests.places(patched.collection) == CollectionCacheTests.places(whole.collection),
            sourceLocation: sourceLocation)
        return true
    }

    /// What an environment holds, as text to compare.
    static func describe(_ environment: Environment) -> String {
        [
            environment.name, environment.baseURLTemplate, "\(environment.isProtected)", "\(environment.variables)",
            "\(environment.headers)", "\(environment.secrets)", "\(environment.collectionVariables)",
            String(describing: environment.location), String(describing: environment.baseURLLocation),
            String(describing: environment.summary),
            String(describing: environment.auth?.location), "\(environment.keepsCookies)",
            String(describing: environment.proxy), String(describing: environment.insecureRedirects),
            String(describing: environment.followRedirects), "\(environment.resolve)", "\(environment.proxyTunnel)",
            "\(environment.collectionAllowsInsecureRedirects)", String(describing: environment.traces),
            "\(environment.collectionTraces)", String(describing: environment.tls?.caCertificateFile),
            String(describing: environment.tls?.minimumVersion),
        ].joined(separator: "|")
    }

    /// `text` with the first occurrence of `target` replaced.
    static func replacing(_ target: String, with replacement: String, in text: String = text) throws -> String {
        let range = try #require(text.range(of: target))
        return text.replacingCharacters(in: range, with: replacement)
    }

    @Test func anEditWithinOneEndpointIsReadAlone() throws {
        // The same number of lines, one more, one fewer, on the dash line, in the last one.
        #expect(try Self.check(Self.text, Self.replacing("path: /raw", with: "path: /raw/{{id}}")))
        #expect(
            try Self.check(
                Self.text,
                Self.replacing("path: /login\n", with: "path: /login\n        headers: { X-New: \"1\" }\n")))
        #expect(try Self.check(Self.text, Self.replacing("        trace: true\n", with: "")))
        #expect(try Self.check(Self.text, Self.replacing("- name: Raw 2", with: "- name: Raw two")))
        #expect(try Self.check(Self.text, Self.replacing("timeout: 2.5", with: "timeout: 3", in: Self.text)))
        let last = try #require(Self.text.range(of: "max_message_size: 65536", options: .backwards))
        #expect(try Self.check(Self.text, Self.text.replacingCharacters(in: last, with: "max_message_size: 1024")))
        // Places after the edit move: captures', assertions', auth's and requirements' too.
        #expect(
            try Self.check(
                Self.text,
                Self.replacing("- name: Create 1\n", with: "- name: Create 1\n        # a note\n\n\n")))
    }

    @Test func templatesComeAndGoWithTheirLastUse() throws {
        // A new template, and one whose only use goes.
        #expect(try Self.check(Self.text, Self.replacing("path: /raw", with: "path: \"{{command date}}\"")))
        let once = try Self.replacing("path: /raw", with: "path: \"{{only here}}\"")
        #expect(try Self.check(once, Self.replacing("{{only here}}", with: "/raw", in: once)))
    }

    @Test func editsThatAreNotWithinOneEndpointAreParsedWhole() throws {
        // A folder's line, the head, a new endpoint, a name another has.
        #expect(try !Self.check(Self.text, Self.replacing("- folder: Folder 2", with: "- folder: Folder II")))
        #expect(try !Self.check(Self.text, Self.replacing("name: Everything", with: "name: All")))
        #expect(
            try !Self.check(
                Self.text,
                Self.replacing(
                    "      - name: Raw 1\n", with: "      - name: New\n        path: /new\n      - name: Raw 1\n")))
        #expect(try !Self.check(Self.text, Self.replacing("- name: Raw 1", with: "- name: Upload 1")))
        // An endpoint another requires, renamed: the requirement no longer holds.
        #expect(try !Self.check(Self.text, Self.replacing("- name: Login 2", with: "- name: Sign in 2")))
        // A quote left open runs into what follows.
        #expect(try !Self.check(Self.text, Self.replacing("path: /raw", with: "path: \"/raw")))
        // An entry that becomes a folder, and a warning it gains.
        #expect(try !Self.check(Self.text, Self.replacing("- name: Raw 1", with: "- folder: Raw 1")))
        #expect(try !Self.check(Self.text, Self.replacing("path: /raw\n", with: "path: /raw\n        colour: red\n")))
    }

    /// An environment's entry is read alone too: the environments after it and every endpoint
    /// move; a name another environment has is left to the whole parse.
    @Test func anEditWithinOneEnvironmentIsReadAlone() throws {
        #expect(try Self.check(Self.text, Self.replacing("base_url: https://staging", with: "base_url: https://stage")))
        #expect(try Self.check(Self.text, Self.replacing("  - name: local\n", with: "  - name: laptop\n")))
        #expect(
            try Self.check(
                Self.text, Self.replacing("    headers: { X-Env: local }\n", with: "    headers:\n      X-Env: local\n")
            ))
        // A warning (an unknown key), and a name another environment has.
        #expect(
            try !Self.check(
                Self.text, Self.replacing("    protected: true\n", with: "    protected: true\n    colour: red\n")))
        #expect(try !Self.check(Self.text, Self.replacing("  - name: staging\n", with: "  - name: local\n")))
    }

    @Test func anchorsAndOtherBreaksAreParsedWhole() throws {
        let anchored = try Self.replacing("path: /raw", with: "path: &raw /raw")
        #expect(try !Self.check(anchored, Self.replacing("path: /file", with: "path: /files", in: anchored)))
        #expect(try !Self.check(Self.text, Self.replacing("path: /raw", with: "path: &p /raw")))
        let separated = Self.text.replacingOccurrences(of: "description: folder 1", with: "description: \"a\u{2028}b\"")
        #expect(try !Self.check(separated, Self.replacing("path: /raw", with: "path: /raws", in: separated)))
    }

    /// A comment indented less than the entry does not end it; a comment's arrival or
    /// departure is what the whole parse says of the file.
    @Test func commentsInsideAndAroundAnEntry() throws {
        let commented = try Self.replacing(
            "        path: /raw\n", with: "# a comment at the margin\n        path: /raw\n")
        #expect(try Self.check(commented, Self.replacing("body: \"plain", with: "body: \"simple", in: commented)))
        #expect(try Self.check(Self.text, commented))
        #expect(try Self.check(commented, Self.text))
    }

    /// Random edits of random lines: whatever is patched equals the whole parse, and nothing
    /// that does not parse is patched.
    @Test func randomEditsPatchOnlyWhatAWholeParseGives() async throws {
        var generator = SeededGenerator(seed: 56)
        let lines = Self.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex { $0.hasPrefix("endpoints:") })
        var patched = 0
        for _ in 0..<60 {
            await Task.yield()
            var edited = lines
            let index = Int.random(in: (first + 1)..<lines.count, using: &generator)
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: edited.remove(at: index)
            case 1: edited.insert(edited[index], at: index)
            case 2: edited[index] += "x"
            case 3: edited.insert("", at: index)
            default: edited[index] = String(edited[index].dropLast())
            }
            if try Self.check(Self.text, edited.joined(separator: "\n")) { patched += 1 }
        }
        // Most edits of an endpoint's line are read alone.
        #expect(patched > 12, "\(patched) of 60 edits were read alone")
    }

    /// The same of a collection written otherwise: endpoints at the top, their dashes at the
    /// margin, the environments after them.
    @Test func randomEditsOfEndpointsAtTheMarginWithEnvironmentsAfter() async throws {
        let endpoints = (0..<12).map { index in
            """
            - name: E\(index)
              method: POST
              path: /e/\(index)/{{id}}
              headers:
                X-Index: "\(index)"
              json: { n: \(index), list: [1, two], nested: { a: "{{user}}" } }
              assert:
                - status == 200
            """
        }
        let text =
            "name: Margin\nendpoints:\n" + endpoints.joined(separator: "\n")
            + "\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:1\n"
        var generator = SeededGenerator(seed: 5_600)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var patched = 0
        for _ in 0..<50 {
            await Task.yield()
            var edited = lines
            let index = Int.random(in: 2..<lines.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: edited.remove(at: index)
            case 1: edited.insert(edited[index], at: index)
            case 2: edited[index] += "1"
            default: edited.insert("", at: index)
            }
            if try Self.check(text, edited.joined(separator: "\n")) { patched += 1 }
        }
        // The environments after the endpoints move with them.
        #expect(patched > 10, "\(patched) of 50 edits were read alone")
        let before =
            "name: Margin\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:1\nendpoints:\n"
            + endpoints.joined(separator: "\n") + "\n"
        #expect(try Self.check(before, before.replacingOccurrences(of: "path: /e/3/", with: "path: /e/three/")))
        #expect(try Self.check(before, before.replacingOccurrences(of: "  headers:\n    X-Index: \"5\"\n", with: "")))
    }

    /// The loader keeps the parse of a large collection it may patch, and reads an edit alone.
    @Test func theLoaderPatchesTheCollectionItLoadedLast() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("patch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("api.yaml")
        let text = CollectionCacheTests.largeText
        let loaded = try CollectionLoader.loadReaching(from: file, text: text, cache: nil, patches: true)
        let base = try #require(CollectionPatch.base(path: file.standardizedFileURL.path, dotEnv: [:]))
        #expect(base.text == text)
        let edited = try Self.replacing("path: /raw", with: "path: /cooked", in: text)
        let reloaded = try CollectionLoader.loadReaching(from: file, text: edited, cache: nil, patches: true)
        #expect(reloaded.collection.endpoints.first { $0.name == "Raw 0" }?.path == "/cooked")
        #expect(reloaded.collection.endpoints.count == loaded.collection.endpoints.count)
        #expect(reloaded.reach == loaded.reach)
        #expect(CollectionPatch.base(path: file.standardizedFileURL.path, dotEnv: [:])?.text == edited)
    }
}
