import Checks
import Foundation
import History
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import Synchronization
import Workspace

/// A message received on a call, decoded, with when it came.
package struct GRPCReceivedMessage: Sendable {
    /// Its position in the stream, from 0.
    package let index: Int
    /// The message in proto3 JSON.
    package let json: JSONValue
    /// Its size on the wire, in bytes.
    package let size: Int
    /// When it arrived.
    package let receivedAt: Date
}

/// What a call gave: headers, the messages, the status and trailers, and the status details
/// decoded (`grpc-status-details-bin` as a `google.rpc.Status`, its details resolved).
package struct GRPCOutcome: Sendable {
    /// The response headers (initial metadata).
    package var headers = GRPCMetadata()
    /// The messages, in order: the first ones, as many as the call's cap keeps.
    package var messages: [GRPCReceivedMessage] = []
    /// How many messages came in all, and their bytes on the wire (past the cap too).
    package var messageCount = 0
    package var messageBytes = 0
    /// Whether messages came that `messages` does not keep (the cap was reached).
    package var isTruncated: Bool { messageCount > messages.count }
    /// The status the call ended with.
    package var status = GRPCStatus.ok
    /// The trailers.
    package var trailers = GRPCMetadata()
    /// `grpc-status-details-bin` decoded, when the status carries it.
    package var statusDetails: JSONValue?
    /// When the call started, its headers came and it ended.
    package var startedAt = Date()
    package var headersAt: Date?
    package var endedAt: Date?
}

