import NetworkingCore

/// Request messages as grpcurl reads them from `-d`: JSON objects one after another,
/// separated by white space or nothing (`{"a":1}{"a":2}`, or one per line).
package enum GRPCMessageInput {
    /// The objects of a text, in order.
    ///
    /// - Throws: `GRPCMessageInputError` naming the message (from 1) and what is wrong.
    package static func messages(in text: String) throws -> [JSONValue] {
        var messages: [JSONValue] = []
        let bytes = Array(text.utf8)
        var index = 0
        while true {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index < bytes.count else { return messages }
            guard bytes[index] == UInt8(ascii: "{") else {
                throw GRPCMessageInputError(
                    number: messages.count + 1, problem: "expected a JSON object starting with {")
            }
            let end = try objectEnd(in: bytes, from: index, number: messages.count + 1)
            let slice = String(decoding: bytes[index..<end], as: UTF8.self)
            do {
                messages.append(try JSONValue(parsing: slice))
            } catch {
                throw GRPCMessageInputError(number: messages.count + 1, problem: String(describing: error))
            }
            index = end
        }
    }

    /// The index just past the object that starts at `start`.
    private static func objectEnd(in bytes: [UInt8], from start: Int, number: Int) throws -> Int {
        var depth = 0
        var inString = false
        var escaped = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        throw GRPCMessageInputError(number: number, problem: "it ends before its closing }")
    }
}

/// A `-d` text that is not a sequence of JSON objects.
package struct GRPCMessageInputError: Error, CustomStringConvertible, Sendable {
    /// Which message, from 1.
    package let number: Int
    /// What is wrong with it.
    package let problem: String

    package var description: String { "Request message \(number) is not valid JSON: \(problem)." }
}
