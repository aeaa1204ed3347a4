import Foundation
import Networking
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs a README example against a fresh server and a fresh screen.
private func withScreen(_ body: (ViewController, Recorder) async throws -> Void) async throws {
    MainQueue.mark()
    let server = try await PostsServer.start()
    defer { server.stop() }
    let recorder = Recorder()
    let screen = ViewController(server: server.baseURL, recorder: recorder)
    try await body(screen, recorder)
    withExtendedLifetime(screen) {}
}

@Suite struct PiuPiu13ReadmeTests {
    @Test func makingARequestDecodesOnTheMainQueueAndThrowsReachError() async throws {
        try await withScreen { screen, recorder in
            screen.makingARequest(path: "/posts/1")
            #expect(await recorder.wait(for: "completion on main: true"))
            #expect(recorder.events == ["post 1: sunt aut facere", "completion on main: true"])
        }
        try await withScreen { screen, recorder in
            // As the README writes it, `/posts` (an array) decoded as one `Post`: the throw in
            // `response` reaches `error`, then `completion`.
            screen.makingARequest(path: "/posts")
            #expect(await recorder.wait(for: "completion on main: true"))
            #expect(recorder.events.count == 2)
            #expect(recorder.events.first?.hasPrefix("error: Could not decode Post") == true)
        }
        try await withScreen { screen, recorder in
            // A 404: `response.error` is thrown to `error`.
            screen.makingARequest(path: "/posts/99")
            #expect(await recorder.wait(for: "completion on main: true"))
            #expect(recorder.events.first?.contains("answered 404 Not Found") == true)
        }
    }

    @Test func getPostsReturnsAFutureOfPosts() async throws {
        try await withScreen { screen, recorder in
            screen.callingGetPosts()
            #expect(await recorder.wait(for: "completion"))
            #expect(recorder.events == ["posts [1, 2]", "completion"])
        }
    }

    @Test func thenReplaceJoinGiveBothResultsThenCompletion() async throws {
        try await withScreen { screen, recorder in
            screen.future(request: BasicRequest(method: .get, path: "/posts/2"))
            #expect(await recorder.wait(for: "completion"))
            #expect(recorder.events == ["qui est esse (3 words) by Ervin Howell", "completion"])
        }
    }

    @Test func eachCallbackDoesWhatItsSectionSays() async throws {
        try await withScreen { screen, recorder in
            screen.callbacks(request: BasicRequest(method: .get, path: "/posts/1"))
            for event in [
                "response 200", "completion", "then: sunt aut facere", "replace: 3 words", "join: 1 by Leanne Graham",
            ] {
                #expect(await recorder.wait(for: event), "\(event)")
            }
            #expect(await recorder.wait(for: "error: Could not encode the request body: no request."))
        }
    }

    @Test func aFutureOfOurOwnDecodesInTheBackground() async throws {
        try await withScreen { screen, recorder in
            screen.creatingYourOwnResponseFuture()
            #expect(await recorder.wait(for: "decoded in the background: 2 posts"))
        }
    }

