import Foundation

/// What PiuPiu 1.x calls a response: something with a status, headers, an error for a status
/// outside 2xx, and `data` of some type.
///
/// `Response` is the only conformer the library makes; the protocol exists so that code written
/// for PiuPiu can add its own decoders with `extension ResponseInterface where T == Data? { ... }`
/// and have them on every raw response.
public protocol ResponseInterface {
    /// The type of the body.
    associatedtype T
    /// The body.
    var data: T { get }
    /// The status, with its reason phrase.
    var statusCode: HTTPStatus { get }
    /// The response headers.
    var headers: HTTPHeaders { get }
    /// The HTTP error for a status outside 2xx.
    var error: HTTPError? { get }
}

extension Response: ResponseInterface {
    /// The body, by PiuPiu 1.x's name (`body` is PiuPiu 2's).
    public var data: Body { body }
}

// MARK: - Values (PiuPiu 1.x and 2.x: `unwrapData`, `decodeString`, `decode` give the value)

extension ResponseInterface where T == Data? {
    /// The body, which must be present.
    ///
    /// - Returns: the body.
    /// - Throws: `SerializationError.missingBody` when there is no body.
    public func unwrapData() throws -> Data {
        guard let data else { throw SerializationError.missingBody }
        return data
    }

    /// The body as text: in `encoding` when given, else in the charset `Content-Type` names,
    /// else UTF-8, else Latin-1.
    ///
    /// - Parameter encoding: a charset to use instead of the one the headers name.
    /// - Returns: the text.
    /// - Throws: `SerializationError.missingBody`, or `.invalidText` when the body is not text
    ///   in the `encoding` given.
    public func decodeString(encoding: String.Encoding? = nil) throws -> String {
        try TextDecoding.decode(unwrapData(), encoding: encoding, contentType: headers["Content-Type"])
    }

    /// Decodes the body as a `Decodable` value.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the value.
    /// - Throws: `SerializationError` with the coding path and a body excerpt.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> Value
    {
        try JSONBodyDecoding.decode(type, from: unwrapData(), using: decoder)
    }

    /// Decodes the body as a Foundation JSON object, as PiuPiu's `decodeJSONObject` does: what
    /// `JSONSerialization` gives (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`), for
    /// code that casts it (`as? [String: Any]`) or hands it to a mapper.
    ///
    /// - Parameter options: the reading options (`.mutableContainers` by default, as PiuPiu's).
    /// - Returns: the object.
    /// - Throws: `SerializationError` when the body is missing or not JSON.
    public func decodeJSONObject(options: JSONSerialization.ReadingOptions = .mutableContainers) throws -> Any {
        try JSONBodyDecoding.jsonObject(from: unwrapData(), options: options)
    }

    /// Decodes the body as a `JSONValue`: object members in the order the body has them,
    /// numbers as written, and the line and column of the first mistake when it is not JSON.
    ///
    /// - Returns: the value.
    /// - Throws: `SerializationError` when the body is missing or not JSON.
    public func decodeJSONValue() throws -> JSONValue {
        try JSONBodyDecoding.jsonValue(from: unwrapData())
    }
}

extension Response where Body == Data {
    /// The body as text: in `encoding` when given, else in the charset `Content-Type` names,
    /// else UTF-8, else Latin-1.
    ///
    /// - Parameter encoding: a charset to use instead of the one the headers name.
    /// - Returns: the text.
    /// - Throws: `SerializationError.invalidText` when the body is not text in `encoding`.
    public func decodeString(encoding: String.Encoding? = nil) throws -> String {
        try TextDecoding.decode(body, encoding: encoding, contentType: headers["Content-Type"])
    }

    /// Decodes the body as a `Decodable` value.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the value.
    /// - Throws: `SerializationError.decodingFailed` with the coding path and a body excerpt.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> Value
    {
        try JSONBodyDecoding.decode(type, from: body, using: decoder)
    }

    /// Decodes the body as a `Decodable` value off the caller's actor (a large body does not
    /// hold up the main actor): what `try await response.ensureData().decode(_:)` calls.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the value.
    /// - Throws: `SerializationError.decodingFailed` with the coding path and a body excerpt.
    @concurrent
    public func decode<Value: Decodable & Sendable>(
        _ type: Value.Type, using decoder: sending JSONDecoder = JSONDecoder()
    ) async throws -> Value {
        try JSONBodyDecoding.decode(type, from: body, using: decoder)
    }

    /// Decodes the body as a Foundation JSON object (see `ResponseInterface.decodeJSONObject(options:)`).
    ///
    /// - Parameter options: the reading options (`.mutableContainers` by default).
    /// - Returns: the object.
    /// - Throws: `SerializationError` when the body is not JSON.
    public func decodeJSONObject(options: JSONSerialization.ReadingOptions = .mutableContainers) throws -> Any {
        try JSONBodyDecoding.jsonObject(from: body, options: options)
    }

    /// Decodes the body as a `JSONValue`: object members in the order the body has them,
    /// numbers as written.
    ///
    /// - Returns: the value.
    /// - Throws: `SerializationError` when the body is not JSON.
    public func decodeJSONValue() throws -> JSONValue {
        try JSONBodyDecoding.jsonValue(from: body)
    }
}

// MARK: - Responses (PiuPiu 2.x: `ensure...` give a response, so they chain)

