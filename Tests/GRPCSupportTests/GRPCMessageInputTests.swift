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
}