    @Test func encodingSetsTheBodyAndContentTypeTheServerReceives() async throws {
        try await withScreen { screen, recorder in
            let post = Fixture.posts[0]
            let requests = try screen.encoding(
                jsonString: #"{"name":"Kevin Malone"}"#, myCodable: post, myData: Data([0, 1, 2, 0xFF]))
            let dispatcher = NetworkDispatcher(serverProvider: screen, callbackQueue: .global())
            var echoes: [(String?, Data?)] = []
            for request in requests {
                let response = try await dispatcher.future(from: request).value
                #expect(response.statusCode == .created)
                echoes.append((response.headers["Content-Type"], response.body))
            }
            #expect(echoes[0].0 == "application/json" && echoes[0].1 == Data(#"{"name":"Kevin Malone"}"#.utf8))
            #expect(
                echoes[1].0 == "application/json" && echoes[1].1 == Data(#"{"id":"123","name":"Kevin Malone"}"#.utf8))
            #expect(echoes[2].0 == "application/json")
            #expect(try JSONDecoder().decode(Post.self, from: try #require(echoes[2].1)) == post)
            #expect(echoes[3].1 == Data([0, 1, 2, 0xFF]))

            screen.wrapEncodingInAResponseFuture(myCodable: post)
            #expect(await recorder.wait { $0.contains { $0.hasPrefix("sent: ") } })
            let sent = try #require(recorder.events.first { $0.hasPrefix("sent: ") }?.dropFirst("sent: ".count))
            #expect(try JSONDecoder().decode(Post.self, from: Data(sent.utf8)) == post)
        }
    }

    @Test func decodingUnwrapsDecodesStringsAndDecodables() async throws {
        try await withScreen { screen, recorder in
            screen.decoding(request: BasicRequest(method: .get, path: "/posts"))
            let body = try JSONEncoder.sorted.encode(Fixture.posts)
            #expect(await recorder.wait(for: "data: \(body.count) bytes"))
            #expect(await recorder.wait(for: "string: \(String(decoding: body, as: UTF8.self))"))
            #expect(await recorder.wait(for: "posts: [1, 2]"))
        }
        try await withScreen { screen, recorder in
            // A 204's body is empty: there is data (none), a string (empty), but no posts.
            screen.decoding(request: BasicRequest(method: .get, path: "/empty"))
            #expect(await recorder.wait(for: "data: 0 bytes"))
            #expect(await recorder.wait(for: "string: "))
            #expect(
                await recorder.wait(
                    for: "decode error: Could not decode Array<Post>: The given data was not valid JSON. (body: )."))
        }
    }

    @Test func memoryManagementExamplesBehaveAsDescribed() async throws {
        try await withScreen { screen, recorder in
            let posts = BasicRequest(method: .get, path: "/posts")
            screen.strongCallbacks(request: posts)
            #expect(await recorder.wait(for: "shown [1, 2] on main: true"))

            screen.forceUnwrappingATextField(request: posts)
            #expect(await recorder.wait(for: "text field: Success"))

            screen.strongReferenceToAResponseFuture(request: posts)
            #expect(await recorder.wait(for: "postResponseFuture released: true"))

            screen.circularReference(request: posts)
            let body = try JSONEncoder.sorted.encode(Fixture.posts)
            #expect(await recorder.wait(for: "shown \(body.count) bytes"))
            weak let held = screen.strongResponseFuture
            #expect(held != nil)  // the cycle the README warns about
            screen.strongResponseFuture = nil
            // The sending task may still hold the future for a moment after its callbacks ran.
            #expect(await eventually { held == nil })

            screen.weakReferenceToAResponseFuture(request: posts)
            #expect(await recorder.wait(for: "weak: completion"))

            screen.weakReferenceBeforeSend(request: posts)
            #expect(recorder.events.last == "weak future before send is nil: true")
            #expect(!recorder.events.contains("never: completion"))
        }
    }

    @Test func customEncodingAndDecodingExtendTheLibrary() async throws {
        try await withScreen { screen, _ in
            let dispatcher = NetworkDispatcher(serverProvider: screen, callbackQueue: .global())
            let post = Fixture.posts[1]

            var one = BasicRequest(method: .post, path: "/posts")
            one.setJSONBody(mappable: post)
            #expect(try await dispatcher.future(from: one).value.decodeMappable(Post.self) == post)

            var many = BasicRequest(method: .post, path: "/posts")
            many.setJSONBody(mappable: Fixture.posts)
            #expect(try await dispatcher.future(from: many).value.decodeMappable([Post].self) == Fixture.posts)

            var byName = BasicRequest(method: .post, path: "/posts")
            byName.setJSONBody(string: #"{"a":{"id":1,"userId":1,"title":"t","body":"b"}}"#)
            #expect(
                try await dispatcher.future(from: byName).value.decodeMappable([String: Post].self)["a"]?.title == "t")

            var lists = BasicRequest(method: .post, path: "/posts")
            lists.setJSONBody(string: #"{"a":[{"id":1,"userId":1,"title":"t","body":"b"}]}"#)
            #expect(
                try await dispatcher.future(from: lists).value.decodeMappable([String: [Post]].self)["a"]?.first?.id
                    == 1)

            var encodable = BasicRequest(method: .post, path: "/posts")
            try encodable.setJSONBody(mapEncodable: post, options: [.sortedKeys])
            let echoed = try await dispatcher.future(from: encodable).value
            #expect(echoed.headers["Content-Type"] == "application/json")
            #expect(try echoed.decodeMapDecodable(Post.self) == post)
            // The command that sends it again: a property, as a log line interpolates it.
            let logged = "sent: \(echoed.request.curlDescription)"
            #expect(logged.hasPrefix("sent: curl ") && logged.contains("/posts") && logged.contains("--data-binary"))

            var array = BasicRequest(method: .post, path: "/posts")
            array.setJSONBody(mappable: Fixture.posts)
            #expect(try await dispatcher.future(from: array).value.decodeMapDecodable([Post].self) == Fixture.posts)

            // A body that is not a post: the error is the one the extension chose.
            let notAPost = try await dispatcher.future(from: BasicRequest(method: .get, path: "/greeting")).value
            #expect(throws: SerializationError.self) { try notAPost.decodeMapDecodable(Post.self) }
            #expect(throws: SerializationError.failedToDecodeResponseData(cause: nil)) {
                try notAPost.decodeMappable(Post.self)
            }
        }
    }
}

