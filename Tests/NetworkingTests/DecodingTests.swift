import Foundation
import Networking
import Testing

@Suite struct DecodingTests {
    @Test func textUsesTheCharsetFromContentTypeThenUTF8ThenLatin1() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)

        let named = try await dispatcher.future(from: BasicRequest(path: "/latin1", queryItems: [URLQueryItem(name: "named", value: "1")])).ensureString().value
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

    @Test func decodeJSONObjectGivesASendableTree() throws {
        let request = PreparedRequest(url: URL(string: "http://h/")!)
        let body = Data(#"{"a":[1,"two",true,null],"b":{"c":1.5}}"#.utf8)
        let json = try Response<Data?>(statusCode: .ok, headers: [:], data: body, request: request).decodeJSONObject()

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
}