/// A method of a schema made ready to call: its messages encoded before anything is sent, its
/// answers decoded as they come.
package struct GRPCExchange: Sendable {
    /// The method.
    package let method: ProtoMethod
    /// The schema its messages are read with.
    package let schema: GRPCSchema

    /// The method `name` (`package.Service/Method`) of a schema.
    ///
    /// - Throws: `GRPCExchangeError.unknownMethod` naming the nearest names.
    package init(method name: String, in schema: GRPCSchema) throws {
        guard let method = schema.schema.method(name) else {
            let service = name.split(separator: "/").first.map(String.init) ?? name
            let isServiceKnown = schema.schema.service(named: service) != nil
            throw GRPCExchangeError.unknownMethod(
                name, serviceKnown: isServiceKnown, nearNames: schema.schema.nearNames(name), origin: schema.origin)
        }
        self.method = method
        self.schema = schema
    }

    /// The request messages in the wire format.
    ///
    /// - Throws: `GRPCExchangeError.tooManyMessages` for more than one message to a method
    ///   that takes one, or the codec's error naming the field and the message type.
    package func encode(_ messages: [JSONValue]) throws -> [[UInt8]] {
        if !method.kind.clientStreams && messages.count > 1 {
            throw GRPCExchangeError.tooManyMessages(method: method.path, kind: method.kind, count: messages.count)
        }
        return try messages.map { try schema.schema.encode($0, as: method.inputType) }
    }

    /// Makes the call: sends the messages (then half-closes), and gives each message as it
    /// comes to `onMessage`.
    ///
    /// - Parameters:
    ///   - requests: the messages, encoded (`encode`).
    ///   - metadata: the request metadata.
    ///   - dispatcher: the dispatcher that sends.
    ///   - options: deadline, authority, sizes.
    ///   - keepingBytes: how many bytes of messages the outcome keeps: the later ones are given
    ///     to `onMessage` and counted, not kept, so that a stream that never ends holds no more
    ///     memory than this (what history keeps of a body, by default).
    ///   - onMessage: called for each message, in order, as it is decoded.
    /// - Returns: the outcome; a non-OK status is in it, not thrown. A call whose task is
    ///   cancelled (Ctrl-C) is cancelled on the wire (its stream reset) and ends `CANCELLED`
    ///   with what came before.
    /// - Throws: what stops the call before a status (the server unreachable, TLS).
    package func call(
        _ requests: [[UInt8]], metadata: GRPCMetadata, through dispatcher: GRPCDispatcher,
        options: GRPCCallOptions = GRPCCallOptions(), keepingBytes: Int = GRPCExchange.keptBytes,
        onMessage: @Sendable (GRPCReceivedMessage) -> Void = { _ in }
    ) async throws -> GRPCOutcome {
        try await run(
            sending: { call in
                for (index, request) in requests.enumerated() {
                    try await Self.send(request, number: index + 1, on: call)
                }
            }, atOnce: true, metadata: metadata, through: dispatcher, options: options,
            keepingBytes: keepingBytes, onMessage: onMessage)
    }

    /// Makes the call with request messages that come over time (`-d @-` on a client or
    /// bidirectional stream): each is encoded and sent as it comes, and the call half-closes
    /// when they end.
    ///
    /// - Throws: as `call(_:metadata:through:options:keepingBytes:onMessage:)`, and
    ///   `GRPCRequestMessageError` when a message does not read or does not match the input
    ///   type: the call is cancelled then, and the error names the message.
    package func call(
        streaming messages: AsyncThrowingStream<JSONValue, any Error>, metadata: GRPCMetadata,
        through dispatcher: GRPCDispatcher, options: GRPCCallOptions = GRPCCallOptions(),
        keepingBytes: Int = GRPCExchange.keptBytes, onMessage: @Sendable (GRPCReceivedMessage) -> Void = { _ in }
    ) async throws -> GRPCOutcome {
        let schema = schema.schema
        let inputType = method.inputType
        return try await run(
            sending: { call in
                var number = 0
                do {
                    for try await message in messages {
                        number += 1
                        try await Self.send(try schema.encode(message, as: inputType), number: number, on: call)
                    }
                } catch let error as GRPCMessageInputError {
                    throw GRPCRequestMessageError(description: error.description)
                } catch let error as ProtoCodecError {
                    throw GRPCRequestMessageError(description: "Request message \(number): \(error.description)")
                }
            }, atOnce: false, metadata: metadata, through: dispatcher, options: options,
            keepingBytes: keepingBytes, onMessage: onMessage)
    }

    /// A status as a user of explorer reads it: a response over the size limit names the key
    /// and the option that raise it, not the library's.
    private static func advising(_ status: GRPCStatus) -> GRPCStatus {
        let libraryAdvice = "raise GRPCCallOptions.maximumResponseSize (or the dispatcher's maximumMessageSize)"
        guard status.code == 8, status.message.contains(libraryAdvice) else { return status }
        let message = status.message.replacingOccurrences(
            of: libraryAdvice, with: "raise the endpoint's max_message_size: (or send --max-message-size)")
        return GRPCStatus(code: status.code, message: message, details: status.details)
    }

    /// Sends one request message; one over the size limit is refused, naming how to raise it.
    private static func send(_ bytes: [UInt8], number: Int, on call: GRPCCall) async throws {
        guard bytes.count <= call.maximumRequestSize else {
            throw GRPCRequestMessageError(
                description: "Request message \(number) is \(bytes.count) bytes, over the limit of "
                    + "\(call.maximumRequestSize) bytes: raise the endpoint's max_message_size: "
                    + "(or send --max-message-size) to send it.")
        }
        try await call.send(bytes)
    }

    /// Opens the call, sends with `sending` (then half-closes) while reading what comes.
    ///
    /// - Parameter atOnce: `sending` only hands over messages it has (a call's `send` never
    ///   waits for the network), so it runs before the reading, with no task of its own; else
    ///   it runs in a task beside the reading.
    private func run(
        sending send: @escaping @Sendable (GRPCCall) async throws -> Void, atOnce: Bool, metadata: GRPCMetadata,
        through dispatcher: GRPCDispatcher, options: GRPCCallOptions, keepingBytes: Int,
        onMessage: @Sendable (GRPCReceivedMessage) -> Void
    ) async throws -> GRPCOutcome {
        var outcome = GRPCOutcome()
        let call = dispatcher.open(method.path, metadata: metadata, options: options)
        let inputFailure = InputFailure()
        let sendAll: @Sendable () async -> Void = {
            do {
                try await send(call)
                call.finish()
            } catch let error as GRPCRequestMessageError {
                inputFailure.error.withLock { $0 = error }
                call.cancel()
            } catch {
                // The call is over: its events say why.
            }
        }
        var sending: Task<Void, Never>?
        if atOnce {
            await sendAll()
        } else {
            sending = Task { await sendAll() }
        }
        defer { sending?.cancel() }
        var ended = false
        do {
            for try await event in call.events {
                switch event {
                case .headers(let headers):
                    // HTTP/2's pseudo-headers (`:status`) are the transport's, not metadata.
                    outcome.headers = GRPCMetadata(headers.entries.filter { !$0.name.hasPrefix(":") })
                    outcome.headersAt = Date()
                case .message(let bytes):
                    let json = try schema.schema.decode(bytes, as: method.outputType)
                    let message = GRPCReceivedMessage(
                        index: outcome.messageCount, json: json, size: bytes.count, receivedAt: Date())
                    if outcome.messageBytes + bytes.count <= keepingBytes && !outcome.isTruncated {
                        outcome.messages.append(message)
                    }
                    outcome.messageCount += 1
                    outcome.messageBytes += bytes.count
                    onMessage(message)
                case .end(let status, let trailers):
                    ended = true
                    outcome.status = Self.advising(status)
                    outcome.trailers = trailers
                    outcome.statusDetails = status.details.flatMap { schema.schema.decodeStatusDetails($0) }
                }
            }
        } catch {
            call.cancel()
            throw error
        }
        if let failure = inputFailure.error.withLock({ $0 }) { throw failure }
        if !ended {
            // The task was cancelled: the stream's end reset the call on the wire.
            call.cancel()
            outcome.status = GRPCStatus(code: 1, message: "Cancelled by the client.")
        }
        outcome.endedAt = Date()
        return outcome
    }
}

