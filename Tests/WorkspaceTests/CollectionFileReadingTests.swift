import Foundation
import Testing

@testable import Workspace

/// How a collection file's bytes become its text, and an endpoint's method its token.
@Suite struct CollectionFileReadingTests {
    /// A new folder with `bytes` written as `name`; the caller removes the folder.
    private func file(_ bytes: [UInt8], named name: String = "c.yaml") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    private let yaml =
        "name: Shop\nenvironments:\n  - name: dev\n    base_url: http://localhost\nendpoints:\n  - name: Ping\n    path: /ping\n"

    @Test func aFileWithAByteOrderMarkReadsAsOneWithout() throws {
        let plain = try file(Array(yaml.utf8))
        let marked = try file([0xEF, 0xBB, 0xBF] + Array(yaml.utf8))
        defer {
            try? FileManager.default.removeItem(at: plain.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: marked.deletingLastPathComponent())
        }
        let withMark = try CollectionLoader.load(from: marked)
        #expect(withMark.name == "Shop")
        #expect(withMark.endpoints.map(\.name) == (try CollectionLoader.load(from: plain)).endpoints.map(\.name))
    }

    @Test func aFileThatIsNotUTF8IsRefusedNamingItsPath() throws {
        let url = try file(Array("name: Sh".utf8) + [0xFF, 0xFE] + Array("op\n".utf8))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect {
            try CollectionLoader.load(from: url)
        } throws: { error in
            guard case .unreadable(let path, _)? = error as? CollectionError else { return false }
            return path == url.path && "\(error)".hasPrefix("\(url.path): cannot read the collection")
        }
    }

    @Test func aMissingFileIsRefusedNamingItsPath() {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/c.yaml")
        #expect {
            try CollectionLoader.load(from: url)
        } throws: { error in
            "\(error)".hasPrefix("\(url.path): cannot read the collection")
        }
    }

    @Test func aMethodWithBlanksAroundItIsItsToken() throws {
        let collection = try CollectionLoader.parse(yaml + "    method: \" PATCH \"\n")
        #expect(collection.endpoints.first?.method.rawValue == "PATCH")
    }

    @Test(arguments: ["GE T", "GET/", "PÖST", "\" \""])
    func aMethodThatIsNotATokenIsRefusedAtItsLine(_ method: String) {
        #expect {
            try CollectionLoader.parse(yaml + "    method: \(method)\n", file: "m.yaml")
        } throws: { error in
            guard case .invalidMethod(let location, _)? = error as? CollectionError else { return false }
            return location.file == "m.yaml" && location.line == 8
        }
    }

    @Test func anEndpointWithChecksStillReadsThem() throws {
        let collection = try CollectionLoader.parse(
            yaml + "    capture:\n      token: $.token\n    assert:\n      - status == 200\n")
        let endpoint = try #require(collection.endpoints.first)
        #expect(endpoint.captures.count == 1)
        #expect(endpoint.assertions.count == 1)
    }
}
