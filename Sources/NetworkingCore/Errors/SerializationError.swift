import Foundation

/// A body that could not be turned into, or made from, the value asked for.
public enum SerializationError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The response had no body where one was needed.
    case missingBody
    /// The body is not text in any charset tried.
    case invalidText(charset: String)
    /// The body could not be decoded as the type, at a coding path.
    case decodingFailed(type: String, codingPath: String, reason: String, bodyExcerpt: String)
    /// A value could not be encoded into a request body.
    case encodingFailed(reason: String)

    /// One sentence a person can act on.
    public var description: String {
        switch self {
        case .missingBody:
            return "The response has no body, but one was expected."
        case .invalidText(let charset):
            return "The body is not valid \(charset) text."
        case .decodingFailed(let type, let codingPath, let reason, let excerpt):
            let at = codingPath.isEmpty ? "" : " at \(codingPath)"
            return "Could not decode \(type)\(at): \(reason) (body: \(excerpt))."
        case .encodingFailed(let reason):
            return "Could not encode the request body: \(reason)."
        }
    }

    public var errorDescription: String? { description }

    /// The error a custom decoder throws when it cannot make its value from the response data,
    /// as PiuPiu 1.x's `SerializationError.failedToDecodeResponseData(cause:)`.
    ///
    /// - Parameter cause: what the decoder threw, if anything.
    /// - Returns: `.decodingFailed` with the cause as the reason.
    public static func failedToDecodeResponseData(cause: (any Error)?) -> SerializationError {
        .decodingFailed(
            type: "the response data", codingPath: "",
            reason: cause.map { String(describing: $0) } ?? "the decoder gave no value", bodyExcerpt: "")
    }

    /// Describes a `DecodingError` with its coding path and an excerpt of the body.
    static func decoding(_ error: Error, type: Any.Type, body: Data) -> SerializationError {
        let path: [CodingKey]
        let reason: String
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context), .dataCorrupted(let context):
            path = context.codingPath
            if case .keyNotFound(let key, _) = error as? DecodingError {
                reason = "key '\(key.stringValue)' not found"
            } else {
                reason = context.debugDescription
            }
        default:
            path = []
            reason = String(describing: error)
        }
        let codingPath = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return .decodingFailed(
            type: String(describing: type),
            codingPath: codingPath.hasPrefix(".") ? String(codingPath.dropFirst()) : codingPath,
            reason: reason,
            bodyExcerpt: BodyExcerpt.make(body)
        )
    }
}

/// A short, printable excerpt of a body for error messages.
enum BodyExcerpt {
    static func make(_ data: Data, limit: Int = 200) -> String {
        let prefix = data.prefix(limit)
        var text = String(decoding: prefix, as: UTF8.self)
        text = String(
            text.unicodeScalars.map { $0.properties.generalCategory == .control && $0 != "\n" ? " " : Character($0) })
        text = text.replacingOccurrences(of: "\n", with: " ")
        return data.count > limit ? text + "…" : text
    }
}
