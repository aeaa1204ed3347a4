import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import ExplorerCLI
@testable import History

@Suite struct ExchangeOutputTests {
    @Test func aPipedBodyIsWrittenByteForByte() {
        let body = Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x31, 0x7D, 0x1B])
        #expect(ExchangeOutput.printableBody(body, contentType: "application/json", terminal: false) == body)
    }

    @Test func onATerminalJSONIsPrettyPrintedInItsOwnKeyOrder() throws {
        let body = Data(#"{"zeta":1,"alpha":[true,null]}"#.utf8)
        let shown = String(
            decoding: ExchangeOutput.printableBody(body, contentType: "application/json", terminal: true), as: UTF8.self
        )
        #expect(shown.hasPrefix("{\n  \"zeta\": 1,\n  \"alpha\": ["))
        #expect(shown.hasSuffix("\n"))
    }

    @Test func onATerminalControlCharactersAreShownEscaped() {
        let body = Data("red \u{1B}[31mX\u{07}\u{00}\ttab\nline".utf8)
        let shown = String(
            decoding: ExchangeOutput.printableBody(body, contentType: "text/plain", terminal: true), as: UTF8.self)
        #expect(shown == "red \\e[31mX\\x07\\x00\ttab\nline\n")
    }

    @Test func onATerminalABinaryBodyIsDescribedNotWritten() {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF])
        let shown = String(
            decoding: ExchangeOutput.printableBody(png, contentType: "image/png", terminal: true), as: UTF8.self)
        #expect(shown == "(binary body, 9 bytes, image/png; pipe the output to a file to keep it)\n")
    }

    @Test func aLatin1BodyIsDecodedByItsCharset() {
        let body = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in ISO-8859-1
        #expect(ExchangeOutput.decodedText(body, contentType: "text/plain; charset=ISO-8859-1") == "café")
        #expect(ExchangeOutput.decodedText(body, contentType: "text/plain") == nil)
    }

    @Test func theTUIAndSendDecodeABodyTheSameWay() {
        // One charset decoder: a charset named in capitals, quoted, or UTF-16 reads the same in
        // `explorer send` and in the TUI's body pane.
        let bodies: [(Data, String)] = [
            (Data([0x63, 0x61, 0x66, 0xE9]), #"text/plain; charset="ISO-8859-1""#),
            (Data([0x80, 0x20, 0x35]), "text/plain; charset=Windows-1252"),
            (Data("héllo".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }), "text/plain; charset=utf-16be"),
        ]
        for (body, contentType) in bodies {
            let sent = ExchangeOutput.decodedText(body, contentType: contentType)
            let shown = BodyDocument.make(body, contentType: contentType).plainLine(0)
            #expect(sent != nil && sent == shown, "\(contentType)")
        }
    }

    @Test func jsonOutputHasTheDocumentedFields() throws {
        var entry = HistoryEntry(
            method: "GET", url: "http://h/v1/users", status: 404, reason: "Not Found",
            responseHeaders: ["Content-Type": "application/problem+json"],
            responseBody: Data(#"{"title":"Not Found"}"#.utf8),
            timings: HistoryTimings(totalMilliseconds: 12.3456, headMilliseconds: 10))
        entry.environment = "local"
        let text = ExchangeOutput.json(of: entry, historyId: 7)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "GET")
        #expect(object["url"] as? String == "http://h/v1/users")
        #expect(object["environment"] as? String == "local")
        #expect(object["status"] as? Int == 404)
        #expect(object["reason"] as? String == "Not Found")
        #expect((object["headers"] as? [String: String])?["Content-Type"] == "application/problem+json")
        #expect(object["body"] as? String == #"{"title":"Not Found"}"#)
        #expect(object["bodyEncoding"] == nil)
        #expect((object["timings"] as? [String: Double])?["total"] == 12.346)
        #expect(object["historyId"] as? Int == 7)
        #expect(!text.contains("\n"))
    }

    @Test func jsonOutputCarriesABinaryBodyAsBase64() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47])
        let text = ExchangeOutput.json(
            of: HistoryEntry(method: "GET", url: "http://h/i.png", status: 200, responseBody: png), historyId: nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["bodyEncoding"] as? String == "base64")
        #expect(object["body"] as? String == png.base64EncodedString())
        #expect(object["historyId"] is NSNull)
    }

    @Test func theHeadIsTheStatusLineThenTheHeaders() {
        let entry = HistoryEntry(
            method: "GET", url: "http://h/", status: 201, reason: "Created",
            responseHeaders: ["Location": "/users/9", "Content-Length": "0"], httpVersion: "HTTP/1.1")
        #expect(
            ExchangeOutput.head(of: entry, terminal: false)
                == "HTTP/1.1 201 Created\nLocation: /users/9\nContent-Length: 0\n\n")
    }
}

