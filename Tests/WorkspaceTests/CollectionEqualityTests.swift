import Foundation
import Testing

@testable import Workspace

/// `APICollection ==`, which the round-trip tests compare with: every part a file holds counts,
/// where and how it was read (file, lines, comments) does not.
@Suite struct CollectionEqualityTests {
    static let yaml = """
        name: shop
        variables: { host: "127.0.0.1" }
        environments:
          - name: local
            base_url: "http://{{host}}:8080"
            headers: { X-Env: local }
            proxy: http://proxy.corp:3128
        endpoints:
          - name: Items
            path: /items
            operation: listItems
            follow_redirects: false
        """

    @Test func whereItWasReadIsNotPartOfEquality() throws {
        let original = try CollectionLoader.parse(Self.yaml, file: "a.yaml")
        let moved = try CollectionLoader.parse("# moved down a line\n" + Self.yaml, file: "b.yaml")
        #expect(moved.endpoints[0].location != original.endpoints[0].location)
        #expect(moved == original)
    }

    @Test(arguments: [
        ("host: \"127.0.0.1\"", "host: \"127.0.0.2\""),
        (":8080", ":8081"),
        ("X-Env: local", "X-Env: remote"),
        ("proxy.corp:3128", "proxy.corp:3129"),
        ("path: /items", "path: /things"),
        ("operation: listItems", "operation: getItems"),
        ("follow_redirects: false", "follow_redirects: true"),
    ])
    func everyPartAFileHoldsIsPartOfEquality(written: String, changed: String) throws {
        let original = try CollectionLoader.parse(Self.yaml)
        let edited = try CollectionLoader.parse(Self.yaml.replacingOccurrences(of: written, with: changed))
        #expect(edited != original, "\(written) → \(changed)")
    }
}