@Suite struct PiuPiu2ReadmeTests {
    @Test func aURLRequestDispatcherSendsAndTheResponseDecodesEveryWay() async throws {
        let server = try await PostsServer.start()
        defer { server.stop() }
        let screen = PostsScreen(server: server.baseURL)

        let one = try await screen.makingARequest()
        #expect(one.statusCode == .ok)
        #expect(try one.decode(Post.self) == Fixture.posts[0])

        let all = try await screen.allPosts()
        let (data, data2) = try PiuPiu2Decoding.unwrappingData(all)
        #expect(data == (try JSONEncoder.sorted.encode(Fixture.posts)) && data2 == data)
        let (posts, posts2) = try await PiuPiu2Decoding.decodeDecodable(all)
        #expect(posts == Fixture.posts && posts2 == Fixture.posts)
        let (chained, status) = try await PiuPiu2Decoding.chaining(all)
        #expect(chained == Fixture.posts && status == .ok)

        #expect(try PiuPiu2Decoding.decodeString(try await screen.greeting()) == "Piu piu ✨")
    }

    @Test func chainingStopsAtAnErrorStatusWithItsBody() async throws {
        let server = try await PostsServer.start()
        defer { server.stop() }
        let dispatcher = URLRequestDispatcher()
        let response = try await dispatcher.data(
            from: URLRequestFor.get(server.baseURL.appendingPathComponent("posts/99")))
        let error = await #expect(throws: HTTPError.self) { try await PiuPiu2Decoding.chaining(response) }
        #expect(error?.status == .notFound && error?.body == Data("{}".utf8))
    }

    @Test func transformsDecodeAndEncodeBothWays() throws {
        let model = try JSONDecoder().decode(ExampleModel.self, from: Data(#"{"timeZoneId":"America/Montreal"}"#.utf8))
        #expect(model.timeZone.identifier == "America/Montreal")
        #expect(
            String(
                decoding: try JSONEncoder().encode(ExampleModel(timeZone: TimeZone(identifier: "Europe/Paris")!)),
                as: UTF8.self) == #"{"timeZoneId":"Europe\/Paris"}"#)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ExampleModel.self, from: Data(#"{"timeZoneId":"Mars/Olympus"}"#.utf8))
        }

        let json = #"{"born":"1990-04-01","homepage":"https://example.com/a b","id":"42","code":7,"value":""}"#
        let profile = try JSONDecoder().decode(Profile.self, from: Data(json.utf8))
        #expect(Profile.days.string(from: profile.born) == "1990-04-01")
        #expect(profile.homepage.absoluteString == "https://example.com/a%20b")
        #expect(profile.id == 42 && profile.code == "7" && profile.value == nil && profile.nickname == nil)
        let encoded = try #require(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(profile)) as? [String: Any])
        #expect(
            encoded["born"] as? String == "1990-04-01" && encoded["homepage"] as? String == "https://example.com/a%20b")
        #expect(encoded["id"] as? String == "42" && encoded["code"] as? Int == 7 && encoded["value"] as? String == "")
        #expect(encoded["nickname"] as? String == "")  // `nil` is written as "", the transform's way
    }
}

