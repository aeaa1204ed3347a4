import Foundation
import Networking
import Testing

@Suite struct RequestBodyTests {
    struct Post: Codable, Sendable, Equatable {
        var id: Int
        var title: String
    }

    private func echo(_ request: BasicRequest, on server: TestServer) async throws -> Echo {
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        return try await dispatcher.future(from: request).ensureValidResponse().ensureDecoded(Echo.self).value.body
    }

    @Test func jsonBodiesSetContentType() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }

        var fromString = BasicRequest(method: .post, path: "/echo")
        fromString.setJSONBody(string: #"{"a":1}"#)
        let first = try await echo(fromString, on: server)
        #expect(first.body == #"{"a":1}"#)
        #expect(first.header("content-type") == "application/json")

        var fromObject = BasicRequest(method: .put, path: "/echo")
        try fromObject.setJSONBody(jsonObject: ["b": 2, "a": [true]])
        #expect(try await echo(fromObject, on: server).body == #"{"a":[true],"b":2}"#)

        var fromEncodable = BasicRequest(method: .patch, path: "/echo")
        try fromEncodable.setJSONBody(encodable: Post(id: 1, title: "Hi"))
        let third = try await echo(fromEncodable, on: server)
        #expect(try JSONDecoder().decode(Post.self, from: Data(third.body.utf8)) == Post(id: 1, title: "Hi"))
        #expect(third.method == "PATCH")
    }

    @Test func formBodiesAreURLEncoded() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        var request = BasicRequest(method: .post, path: "/echo")
        request.setFormBody([URLQueryItem(name: "name", value: "Jane Doe"), URLQueryItem(name: "q", value: "a&b=c+d")])

        let echoed = try await echo(request, on: server)

        #expect(echoed.body == "name=Jane+Doe&q=a%26b%3Dc%2Bd")
        #expect(echoed.header("content-type") == "application/x-www-form-urlencoded")
    }

    @Test func multipartBodiesCarryFieldsAndFiles() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        var request = BasicRequest(method: .post, path: "/echo")
        request.setMultipartBody(
            [
                .field("title", "Hello"),
                .file("upload", filename: "a.txt", contentType: "text/plain", data: Data("file body".utf8)),
            ],
            boundary: "XYZ")

        let echoed = try await echo(request, on: server)

        #expect(echoed.header("content-type") == "multipart/form-data; boundary=XYZ")
        #expect(
            echoed.body
                == "--XYZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n--XYZ\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nfile body\r\n--XYZ--\r\n"
        )
    }

    @Test func rawBodiesAreSentAsGiven() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        var request = BasicRequest(method: .post, path: "/echo")
        let bytes = Data([0, 1, 2, 255])
        request.setBody(bytes)

        let echoed = try await echo(request, on: server)
        #expect(Data(base64Encoded: echoed.bodyBase64) == bytes)
        #expect(echoed.header("content-type") == "application/octet-stream")
    }
}

@Suite struct CurlDescriptionTests {
    @Test func curlDescriptionRunThroughRealCurlEchoesTheSameRequest() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let dispatcher = NetworkDispatcher(serverProvider: server.environment, transport: sharedTransport)
        var request = BasicRequest(
            method: .post, path: "/echo/it's here",
            queryItems: [URLQueryItem(name: "q", value: "a b&c"), URLQueryItem(name: "x", value: "[1]")],
            headers: ["X-Quote": #"it's "quoted" $HOME `ls`"#, "Accept": "application/json", "X-Empty": ""])
        request.setJSONBody(string: #"{"text":"it's $(rm -rf /) \"ok\""}"#)

        let sent = try await dispatcher.future(from: request).ensureDecoded(Echo.self).value
        let viaDispatcher = sent.body
        // A property, as a user interpolates it: the request the response says was sent.
        let command = "\(sent.request.curlDescription)"
        #expect(command == (try request.prepared(baseURL: server.baseURL).curlDescription))
        let viaCurl = try JSONDecoder().decode(Echo.self, from: try await runShell(command + " --silent --show-error"))

        #expect(viaCurl.method == viaDispatcher.method)
        #expect(viaCurl.uri == viaDispatcher.uri)
        #expect(viaCurl.body == viaDispatcher.body)
        for name in ["X-Quote", "Accept", "Content-Type", "X-Empty"] {
            #expect(viaCurl.header(name) == viaDispatcher.header(name), "\(name)")
        }
        #expect(command.contains("-H 'X-Empty;'") && viaCurl.header("X-Empty") == "")
    }

    @Test func binaryBodiesAndHeadRequestsAreQuotedForTheShell() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        var request = BasicRequest(method: .put, path: "/echo")
        request.setBody(Data([0x00, 0x27, 0x5C, 0x0A, 0xFF, 0x41]))

        let viaCurl = try JSONDecoder().decode(
            Echo.self, from: try await runShell(try request.prepared(baseURL: server.baseURL).curlDescription + " -s"))

        #expect(viaCurl.method == "PUT")
        #expect(Data(base64Encoded: viaCurl.bodyBase64) == Data([0x00, 0x27, 0x5C, 0x0A, 0xFF, 0x41]))
        #expect(
            try BasicRequest(method: .head, path: "/").prepared(baseURL: server.baseURL).curlDescription.contains(
                "--head"))
    }

    @Test func secretsAreRedactedOnRequest() throws {
        let request = BasicRequest(
            path: "/", headers: ["Authorization": "Bearer abc", "Cookie": "s=1", "X-Api-Key": "k", "X-Other": "v"])
        let base = URL(string: "https://api.example.com")!

        let prepared = try request.prepared(baseURL: base)
        let redacted = prepared.redactedCurlDescription()
        #expect(!redacted.contains("abc") && !redacted.contains("s=1") && !redacted.contains("'X-Api-Key: k'"))
        #expect(redacted.contains("'X-Other: v'") && redacted.contains("'Authorization: REDACTED'"))
        #expect(prepared.curlDescription.contains("'Authorization: Bearer abc'"))
        #expect(prepared.redactedCurlDescription(hiding: ["x-other"]).contains("'X-Other: REDACTED'"))
    }

    private func runShell(_ command: String) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // Wait on a thread of its own: blocking a cooperative thread while curl talks to the
        // in-process test server, which needs those threads, can deadlock the test run.
        let data = await withCheckedContinuation { continuation in
            Thread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }.start()
        }
        #expect(process.terminationStatus == 0, "curl failed: \(command)")
        return data
    }
}
