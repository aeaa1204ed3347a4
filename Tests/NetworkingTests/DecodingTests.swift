import Foundation
import Networking
import Testing

@Suite struct DecodingTests {
    @Test func textUsesTheCharsetFromContentTypeThenUTF8ThenLatin1() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let named = try await dispatcher.future(
            from: BasicRequest(path: "/latin1", queryItems: [URLQueryItem(name: "named", value: "1")])
        ).ensureString().value
        #expect(named.body == "café")
        let unnamed = try await dispatcher.future(from: BasicRequest(path: "/latin1")).ensureString().value
        #expect(unnamed.body == "café")
        let utf16 = try await dispatcher.future(from: BasicRequest(path: "/utf16")).ensureString().value
        #expect(utf16.body == "héllo")
    }

    @Test func unwrapDataFailsWithMissingBody() throws {
        let request = PreparedRequest(url: URL(string: "http://h/")!)
        let response = Response<Data?>(statusCode: .noContent, headers: [:], data: nil, request: request)
        #expect(throws: SerializationError.missingBody) { try response.unwrapData() }
    }

    @Test func decodeJSONObjectGivesFoundationsObjectAsPiuPiuDoes() throws {
        let request = PreparedRequest(url: URL(string: "http://h/")!)
        let body = Data(#"{"a":[1,"two",true,null],"b":{"c":1.5}}"#.utf8)
        let response = Response<Data?>(statusCode: .ok, headers: [:], data: body, request: request)

        let object = try #require(try response.decodeJSONObject() as? [String: Any])
        let array = try #require(object["a"] as? [Any])
        #expect(
            array[0] as? Int == 1 && array[1] as? String == "two" && array[2] as? Bool == true && array[3] is NSNull)
        #expect((object["b"] as? [String: Any])?["c"] as? Double == 1.5)
        #expect(try response.ensureData().decodeJSONObject() is [String: Any])
        #expect(
            try Response<Data?>(statusCode: .ok, headers: [:], data: Data("[1]".utf8), request: request)
                .decodeJSONObject() is [Any])

        let broken = Response<Data?>(statusCode: .ok, headers: [:], data: Data("{\"a\":".utf8), request: request)
        #expect(throws: SerializationError.self) { try broken.decodeJSONObject() }
        #expect(throws: SerializationError.missingBody) {
            try Response<Data?>(statusCode: .noContent, headers: [:], data: nil, request: request).decodeJSONObject()
        }
    }

    @Test func decodeJSONValueGivesASendableTree() throws {
        let request = PreparedRequest(url: URL(string: "http://h/")!)
        let body = Data(#"{"a":[1,"two",true,null],"b":{"c":1.5}}"#.utf8)
        let json = try Response<Data?>(statusCode: .ok, headers: [:], data: body, request: request).decodeJSONValue()

        #expect(json["a"]?[1]?.stringValue == "two")
        #expect(json["a"]?[3] == .null)
        #expect(json["b"]?["c"]?.numberValue == 1.5)
        #expect((json.anyValue as? [String: Any])?["a"] is [Any])
    }

    @Test func statusesHaveReasonPhrasesAndKinds() {
        #expect(HTTPStatus.tooManyRequests.reasonPhrase == "Too Many Requests")
        #expect(HTTPStatus(code: 599).reasonPhrase == "Server Error")
        #expect(HTTPStatus(code: 204).isSuccess)
        #expect(HTTPStatus.found.kind == .redirection)
    }

    @Test func headersLookUpCaseInsensitivelyAndKeepOrder() {
        var headers: HTTPHeaders = ["Set-Cookie": "a=1", "Content-Type": "text/plain"]
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers["content-type"] == "text/plain")
    }

    @Test func headerNamesCompareIgnoringASCIICaseOnly() {
        let headers: HTTPHeaders = ["X-Request-Id": "1", "Straße": "2", "K@Y": "3"]
        #expect(headers["x-request-id"] == "1")
        #expect(headers["X-REQUEST-ID"] == "1")
        // Letters only: `@` and `` ` `` differ by the same bit as `K` and `k` do.
        #expect(headers["k@y"] == "3")
        #expect(headers["k`y"] == nil)
        #expect(headers["X-Request-I"] == nil)
        // Names with other characters still compare through full lowercasing.
        #expect(headers["STRASSE"] == nil)
        #expect(headers["straße"] == "2")
        #expect(headers["STRAßE"] == "2")
    }
}