extension Response {
    /// The response itself: every `Response` here is an HTTP response. Kept so that PiuPiu 2
    /// chains (`response.ensureHTTPResponse().ensureValidResponse()...`) read the same.
    ///
    /// - Returns: this response.
    public func ensureHTTPResponse() -> Response<Body> { self }

    /// The response, when its status is 2xx.
    ///
    /// - Returns: this response.
    /// - Throws: the response's `HTTPError` (status, headers and body) otherwise.
    public func ensureValidResponse() throws -> Response<Body> {
        if let error { throw error }
        return self
    }
}

extension Response where Body == Data? {
    /// The response with a body that must be present.
    ///
    /// - Returns: the response with a non-optional body.
    /// - Throws: `SerializationError.missingBody` when there is no body.
    public func ensureData() throws -> Response<Data> {
        replacingBody(try unwrapData())
    }

    /// The response with its body decoded as a `Decodable` value.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the response with the decoded body.
    /// - Throws: `SerializationError` (a missing body, or the coding path and a body excerpt).
    public func ensureDecoded<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws
        -> Response<Value>
    {
        replacingBody(try decode(type, using: decoder))
    }

    /// The response with its body decoded off the caller's actor, as PiuPiu 2's
    /// `try await response.ensureDecoded(_:)`.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the response with the decoded body.
    /// - Throws: `SerializationError` (a missing body, or the coding path and a body excerpt).
    @concurrent
    public func ensureDecoded<Value: Decodable & Sendable>(
        _ type: Value.Type, using decoder: sending JSONDecoder = JSONDecoder()
    ) async throws -> Response<Value> {
        replacingBody(try decode(type, using: decoder))
    }

    /// The response with its body as text (see `decodeString(encoding:)`).
    ///
    /// - Parameter encoding: a charset to use instead of the one the headers name.
    /// - Returns: the response with a `String` body.
    /// - Throws: `SerializationError.missingBody` or `.invalidText`.
    public func ensureString(encoding: String.Encoding? = nil) throws -> Response<String> {
        replacingBody(try decodeString(encoding: encoding))
    }
}

extension Response where Body == Data {
    /// The response with its body decoded as a `Decodable` value.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the response with the decoded body.
    /// - Throws: `SerializationError.decodingFailed` with the coding path and a body excerpt.
    public func ensureDecoded<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws
        -> Response<Value>
    {
        replacingBody(try JSONBodyDecoding.decode(type, from: body, using: decoder))
    }

    /// The response with its body decoded off the caller's actor, as PiuPiu 2's
    /// `try await response.ensureData().ensureDecoded(_:)`.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the response with the decoded body.
    /// - Throws: `SerializationError.decodingFailed` with the coding path and a body excerpt.
    @concurrent
    public func ensureDecoded<Value: Decodable & Sendable>(
        _ type: Value.Type, using decoder: sending JSONDecoder = JSONDecoder()
    ) async throws -> Response<Value> {
        replacingBody(try JSONBodyDecoding.decode(type, from: body, using: decoder))
    }

    /// The response with its body as text (see `decodeString(encoding:)`).
    ///
    /// - Parameter encoding: a charset to use instead of the one the headers name.
    /// - Returns: the response with a `String` body.
    /// - Throws: `SerializationError.invalidText`.
    public func ensureString(encoding: String.Encoding? = nil) throws -> Response<String> {
        replacingBody(try decodeString(encoding: encoding))
    }
}

/// A `SuccessResponse` of PiuPiu 1.x: a response whose body is a decoded value. Here it is
/// the one `Response` type with another body.
public typealias SuccessResponse<Value> = Response<Value>

extension Response {
    /// A response with a decoded body in place of the one `response` brought, as PiuPiu 1.x's
    /// `SuccessResponse<[Post]>(data: posts, response: response)`.
    ///
    /// - Parameters:
    ///   - data: the new body.
    ///   - response: the response the status, headers, request and timings come from.
    public init<Other>(data: Body, response: Response<Other>) {
        self = response.replacingBody(data)
    }
}

/// Decodes JSON bodies, turning a `DecodingError` into a `SerializationError` that names the
/// coding path and quotes the body.
enum JSONBodyDecoding {
    static func decode<Value: Decodable>(_ type: Value.Type, from body: Data, using decoder: JSONDecoder) throws
        -> Value
    {
        do {
            return try decoder.decode(type, from: body)
        } catch {
            throw SerializationError.decoding(error, type: type, body: body)
        }
    }

    /// The body as `JSONSerialization` reads it.
    static func jsonObject(from body: Data, options: JSONSerialization.ReadingOptions) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: body, options: options)
        } catch {
            // JSONSerialization's message says where; the excerpt shows what.
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw SerializationError.decodingFailed(
                type: "JSON object", codingPath: "", reason: reason, bodyExcerpt: BodyExcerpt.make(body))
        }
    }

    /// The body as a `JSONValue` that keeps its member order and number text.
    static func jsonValue(from body: Data) throws -> JSONValue {
        do {
            return try JSONValue(parsing: body)
        } catch {
            throw SerializationError.decodingFailed(
                type: "JSONValue", codingPath: "", reason: error.description, bodyExcerpt: BodyExcerpt.make(body))
        }
    }
}