@Suite struct PiuPiuMockDispatcherTests {
    @Test func theMockAnswersWithoutCallingTheURL() async throws {
        MainQueue.mark()
        let recorder = Recorder()
        let codable = Fixture.posts

        // --- README ---
        let url = URL(string: "https://jsonplaceholder.typicode.com")!
        let dispatcher = MockDispatcher(baseUrl: url, mockStatusCode: .ok)
        let request = BasicRequest(method: .get, path: "/posts")
        try dispatcher.setMockData(codable)

        /// The url specified is not actually called.
        dispatcher.future(from: request).response({ response in  // test: callbacks to see it
            recorder.record(
                "\(response.statusCode.code) \(try response.decode([Post].self).count) on main: \(MainQueue.isCurrent)")
        }).completion({ recorder.record("completion") }).send()
        // --- README ends ---

        #expect(await recorder.wait(for: "completion"))
        #expect(recorder.events == ["200 2 on main: true", "completion"])
        #expect(dispatcher.recordedRequests.map(\.url.absoluteString) == ["https://jsonplaceholder.typicode.com/posts"])
    }

    @Test func mockDataFromJSONObjectsAndBytesAndAnErrorStatus() async throws {
        let dispatcher = MockDispatcher(baseUrl: URL(string: "https://example.com/api")!, mockStatusCode: .created)
        try dispatcher.setMockData(["id": "123", "name": "Kevin Malone", "manager": nil] as [String: Any?])
        let created = try await dispatcher.future(from: BasicRequest(method: .post, path: "/users")).value
        #expect(created.statusCode == .created)
        #expect(created.headers["Content-Type"] == "application/json")
        #expect(try created.decodeString() == #"{"id":"123","manager":null,"name":"Kevin Malone"}"#)

        try dispatcher.setMockData([["id": 1], ["id": 2]] as [[String: Any?]])
        let users = try await dispatcher.future(from: BasicRequest(path: "/users")).value
        // PiuPiu's `decodeJSONObject()`: Foundation's object, cast as PiuPiu code casts it.
        #expect((try users.decodeJSONObject() as? [[String: Any]])?[1]["id"] as? Int == 2)
        // The library's own value: members in order, numbers as written.
        #expect(try users.decodeJSONValue()[1]?["id"]?.numberValue == 2)
        #expect(try users.decodeJSONValue().serialized() == #"[{"id":1},{"id":2}]"#)

        dispatcher.mockStatusCode = .notFound
        dispatcher.setMockData(Data("gone".utf8))
        let missing = try await dispatcher.future(from: BasicRequest(path: "/users/9")).value
        #expect(missing.error?.status == .notFound && missing.error?.body == Data("gone".utf8))

        // A stub answers what it matches; the mock response answers the rest.
        dispatcher.stub(.get, path: "/users/1", with: .text("one"))
        #expect(try await dispatcher.future(from: BasicRequest(path: "/users/1")).value.decodeString() == "one")
        #expect(try await dispatcher.future(from: BasicRequest(path: "/users/2")).value.statusCode == .notFound)
    }
}

extension JSONEncoder {
    /// The encoder the server answers with.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

/// Requests built for a test, not a README example.
enum URLRequestFor {
    static func get(_ url: URL) -> URLRequest { URLRequest(url: url, method: .get) }
}
