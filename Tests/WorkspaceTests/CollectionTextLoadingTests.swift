import Foundation
import Testing

@testable import Workspace

/// The watcher loads the text it has just read (to tell a change from a touch) rather than
/// reading the file again: that load must be the file's own.
@Suite struct CollectionTextLoadingTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("text-loading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aTextAlreadyReadLoadsAsTheFileDoesWithItsDotEnvAndReach() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("api.yaml")
        let text = """
            name: Text
            environments:
              - name: local
                base_url: http://127.0.0.1:1
                variables:
                  token: '{{env.TOKEN}}'
            endpoints:
              - name: Ping
                path: /ping
                headers:
                  authorization: '{{token}} {{env.OTHER}}'
            """
        try text.write(to: url, atomically: true, encoding: .utf8)
        try "TOKEN=from-dotenv\n".write(
            to: directory.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        let fromFile = try CollectionLoader.loadReaching(from: url)
        let fromText = try CollectionLoader.loadReaching(from: url, text: text)
        #expect(fromText.collection == fromFile.collection)
        #expect(fromText.reach == fromFile.reach)
        #expect(fromText.collection.sourceURL == url)
        #expect(fromText.reach.references.contains(.environmentVariable("OTHER")))
    }

    @Test func anErrorInATextAlreadyReadNamesTheFileAndLine() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("api.yaml")
        let text = "name: Broken\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:1\nendpoints: 12\n"
        #expect {
            try CollectionLoader.loadReaching(from: url, text: text)
        } throws: { error in
            let sentence = "\(error)"
            return sentence.contains(url.path) && sentence.contains(":5")
        }
    }
}
