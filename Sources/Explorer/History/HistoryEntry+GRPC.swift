import Foundation
import NetworkingCore
import Workspace

/// What a gRPC call gave, in the words history keeps: plain values, so that History needs no
/// gRPC module.
package struct GRPCCallRecord: Sendable {
    /// The status code's name (`OK`, `NOT_FOUND`).
    package var statusName: String
    /// The status code (0 for OK).
    package var statusCode: Int
    /// The status message.
    package var statusMessage: String
    /// The response headers and the trailers, `-bin` values in base64.
    package var headers: [KeyValue]
    package var trailers: [KeyValue]
    /// The response messages, proto3 JSON.
    package var messages: [JSONValue]
    /// `grpc-status-details-bin` decoded, when there was one.
    package var details: JSONValue?
    /// How many messages came, when more than `messages` keeps (a stream past the cap).
    package var receivedMessages: Int?
    /// Milliseconds from the start to the headers, and to the end.
    package var headersMilliseconds: Double?
    package var totalMilliseconds: Double

    /// A record of a call's outcome.
    package init(
        statusName: String, statusCode: Int, statusMessage: String, headers: [KeyValue], trailers: [KeyValue],
        messages: [JSONValue], details: JSONValue?, headersMilliseconds: Double?, totalMilliseconds: Double
    ) {
        self.statusName = statusName
        self.statusCode = statusCode
        self.statusMessage = statusMessage
        self.headers = headers
        self.trailers = trailers
        self.messages = messages
        self.details = details
        self.headersMilliseconds = headersMilliseconds
        self.totalMilliseconds = totalMilliseconds
    }

    /// The call as one JSON object: what history keeps as the response body, and what
    /// `explorer send --json` prints under `grpc`.
    package var json: JSONValue {
        func object(_ pairs: [KeyValue]) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = []
            for pair in pairs {
                if let index = members.firstIndex(where: { $0.key == pair.name }),
                    case .string(let first) = members[index].value
                {
                    members[index].value = .string(first + ", " + pair.value)
                } else {
                    members.append((pair.name, .string(pair.value)))
                }
            }
            return .object(members)
        }
        var members: [(key: String, value: JSONValue)] = [
            ("status", .string(statusName)), ("code", JSONValue(statusCode)), ("message", .string(statusMessage)),
            ("headers", object(headers)), ("trailers", object(trailers)), ("messages", .array(messages)),
        ]
        if let details { members.append(("details", details)) }
        if let receivedMessages { members.append(("receivedMessages", JSONValue(receivedMessages))) }
        return .object(members)
    }
}

extension HistoryEntry {
    /// The method history shows for a gRPC call.
    package static let grpcMethod = "GRPC"

    /// A gRPC call as history keeps it: method `GRPC`, the call's URL, the metadata as request
    /// headers, the request messages as the request body (a JSON array), status 200 with the
    /// gRPC status's name as its reason, headers and trailers as response headers, and the
    /// call (`GRPCCallRecord.json`: status, code, message, messages, details) as a JSON body,
    /// so that search finds a message's text, a status name or a detail. Secrets are masked.
    ///
    /// - Parameters:
    ///   - resolved: the resolved endpoint.
    ///   - requestMessages: the messages sent.
    ///   - startedAt: when the call started.
    ///   - collectionPath: the collection file.
    ///   - record: what the call gave, or `nil` when it failed before a status.
    ///   - failure: the sentence of that failure.
    package init(
        grpc resolved: ResolvedRequest, requestMessages: [JSONValue], startedAt: Date, collectionPath: String?,
        record: GRPCCallRecord?, failure: String? = nil
    ) {
        self.init(sending: resolved, startedAt: startedAt, collectionPath: collectionPath)
        let masker = resolved.masker
        method = Self.grpcMethod
        let request = Data(masker.mask(JSONValue.array(requestMessages).serialized()).utf8)
        requestBody = request
        requestBodySize = request.count
        guard let record else {
            transportError = masker.mask(failure ?? "the call failed")
            timings = HistoryTimings(totalMilliseconds: Date().timeIntervalSince(startedAt) * 1000)
            return
        }
        status = 200
        reason = record.statusName
        httpVersion = "HTTP/2"
        var headers = HTTPHeaders()
        for pair in record.headers + record.trailers { headers.add(name: pair.name, value: masker.mask(pair.value)) }
        responseHeaders = headers
        let body = Data(masker.mask(record.json.serialized()).utf8)
        responseBody = body
        responseBodySize = body.count
        contentType = "application/json"
        timings = HistoryTimings(
            totalMilliseconds: record.totalMilliseconds, headMilliseconds: record.headersMilliseconds)
    }
}
