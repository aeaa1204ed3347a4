import Foundation
import NIOHPACK
import NIOHTTP1

/// What gRPC puts in HTTP/2's headers, written and read as grpc-swift-2's HTTP/2 transport does,
/// so that a call on the direct path tells its reader exactly what grpc-swift would.
enum GRPCWire {
    /// The request headers of a call: the pseudo-headers, `content-type`, `te`, the deadline
    /// (`grpc-timeout`), then the metadata (`-bin` bytes in base64).
    static func requestHeaders(
        path: String, usesTLS: Bool, authority: String, timeout: Duration?, metadata: GRPCMetadata
    ) -> HPACKHeaders {
        var headers = HPACKHeaders()
        headers.reserveCapacity(7 + metadata.count)
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: usesTLS ? "https" : "http")
        headers.add(name: ":path", value: path)
        headers.add(name: ":authority", value: authority)
        headers.add(name: "content-type", value: "application/grpc")
        headers.add(name: "te", value: "trailers")
        if let timeout { headers.add(name: "grpc-timeout", value: timeoutValue(timeout)) }
        for entry in metadata {
            let value: String
            switch entry.value {
            case .text(let text): value = text
            case .bytes(let bytes) where GRPCMetadata.isBinary(entry.name): value = Data(bytes).base64EncodedString()
            case .bytes(let bytes): value = String(decoding: bytes, as: UTF8.self)
            }
            headers.add(name: entry.name.lowercased(), value: value)
        }
        return headers
    }

    /// A deadline as `grpc-timeout` writes it: at most 8 digits and a unit, rounded up.
    static func timeoutValue(_ timeout: Duration) -> String {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        let units: [(Int64, String)] = [
            (1, "n"), (1000, "u"), (1_000_000, "m"), (1_000_000_000, "S"), (60_000_000_000, "M"),
            (3_600_000_000_000, "H"),
        ]
        for (size, unit) in units {
            let amount = (nanoseconds + size - 1) / size
            if amount < 100_000_000 { return "\(amount)\(unit)" }
        }
        return "99999999H"
    }

    /// Headers or trailers as metadata: every field, `-bin` values decoded from base64 (kept as
    /// text when they do not decode).
    static func metadata(_ headers: HPACKHeaders, dropping dropped: Set<String> = []) -> GRPCMetadata {
        var entries: [GRPCMetadata.Entry] = []
        entries.reserveCapacity(headers.count)
        for (name, value, _) in headers where !dropped.contains(name) {
            if name.hasSuffix("-bin"), let bytes = GRPCMetadata.decodeBase64(value) {
                entries.append(GRPCMetadata.Entry(name: name, value: .bytes(bytes)))
            } else {
                entries.append(GRPCMetadata.Entry(name: name, value: .text(value)))
            }
        }
        return GRPCMetadata(entries)
    }

    /// What the first headers of an answer say.
    enum Head {
        /// gRPC headers: messages follow.
        case headers(GRPCMetadata)
        /// Trailers only (`endStream`): the status, with these trailers.
        case end(GRPCStatus, GRPCMetadata)
        /// Not gRPC (another HTTP status, no gRPC `content-type`, a compression it cannot read):
        /// the call ends with this status, the stream is reset.
        case refused(GRPCStatus, GRPCMetadata)
        /// An informational (1xx) answer: the real headers come next.
        case skip
    }

    /// Reads an answer's first headers.
    static func head(_ headers: HPACKHeaders, endStream: Bool) -> Head {
        let httpStatus = headers.first(name: ":status")
        let grpcStatus = headers.first(name: "grpc-status").flatMap { Int($0) }.flatMap(validCode)
        if httpStatus != "200" && grpcStatus == nil {
            guard let code = httpStatus.flatMap({ Int($0) }) else {
                return .refused(GRPCStatus(code: 2, message: "HTTP Status Code is missing."), metadata(headers))
            }
            if (100...199).contains(code) { return .skip }
            let status = HTTPResponseStatus(statusCode: code)
            return .refused(
                GRPCStatus(
                    code: grpcCode(httpStatus: status), message: "Unexpected non-200 HTTP Status Code (\(status))."),
                metadata(headers))
        }
        let contentType = headers.first(name: "content-type")
        guard contentType == "application/grpc" || contentType == "application/grpc+proto" else {
            return .refused(GRPCStatus(code: 13, message: "Missing content-type header"), metadata(headers))
        }
        if endStream {
            let (status, trailers) = end(headers)
            return .end(status, trailers)
        }
        if let encoding = headers.first(name: "grpc-encoding"), encoding != "identity" {
            return .refused(
                GRPCStatus(
                    code: 13,
                    message: "The server picked a compression algorithm ('\(encoding)') the client does not know about."
                ),
                metadata(headers))
        }
        return .headers(metadata(headers))
    }

    /// The status and trailers of the last headers (or of a trailers-only answer): the message
    /// percent-decoded, `grpc-status-details-bin` as the details.
    static func end(_ trailers: HPACKHeaders) -> (GRPCStatus, GRPCMetadata) {
        let value = trailers.first(name: "grpc-status")
        let metadata = metadata(trailers, dropping: ["grpc-status", "grpc-message"])
        guard let code = value.flatMap({ Int($0) }).flatMap(validCode) else {
            let message =
                value.map { "Invalid 'grpc-status' in trailers (\($0))" } ?? "No 'grpc-status' value in trailers"
            return (GRPCStatus(code: 2, message: message), metadata)
        }
        // OK is OK: grpc-swift keeps neither a message nor details for it.
        if code == 0 { return (.ok, metadata) }
        let message = trailers.first(name: "grpc-message").map { $0.removingPercentEncoding ?? $0 } ?? ""
        let details = metadata["grpc-status-details-bin"].first.flatMap { value -> [UInt8]? in
            if case .bytes(let bytes) = value { return bytes }
            return nil
        }
        return (GRPCStatus(code: code, message: message, details: details), metadata)
    }

    /// gRPC's codes are 0 to 16; any other value is no status.
    private static func validCode(_ code: Int) -> Int? { (0...16).contains(code) ? code : nil }

    /// gRPC's code for an HTTP status that is not 200 (gRPC's http-grpc-status-mapping.md).
    private static func grpcCode(httpStatus: HTTPResponseStatus) -> Int {
        switch httpStatus {
        case .badRequest: 13
        case .unauthorized: 16
        case .forbidden: 7
        case .notFound: 12
        case .tooManyRequests, .badGateway, .serviceUnavailable, .gatewayTimeout: 14
        default: 2
        }
    }
}
