import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// `websocket:` and `messages:` in a collection file: read, written back, and errors at the
/// line and column to fix.
@Suite struct WebSocketSettingsTests {
    static func collection(_ endpoints: String) -> String {
        """
        name: sockets
        environments:
          - name: local
            base_url: http://127.0.0.1:8080
        endpoints:
        \(endpoints)
        """
    }

    /// A WebSocket endpoint with the three forms of saved message, and an HTTP one.
    static let echoAndPlain = """
          - name: Echo
            path: /ws/echo
            websocket: true
            messages:
              - hello
              - name: Subscribe
                text: '{"op": "subscribe", "channel": "{{channel}}"}'
              - name: Order
                json: { op: buy, qty: 2 }
          - name: Plain
            path: /users
        """

    @Test func websocketTrueAndSavedMessagesAreRead() throws {
        let collection = try CollectionLoader.parse(Self.collection(Self.echoAndPlain), file: "s.yaml")
        let echo = try collection.endpoint(named: "Echo")
        #expect(echo.isWebSocket())
        #expect(
            echo.savedMessages == [
                SavedMessage(name: "hello", text: "hello"),
                SavedMessage(name: "Subscribe", text: #"{"op": "subscribe", "channel": "{{channel}}"}"#),
                SavedMessage(name: "Order", text: #"{"op":"buy","qty":2}"#, isJSON: true),
            ])
        let plain = try collection.endpoint(named: "Plain")
        #expect(!plain.isWebSocket())
        #expect(plain.isWebSocket(resolvedURL: "ws://127.0.0.1:8080/users"))
    }

    @Test func aWsURLPathIsAWebSocketWithoutTheKey() throws {
        let collection = try CollectionLoader.parse(
            Self.collection(
                """
                  - name: Remote
                    path: wss://echo.example.org/socket
                    messages: [ping]
                """))
        let remote = try collection.endpoint(named: "Remote")
        #expect(remote.isWebSocket())
        #expect(remote.savedMessages.map(\.text) == ["ping"])
    }

    @Test func theWriterWritesWhatTheLoaderReads() throws {
        let collection = try CollectionLoader.parse(Self.collection(Self.echoAndPlain))
        let written = try CollectionWriter.yaml(for: collection)
        #expect(written.contains("websocket: true"))
        let reread = try CollectionLoader.parse(written)
        #expect(reread == collection)
    }

    @Test func messagesOnAnHTTPEndpointPointAtTheKey() {
        let text = Self.collection(
            """
              - name: Users
                path: /users
                messages: [hello]
            """)
        #expect {
            try CollectionLoader.parse(text, file: "s.yaml")
        } throws: { error in
            (error as? CollectionError)?.description
                == "s.yaml:8:15: in the messages of endpoint \"Users\", messages are for WebSocket endpoints: add websocket: true (or use a ws:// URL)."
        }
    }

    @Test func aWebsocketThatIsNotABooleanNamesTheLineAndColumn() {
        let text = Self.collection(
            """
              - name: Echo
                path: /ws/echo
                websocket: sometimes
            """)
        #expect {
            try CollectionLoader.parse(text, file: "s.yaml")
        } throws: { error in
            (error as? CollectionError)?.description == "s.yaml:8:16: \"websocket\" must be true or false."
        }
    }

    @Test func aMessageWithoutTextOrJSONIsAnError() {
        let text = Self.collection(
            """
              - name: Echo
                path: /ws/echo
                websocket: true
                messages:
                  - name: Nothing
            """)
        #expect {
            try CollectionLoader.parse(text, file: "s.yaml")
        } throws: { error in
            (error as? CollectionError)?.description.hasPrefix("s.yaml:10:") == true
        }
    }

    @Test func aTranscriptKeepsWholeLinesUpToItsLimitAndCountsTheRest() {
        var transcript = WebSocketTranscript(limit: 200)
        for number in 0..<10_000 {
            transcript.append(.entry(.text("message \(number)", .received, time: Date(timeIntervalSince1970: 0))))
        }
        #expect(transcript.entryCount == 10_000)
        #expect(transcript.data.count <= 200)
        #expect(transcript.isTruncated)
        let first = String(decoding: transcript.data, as: UTF8.self).split(separator: "\n").first.map(String.init)
        #expect(
            first
                == #"{"direction":"received","kind":"text","time":"1970-01-01T00:00:00.000Z","size":9,"text":"message 0"}"#
        )
    }
}