/// A request message that cannot go: over the size limit, or (`-d @-`) one that does not read
/// or does not match its type, found while the call was under way. The call is cancelled.
package struct GRPCRequestMessageError: Error, CustomStringConvertible, Sendable {
    package let description: String
}

/// Where the sending task leaves a `GRPCRequestMessageError` for the call to throw.
private final class InputFailure: Sendable {
    let error = Mutex<GRPCRequestMessageError?>(nil)
}

extension GRPCExchange {
    /// What an outcome keeps of a call's messages by default: as much as history keeps of a
    /// body (`EXPLORER_HISTORY_BODY_CAP`, 5 MB unless set).
    package static var keptBytes: Int { HistoryConfiguration.fromEnvironment().bodyCap }
}

/// Why a call could not be made as written.
package enum GRPCExchangeError: Error, CustomStringConvertible, Sendable {
    /// The method is not in the schema.
    case unknownMethod(String, serviceKnown: Bool, nearNames: [String], origin: GRPCSchema.Origin)
    /// More than one message for a method that takes one.
    case tooManyMessages(method: String, kind: ProtoCallKind, count: Int)

    package var description: String {
        switch self {
        case .unknownMethod(let name, let serviceKnown, let nearNames, let origin):
            let what = serviceKnown ? "method" : "service of the method"
            let hint = nearNames.isEmpty ? "" : "; did you mean \(nearNames.joined(separator: ", "))?"
            return "The \(what) \(name) is not in the schema from \(origin)\(hint)"
        case .tooManyMessages(let method, let kind, let count):
            return "\(method) is a \(kind.rawValue) method and takes one request message, not \(count)."
        }
    }
}

extension GRPCOutcome {
    /// The outcome in the plain values history keeps and `--json` prints.
    package var record: GRPCCallRecord {
        func pairs(_ metadata: GRPCMetadata) -> [KeyValue] {
            metadata.map { KeyValue($0.name, $0.value.description) }
        }
        let milliseconds = { (end: Date?) in end.map { ($0.timeIntervalSince(startedAt) * 1_000_000).rounded() / 1000 }
        }
        var record = GRPCCallRecord(
            statusName: status.name, statusCode: status.code, statusMessage: status.message, headers: pairs(headers),
            trailers: pairs(trailers), messages: messages.map(\.json), details: statusDetails,
            headersMilliseconds: milliseconds(headersAt),
            totalMilliseconds: milliseconds(endedAt) ?? Date().timeIntervalSince(startedAt) * 1000)
        if isTruncated { record.receivedMessages = messageCount }
        return record
    }
}

extension GRPCOutcome {
    /// What captures and assertions read from the call: `grpc_status` the status's name,
    /// `status` 200, the headers and trailers as headers, and as the body the message of a
    /// unary or client-streaming call (`{}` when none came), or the array of a stream's
    /// messages, so that `jsonpath $.name` reads a unary answer and `jsonpath $[0].name` a
    /// stream's first.
    ///
    /// - Parameter kind: the method's kind.
    package func checkedResponse(kind: ProtoCallKind) -> CheckedResponse {
        var headers = HTTPHeaders()
        for entry in self.headers.entries + trailers.entries {
            headers.add(name: entry.name, value: entry.value.description)
        }
        let body: JSONValue =
            kind.serverStreams ? .array(messages.map(\.json)) : (messages.first?.json ?? .object([]))
        var response = CheckedResponse(
            status: 200, headers: headers, body: Data(body.serialized().utf8),
            durationMilliseconds: (endedAt ?? Date()).timeIntervalSince(startedAt) * 1000)
        response.grpcStatus = status.name
        return response
    }
}
