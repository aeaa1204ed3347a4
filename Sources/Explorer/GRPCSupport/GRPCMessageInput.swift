import Foundation
import NetworkingCore

/// Request messages as grpcurl reads them from `-d`: JSON objects one after another,
/// separated by white space or nothing (`{"a":1}{"a":2}`, or one per line).
package enum GRPCMessageInput {
    /// The objects of a text, in order.
    ///
    /// - Throws: `GRPCMessageInputError` naming the message (from 1) and what is wrong.
    package static func messages(in text: String) throws -> [JSONValue] {
        var splitter = GRPCMessageSplitter()
        var messages = try splitter.append(Array(text.utf8))
        messages += try splitter.finish()
        return messages
    }

    /// The objects read from a file or a pipe as they come, so that a client or bidirectional
    /// stream sends each one as soon as it is complete (`-d @-` typed or piped), as grpcurl does.
    ///
    /// The reading runs on a thread of its own (a read of a terminal or a pipe blocks); the
    /// sequence ends at the end of the input and throws at the first object that is not JSON.
    ///
    /// - Parameters:
    ///   - handle: where the objects come from (standard input, a file).
    ///   - maximumObjectSize: the longest text one object may have, in bytes.
    package static func stream(from handle: FileHandle, maximumObjectSize: Int) -> AsyncThrowingStream<
        JSONValue, any Error
    > {
        let (stream, continuation) = AsyncThrowingStream<JSONValue, any Error>.makeStream()
        let thread = Thread {
            var splitter = GRPCMessageSplitter(maximumObjectSize: maximumObjectSize)
            do {
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    for message in try splitter.append(Array(chunk)) {
                        if case .terminated = continuation.yield(message) { return }
                    }
                }
                for message in try splitter.finish() { continuation.yield(message) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = "grpc-message-input"
        thread.start()
        return stream
    }
}

/// Cuts JSON objects out of text that comes in pieces: each `append` gives the objects its
/// bytes completed. The scan resumes where it stopped, so a long object that arrives in many
/// pieces is read once.
package struct GRPCMessageSplitter: Sendable {
    /// The longest text one object may have, in bytes.
    package let maximumObjectSize: Int
    private var buffer: [UInt8] = []
    /// Where the scan of the object in `buffer` stopped, and its state there.
    private var scanned = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// How many objects were given, for errors.
    private var count = 0

    /// Creates a splitter.
    ///
    /// - Parameter maximumObjectSize: the longest text one object may have (64 MiB unless set).
    package init(maximumObjectSize: Int = 64 << 20) {
        self.maximumObjectSize = maximumObjectSize
    }

    /// The objects the bytes complete, in order.
    ///
    /// - Throws: `GRPCMessageInputError` for text that is not an object, an object that is not
    ///   JSON, or one longer than `maximumObjectSize`.
    package mutating func append(_ bytes: [UInt8]) throws -> [JSONValue] {
        buffer += bytes
        var objects: [JSONValue] = []
        while true {
            if depth == 0 && scanned == 0 {
                let start = buffer.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? buffer.count
                buffer.removeFirst(start)
                guard let first = buffer.first else { return objects }
                guard first == UInt8(ascii: "{") else {
                    throw GRPCMessageInputError(number: count + 1, problem: "expected a JSON object starting with {")
                }
            }
            guard let end = scanToEnd() else {
                if buffer.count > maximumObjectSize {
                    throw GRPCMessageInputError(
                        number: count + 1,
                        problem:
                            "it is longer than \(maximumObjectSize) bytes; raise --max-message-size if it should go")
                }
                return objects
            }
            count += 1
            do {
                objects.append(try JSONValue(parsing: String(decoding: buffer[..<end], as: UTF8.self)))
            } catch {
                throw GRPCMessageInputError(number: count, problem: String(describing: error))
            }
            buffer.removeFirst(end)
            scanned = 0
        }
    }

    /// The end of the input: nothing may be left but white space.
    ///
    /// - Throws: `GRPCMessageInputError` for an object that never closes.
    package mutating func finish() throws -> [JSONValue] {
        let objects = try append([])
        if !buffer.isEmpty {
            throw GRPCMessageInputError(number: count + 1, problem: "it ends before its closing }")
        }
        return objects
    }

    /// Scans on from where the last scan stopped; the index just past the object when it closes.
    private mutating func scanToEnd() -> Int? {
        while scanned < buffer.count {
            let byte = buffer[scanned]
            scanned += 1
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
                if depth == 0 { return scanned }
            default: break
            }
        }
        return nil
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
