import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// A request line is `METHOD URL`, the method one of those the JetBrains HTTP client's grammar
/// lists (and REST Client's WebDAV ones), or a URL alone for a GET; any other first word makes
/// no request line, as both tools read it.
@Suite struct HTTPFileRequestLineTests {
    @Test func anUnknownMethodLeavesTheRequestOutWithItsLine() throws {
        let text = """
            ### Broken
            INVALIDMETHOD /test

            ### Fine
            GET https://api.test/items
            """
        let result = try HTTPFileImporter().importText(text, file: "api.http")
        #expect(result.collection.endpoints.map(\.method) == [.get])
        #expect(result.collection.endpoints.first?.name == "Fine")
        #expect(
            result.warnings.contains {
                $0.hasPrefix("api.http:2: \"INVALIDMETHOD /test\" is not a request line (INVALIDMETHOD is not a method")
            })
        #expect(!result.warnings.joined().contains("http://INVALIDMETHOD"))
    }

    @Test func theJetBrainsClientsOwnRequestKindsAreNamedWhenLeftOut() throws {
        let text = """
            WEBSOCKET ws://localhost:8080/chat
            ###
            GET https://api.test/items
            """
        let result = try HTTPFileImporter().importText(text, file: "ws.http")
        #expect(result.collection.endpoints.count == 1)
        #expect(result.warnings.contains { $0.hasPrefix("ws.http:1: a JetBrains WEBSOCKET request is not read") })
    }

    @Test func aFileWithOnlyAnUnknownMethodHasNoRequest() {
        let error = #expect(throws: ImportError.self) {
            try HTTPFileImporter().importText("INVALIDMETHOD /test\n", file: "only.http")
        }
        #expect(error?.description.contains("only.http") == true)
    }

    @Test func knownMethodsInAnyCaseAndAURLAloneAreRequests() throws {
        let text = """
            PROPFIND https://dav.test/files
            ###
            https://api.test/health
            ###
            patch https://api.test/items/1
            """
        let endpoints = try HTTPFileImporter().importText(text, file: "ok.http").collection.endpoints
        #expect(endpoints.count == 3)
        #expect(endpoints[0].method.rawValue == "PROPFIND")
        #expect(endpoints[1].method == .get)
    }
}
