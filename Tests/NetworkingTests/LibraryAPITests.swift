import Foundation
import Networking
import Testing

// Public types of the library that the dispatcher's own tests reach only through other calls:
// each is tested here as a user of the library calls it.

@Suite struct ServerSentEventParserTests {
    @Test func eventsSplitAcrossChunksComeOutWholeWithTheirFields() {
        var parser = ServerSentEventParser()
        var events = parser.consume(Array(": a comment\nid: 7\nevent: tick\nda".utf8))
        #expect(events.isEmpty)
        events += parser.consume(Array("ta: one\ndata: two\nretry: 1500\n\n".utf8))
        #expect(events == [ServerSentEvent(id: "7", lastEventID: "7", event: "tick", data: "one\ntwo", retry: 1500)])
        #expect(parser.lastEventID == "7" && parser.reconnectionTime == 1500)

        // CR LF line ends, a default event type, and the last id carried over.
        #expect(parser.consume(Array("data: x\r\n\r\n".utf8)) == [ServerSentEvent(lastEventID: "7", data: "x")])
    }
}

@Suite struct PercentEncodingTests {
    @Test func formBodiesEncodeAsBrowsersDo() {
        #expect(
            PercentEncoding.form([URLQueryItem(name: "q", value: "a b&c=d"), URLQueryItem(name: "é", value: nil)])
                == "q=a+b%26c%3Dd&%C3%A9=")
        #expect(PercentEncoding.encode("a b/%41", allowed: PercentEncoding.pathAllowed) == "a%20b/%41")
        #expect(
            PercentEncoding.encode("a b/%41", allowed: PercentEncoding.unreserved, keepEscapes: false)
                == "a%20b%2F%2541")
    }
}

@Suite struct BodyLimitTests {
    @Test func eachLimitNamesItselfAndItsSize() {
        #expect("\(BodyLimit.bodyBytes(8 * 1024 * 1024))" == "the body limit of 8388608 bytes (8 MiB)")
        #expect("\(BodyLimit.decompressedBytes(1536))" == "the decompressed size limit of 1536 bytes (1.5 KiB)")
        #expect("\(BodyLimit.decompressionRatio(100))".hasPrefix("the decompression ratio limit of 100:1"))
        #expect(BodyLimit.size(512) == "512 B" && BodyLimit.size(2 << 30) == "2 GiB")
        let literal: BodyLimit = 1000
        #expect(literal == .bodyBytes(1000))
    }
}

@Suite struct OAuth2PiecesTests {
    @Test func pkceChallengeIsTheVerifiersSHA256InBase64URL() {
        let pkce = PKCE(verifier: "verifier-of-forty-three-characters-0123456")
        #expect(pkce.challenge == PKCE(verifier: pkce.verifier).challenge)
        #expect(pkce.challenge.count == 43 && !pkce.challenge.contains { "+/=".contains($0) })
        #expect(pkce.challenge != PKCE(verifier: pkce.verifier + "x").challenge)
        let fresh = PKCE()
        #expect((43...128).contains(fresh.verifier.count) && fresh.verifier != PKCE().verifier)
        #expect(
            fresh.verifier.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-._~".unicodeScalars.contains($0)
            })
    }

    @Test func theInMemoryCacheKeepsATokenPerKeyUntilRemoved() {
        let cache: any OAuth2TokenCache = InMemoryOAuth2TokenCache()
        cache.store(OAuth2Token(accessToken: "a", refreshToken: "r"), for: "api")
        cache.store(OAuth2Token(accessToken: "b"), for: "other")
        #expect(cache.token(for: "api")?.accessToken == "a" && cache.token(for: "api")?.refreshToken == "r")
        cache.removeToken(for: "api")
        #expect(cache.token(for: "api") == nil && cache.token(for: "other")?.accessToken == "b")
    }
}
