import Foundation
import Testing

@testable import ExplorerCLI
@testable import History

/// Large bodies printed a piece at a time: `send --json` and a terminal get the same text as
/// from the body whole, and no piece written is the size of the body.
@Suite struct BodyPiecesTests {
    /// Text with quotes, backslashes, controls and two- and three-byte characters, longer than
    /// three pieces, so that characters straddle the pieces' edges.
    private let text = String(repeating: "a \"quote\", a \\ and \u{01}\t\n é € ", count: 3 * BodyPieces.pieceSize / 20)

    @Test func jsonOfABodyLargerThanAPieceCarriesItWholeInPiecesOfBoundedSize() throws {
        let body = Data(text.utf8)
        var pieces: [Data] = []
        ExchangeOutput.writeJSON(
            of: HistoryEntry(method: "GET", url: "http://h/", status: 200, responseBody: body), historyId: 3
        ) { pieces.append($0) }
        let written = pieces.reduce(Data(), +)
        #expect(written.last == 0x0A)
        let object = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(object["body"] as? String == text)
        #expect(object["bodyEncoding"] == nil)
        #expect(object["historyId"] as? Int == 3)
        #expect(pieces.map(\.count).max()! <= 2 * BodyPieces.pieceSize)
    }

    @Test func aBodyThatIsNotUTF8IsBase64InPiecesThatJoin() throws {
        var generator = SystemRandomNumberGenerator()
        let body = Data(
            (0..<(2 * BodyPieces.pieceSize + 7)).map { _ in UInt8.random(in: 0...255, using: &generator) } + [0xFF])
        let text = ExchangeOutput.json(
            of: HistoryEntry(method: "GET", url: "http://h/", status: 200, responseBody: body), historyId: nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["bodyEncoding"] as? String == "base64")
        #expect(object["body"] as? String == body.base64EncodedString())
    }

    @Test func aHeaderThatSpellsABodysMarkerIsNotReplaced() throws {
        let entry = HistoryEntry(
            method: "GET", url: "http://h/", status: 200,
            responseHeaders: ["X-Body": "explorer-body-0"], responseBody: Data("real".utf8))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(ExchangeOutput.json(of: entry, historyId: nil).utf8))
                as? [String: Any])
        #expect(object["body"] as? String == "real")
        #expect((object["headers"] as? [String: String])?["X-Body"] == "explorer-body-0")
    }

    @Test func onATerminalALargeBodyIsEscapedAsTheWholeWouldBe() {
        let body = Data((text + "\u{1B}[31m").utf8)
        var written = Data()
        BodyPieces(body: body).writeEscapedText { written.append($0) }
        #expect(String(decoding: written, as: UTF8.self) == ExchangeOutput.escapingControls(text + "\u{1B}[31m") + "\n")
    }
}
