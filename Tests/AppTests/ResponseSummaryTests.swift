import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Workspace

/// What an error response says, and what a failed transport means, in a person's words.
@Suite struct ResponseSummaryTests {
    private func summary(_ status: Int, _ body: String, _ contentType: String) -> [String] {
        ResponseSnapshot.errorSummary(
            status: status, document: BodyDocument.make(Data(body.utf8), contentType: contentType))
    }

    @Test func problemJSONGivesTitleDetailInstanceAndFieldErrors() {
        let body = #"""
            {"type":"about:blank","title":"Invalid request","detail":"2 fields are invalid","instance":"/users/7",
             "errors":[{"field":"email","message":"is not an email"},{"pointer":"/name","detail":"is required"}]}
            """#
        #expect(
            summary(422, body, "application/problem+json") == [
                "Invalid request — 2 fields are invalid",
                "instance: /users/7",
                "• email: is not an email",
                "• /name: is required",
            ])
    }

    @Test func problemJSONWithOnlyATitle() {
        #expect(summary(404, #"{"title":"Not Found"}"#, "application/problem+json") == ["Not Found"])
    }

    @Test func successfulResponsesHaveNoSummary() {
        #expect(summary(200, #"{"title":"x"}"#, "application/json") == [])
        #expect(summary(302, "moved", "text/plain") == [])
    }

    @Test func anHTMLErrorPageGivesItsText() {
        let html =
            "<html><head><title>T</title><style>p{color:red}</style></head><body><h1>500 Internal Server Error</h1><p>Something &amp; something broke.</p><script>alert(1)</script></body></html>"
        #expect(summary(500, html, "text/html") == ["500 Internal Server Error Something & something broke."])
    }

    @Test func otherBodiesGiveTheirFirstLine() {
        #expect(summary(503, "upstream down\nretry later", "text/plain") == ["upstream down"])
        #expect(summary(400, #"{"message":"nope"}"#, "application/json") == [#"{"message":"nope"}"#])
        #expect(summary(500, "", "text/plain") == [])
    }

    @Test func htmlTextDropsTagsScriptsAndFoldsWhitespace() {
        #expect(HTMLText.readable("<p>a\n\n   b</p><script>var x = '<p>';</script><div>c&lt;d&gt;</div>") == "a b c<d>")
        #expect(
            HTMLText.readable("<HEAD><TITLE>t</TITLE></HEAD><b>bold</b>&nbsp;&quot;q&quot; &#39;s&#39;")
                == "bold \"q\" 's'")
        #expect(HTMLText.readable("") == "")
    }

    /// `&amp;lt;` is text that reads `&lt;`: entities decode once, whatever the order.
    @Test func anEscapedEntityIsDecodedOnce() {
        #expect(HTMLText.readable("<p>write &amp;lt; for &lt;</p>") == "write &lt; for <")
        #expect(HTMLText.readable("&amp;amp;") == "&amp;")
    }

    @Test(arguments: [
        (TransportError.connectionRefused(host: "127.0.0.1", port: 8080), "connection refused", "127.0.0.1:8080"),
        (TransportError.dnsFailure(host: "api.invalid"), "DNS failure", "api.invalid"),
        (TransportError.timedOut(url: URL(string: "http://a/")!, phase: "reading"), "timed out", "in time"),
        (TransportError.tlsFailure(host: "self.signed", reason: .other("bad cert")), "TLS failure", "self.signed"),
        (TransportError.notConnected(host: "a", reason: "down"), "not connected", "network"),
        (TransportError.invalidURL("::"), "invalid URL", "base_url"),
        (TransportError.tooManyRedirects(url: URL(string: "http://a/")!, limit: 5), "too many redirects", "loop"),
        (TransportError.connectionClosed(url: URL(string: "http://a/")!), "connection closed", "closed the connection"),
        (
            TransportError.decompressionFailed(url: URL(string: "http://a/")!, reason: "gzip"), "decompression failed",
            "Content-Encoding"
        ),
    ])
    func transportFailuresHaveACategoryAndAHint(error: TransportError, category: String, hintContains: String) {
        let failure = TransportFailure(error)
        #expect(failure.category == category)
        #expect(failure.message == error.description)
        #expect(failure.hint?.contains(hintContains) == true)
    }

    @Test func cancelledAndUnknownErrorsHaveNoHint() {
        #expect(TransportFailure(TransportError.cancelled).hint == nil)
        #expect(TransportFailure(TransportError.cancelled).category == "cancelled")
        struct Odd: Error {}
        let odd = TransportFailure(Odd())
        #expect(odd.category == "error")
        #expect(odd.hint == nil)
    }
}
