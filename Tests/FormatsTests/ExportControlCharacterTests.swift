import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// An exported file is read with `cat` too: no control character of a body is written raw.
/// Each is written so that the target format reads back the same character where it has a
/// way to say it (JSON escapes, Hurl's `\u{…}`), and as a visible escape with a comment where
/// it has none (a `.http` raw body).
@Suite struct ExportControlCharacterTests {
    /// ESC, BEL and the C1 CSI (U+009B): each makes a terminal act.
    static let hostile = "red \u{1B}[31m bell \u{07} csi \u{9B}2J end"

    static func hasRawControls(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r") || (0x7F...0x9F).contains($0.value)
        }
    }

    static func collection(_ body: EndpointBody) -> APICollection {
        APICollection(
            name: "Bodies", environments: [Environment(name: "local", baseURLTemplate: "http://127.0.0.1:9")],
            items: [.endpoint(Endpoint(name: "Post", method: .post, path: "/echo", body: body))])
    }

    @Test(arguments: ["http", "hurl"])
    func aJSONBodysControlsAreJSONEscapesThatReadBackTheSame(_ format: String) throws {
        let collection = Self.collection(.json(.object([("note", .string(Self.hostile))])))
        let text =
            format == "http"
            ? HTTPFileExporter.text(for: collection, environment: nil)
            : HurlExporter.text(for: collection.endpoints, in: collection, environment: collection.environments.first)
        #expect(!Self.hasRawControls(text), "\(text)")
        let start = try #require(text.range(of: "\n{\n")).lowerBound
        let end = try #require(text.lastIndex(of: "}"))
        let body = try JSONValue(parsing: Data(text[start...end].utf8))
        #expect(body["note"]?.stringValue == Self.hostile)
    }

    @Test func aRawBodyInHurlIsAOnelineStringHurlReadsBackTheSame() throws {
        let raw = Self.hostile + "\nsecond line with a ` and a \\"
        let collection = Self.collection(.raw(raw))
        let text = HurlExporter.text(
            for: collection.endpoints, in: collection, environment: collection.environments.first)
        #expect(!Self.hasRawControls(text), "\(text)")
        #expect(text.contains(#"`red \u{1B}[31m bell \u{7} csi \u{9B}2J end\nsecond line"#), "\(text)")
        let imported = try HurlImporter().importText(text)
        #expect(imported.collection.endpoints.first?.body == .raw(raw))
    }

    @Test func aRawBodyInAnHTTPFileShowsItsControlsAndSaysSo() throws {
        let collection = Self.collection(.raw(Self.hostile))
        let text = HTTPFileExporter.text(for: collection, environment: nil)
        #expect(!Self.hasRawControls(text), "\(text)")
        #expect(text.contains(#"red \u{1B}[31m bell \u{7} csi \u{9B}2J end"#), "\(text)")
        #expect(
            text.contains(
                "# The body holds control characters, written here as \\u{…}: a .http body has no escapes, so put them back before sending."
            ))
    }

    @Test func postmanAndHARWriteC1ControlsAsJSONEscapes() throws {
        let collection = Self.collection(.raw(Self.hostile))
        let postman = PostmanExporter.json(for: collection)
        #expect(!Self.hasRawControls(postman), "\(postman)")
        let read = try JSONValue(parsing: Data(postman.utf8))
        #expect(read["item"]?[0]?["request"]?["body"]?["raw"]?.stringValue == Self.hostile)
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(collection.endpoints[0], in: collection)
        let har = HARExporter.json(for: [resolved])
        #expect(!Self.hasRawControls(har), "\(har)")
        #expect(
            try JSONValue(parsing: Data(har.utf8))["log"]?["entries"]?[0]?["request"]?["postData"]?["text"]?.stringValue
                == Self.hostile)
    }

    @Test func aBodyWithoutControlsIsWrittenAsItWas() throws {
        // Hurl's multiline string ends with its last line's newline: a body that ends with one.
        let collection = Self.collection(.raw("plain\ttext\nline two\n"))
        #expect(HTTPFileExporter.text(for: collection, environment: nil).contains("plain\ttext\nline two"))
        #expect(
            HurlExporter.text(for: collection.endpoints, in: collection, environment: nil).contains(
                "```\nplain\ttext\nline two\n```"))
    }
}
