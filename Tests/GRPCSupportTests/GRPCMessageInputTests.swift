import Foundation
import GRPCSupport
import NetworkingCore
import Testing

/// `-d` text as grpcurl reads it: JSON objects one after another.
@Suite struct GRPCMessageInputTests {
    @Test func objectsOneAfterAnotherAreEachAMessage() throws {
        let text = #"{"a": 1} {"b": "}{"}"# + "\n" + #"{"c": [{"d": "\"}"}]}{}"#
        let messages = try GRPCMessageInput.messages(in: text)
        #expect(messages == [["a": 1], ["b": "}{"], ["c": [["d": "\"}"]]], .object([])])
    }

    @Test func emptyInputIsNoMessage() throws {
        #expect(try GRPCMessageInput.messages(in: " \n\t").isEmpty)
    }

    @Test func aValueThatIsNotAnObjectIsRefusedNamingWhichMessage() {
        #expect {
            try GRPCMessageInput.messages(in: #"{"a": 1} [1, 2]"#)
        } throws: { error in
            String(describing: error) == "Request message 2 is not valid JSON: expected a JSON object starting with {."
        }
    }

    @Test func anUnclosedObjectIsRefused() {
        #expect {
            try GRPCMessageInput.messages(in: #"{"a": {"b": 1}"#)
        } throws: { error in
            String(describing: error).contains("message 1") && String(describing: error).contains("closing }")
        }
    }

    @Test func invalidJSONInsideAnObjectIsRefusedWithTheParsersWords() {
        #expect {
            try GRPCMessageInput.messages(in: #"{"a": tru}"#)
        } throws: { error in
            String(describing: error).hasPrefix("Request message 1 is not valid JSON:")
        }
    }

    @Test func piecesGiveEachObjectWhenItsClosingBraceArrives() throws {
        var splitter = GRPCMessageSplitter()
        let first = #"{"a": "x}y\"z", "b": [1, {"c": 2}]}"#
        let text = Array((first + #" {"d": 3}"#).utf8)
        var given: [[JSONValue]] = []
        for byte in text { given.append(try splitter.append([byte])) }
        given.append(try splitter.finish())
        let closing = given.indices.filter { !given[$0].isEmpty }
        // The first object is given at its own closing brace, not at the end of the input.
        #expect(closing == [first.utf8.count - 1, text.count - 1])
        #expect(given.flatMap { $0 } == [["a": "x}y\"z", "b": [1, ["c": 2]]], ["d": 3]])
    }

    @Test func anObjectLongerThanTheLimitIsRefusedSayingHowToRaiseIt() {
        var splitter = GRPCMessageSplitter(maximumObjectSize: 16)
        #expect {
            _ = try splitter.append(Array(#"{"a": "0123456789abcdef"#.utf8))
        } throws: { error in
            String(describing: error).contains("longer than 16 bytes")
                && String(describing: error).contains("--max-message-size")
        }
    }

    @Test func aPipeIsReadObjectByObjectAsItIsWritten() async throws {
        let pipe = Pipe()
        var messages = GRPCMessageInput.stream(from: pipe.fileHandleForReading, maximumObjectSize: 1 << 20)
            .makeAsyncIterator()
        pipe.fileHandleForWriting.write(Data(#"{"n": 1}{"n""#.utf8))
        // The first object arrives while the pipe is still open and the second half-written.
        #expect(try await messages.next() == ["n": 1])
        pipe.fileHandleForWriting.write(Data(#": 2}"#.utf8))
        try pipe.fileHandleForWriting.close()
        #expect(try await messages.next() == ["n": 2])
        #expect(try await messages.next() == nil)
    }
}