@Suite struct SendCommandPartsTests {
    @Test func varPairsSplitAtTheFirstEqualsSign() throws {
        #expect(
            try VariableOptions.parse(["a=1", "token=x=y", "a=2", "empty="]) == [
                "a": "2", "token": "x=y", "empty": "",
            ])
    }

    @Test func theCollectionFlagWinsThenExplorerYamlThenTheVariable() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let fromVariable = ["EXPLORER_COLLECTION": "/somewhere/api.yaml"]
        #expect(
            try CollectionLocation.resolve(
                explicit: "c.yaml", environment: fromVariable, currentDirectory: folder.url.path
            ).path
                == folder.url.appendingPathComponent("c.yaml").path)
        #expect(
            try CollectionLocation.resolve(explicit: nil, environment: fromVariable, currentDirectory: folder.url.path)
                .path
                == "/somewhere/api.yaml")
        try Data("name: x\n".utf8).write(to: folder.url.appendingPathComponent("explorer.yaml"))
        #expect(
            try CollectionLocation.resolve(explicit: nil, environment: fromVariable, currentDirectory: folder.url.path)
                .lastPathComponent
                == "explorer.yaml")
    }

    @Test func historyDatesAreDaysOrISO8601() {
        #expect(HistoryCommand.parseDate("2026-11-23") == Date(timeIntervalSince1970: 1_795_392_000))
        #expect(HistoryCommand.parseDate("2026-11-23T01:00:00Z") == Date(timeIntervalSince1970: 1_795_395_600))
        #expect(HistoryCommand.parseDate("2026-11-23T01:00:00.500Z") == Date(timeIntervalSince1970: 1_795_395_600.5))
        #expect(HistoryCommand.parseDate("last tuesday") == nil)
    }

    @Test func searchTextBecomesQuotedWholeWordPhrases() {
        #expect(HistoryStore.matchPattern("alice") == #""alice""#)
        #expect(HistoryStore.matchPattern("ali* users/42") == #""ali" * "users/42""#)
        #expect(HistoryStore.matchPattern(#"say "hi" OR"#) == #""say" """hi""" "OR""#)
        #expect(HistoryStore.matchPattern("?? --") == nil)
    }

    @Test func anExchangeWithoutACollectionIsResentAsStoredWithoutItsMaskedHeaders() throws {
        let entry = HistoryEntry(
            id: 3, method: "POST", url: "http://127.0.0.1:9/v1/echo?x=1",
            requestHeaders: ["Authorization": "Bearer ••••••", "Accept": "application/json"],
            requestBody: Data("{}".utf8))
        let plan = try HistoryCommand.plan(resending: entry)
        guard case .raw(let request) = plan.target else {
            Issue.record("expected a raw request")
            return
        }
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/v1/echo?x=1")
        #expect(request.headers["Authorization"] == nil)
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.body == Data("{}".utf8))
    }

    @Test func theHistoryFileFollowsXDGStateHome() {
        #expect(
            HistoryLocation.defaultFile(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"]).path
                == "/state/explorer/history.sqlite")
        #expect(
            HistoryLocation.defaultFile(environment: ["HOME": "/home/u"]).path
                == "/home/u/.local/state/explorer/history.sqlite")
        #expect(
            HistoryLocation.defaultFile(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]).path
                == "/home/u/.local/state/explorer/history.sqlite")
    }
}
