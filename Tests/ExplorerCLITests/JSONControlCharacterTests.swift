import Foundation
import Testing

@testable import ExplorerCLI
@testable import History

/// `--json` output carries no control character raw: JSONSerialization escapes the C0 ones,
/// and DEL and the C1 ones (U+009B is CSI, as ESC [ to a terminal) are escaped too, so the
/// JSON reads back the same and a terminal shown it does nothing.
@Suite struct JSONControlCharacterTests {
    static let hostile = "csi \u{9B}2J del \u{7F} nel \u{85} esc \u{1B}[31m"

    static func rawControls(in data: Data) -> Bool {
        let bytes = [UInt8](data)
        return bytes.indices.contains { index in
            bytes[index] < 0x20 && bytes[index] != 0x0A || bytes[index] == 0x7F
                || (bytes[index] == 0xC2 && index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]))
        }
    }

    @Test func aBodysC1ControlsAreEscapedAcrossPiecesAndReadBackTheSame() throws {
        // Long enough that some C1 controls straddle the pieces' edges.
        let text = String(repeating: Self.hostile + " é ", count: 3 * BodyPieces.pieceSize / 30)
        var written = Data()
        ExchangeOutput.writeJSON(
            of: HistoryEntry(method: "GET", url: "http://h/", status: 200, responseBody: Data(text.utf8)), historyId: 1
        ) {
            written.append($0)
        }
        #expect(!Self.rawControls(in: written.dropLast()))
        #expect(String(decoding: written, as: UTF8.self).contains(#"csi \u009b2J del \u007f nel \u0085"#))
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["body"] as? String == text)
    }

    @Test func headersAndNamesInJSONAreEscapedToo() throws {
        let entry = HistoryEntry(
            environment: "prod\u{9B}", method: "GET", url: "http://h/", status: 200, reason: "OK\u{9B}2J",
            responseHeaders: ["X-Note": "a\u{9B}b"], responseBody: nil)
        let text = ExchangeOutput.json(of: entry, historyId: nil)
        #expect(!Self.rawControls(in: Data(text.utf8)))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["headers"] as? [String: String])?["X-Note"] == "a\u{9B}b")
        #expect(object["environment"] as? String == "prod\u{9B}")
    }
}
