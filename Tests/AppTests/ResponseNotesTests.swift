import Foundation
import NetworkingCore
import Testing

@testable import App

/// What a response does not say of itself is said above its body: a redirect not followed
/// because of where it points, a body in a coding the explorer cannot decode.
@Suite struct ResponseNotesTests {
    private let url = URL(string: "http://127.0.0.1:8080/away")!

    private func snapshot(_ status: HTTPStatus, _ headers: HTTPHeaders, body: Data? = nil, followsRedirects: Bool)
        -> ResponseSnapshot
    {
        let response = Response<Data?>(
            statusCode: status, headers: headers, data: body, request: PreparedRequest(url: url), url: url)
        return ResponseSnapshot.make(response, followsRedirects: followsRedirects)
    }

    @Test func aRedirectToAnotherSchemeIsSaidAboveTheBody() {
        let shown = snapshot(.found, ["Location": "file:///etc/passwd"], followsRedirects: true)

        #expect(
            shown.errorSummary == [
                "http://127.0.0.1:8080/away redirected (302) to file:///etc/passwd, which was not followed: "
                    + "only http and https redirects are followed, and this one is to file:; the redirect itself is the response."
            ])
    }

    @Test func aRedirectAskedForWithFollowingOffGetsNoNote() {
        #expect(snapshot(.found, ["Location": "file:///etc/passwd"], followsRedirects: false).errorSummary == [])
    }

    @Test func aBodyInACodingExplorerCannotDecodeIsSaidAboveIt() {
        let shown = snapshot(
            .ok, ["Content-Encoding": "br"], body: Data([0x1B, 0x0B, 0x00, 0xF8]), followsRedirects: true)

        #expect(
            shown.errorSummary == [
                "The body is br-encoded and explorer cannot decode it (it decodes gzip and deflate); shown as received."
            ])
    }

    @Test func onlyCodingsTheTransportDoesNotDecodeAreNamed() {
        #expect(ResponseNotes.undecodedContentCoding("gzip") == nil)
        #expect(ResponseNotes.undecodedContentCoding("identity, deflate") == nil)
        #expect(ResponseNotes.undecodedContentCoding("gzip, zstd") == "zstd")
        #expect(ResponseNotes.undecodedContentCoding(nil) == nil)
    }
}
