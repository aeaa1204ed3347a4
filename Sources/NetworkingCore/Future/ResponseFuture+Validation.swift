import Foundation

extension ResponseFuture {
    /// Fails the chain with the response's `HTTPError` when its status is not 2xx.
    ///
    /// - Returns: a future of the same response, only for 2xx.
    public func ensureValidResponse<Body: Sendable>() -> ResponseFuture<Response<Body>> where T == Response<Body> {
        then { try $0.ensureValidResponse() }
    }

    /// Fails the chain with `SerializationError.missingBody` when there is no body.
    ///
    /// - Returns: a future of the response with a non-optional body.
    public func ensureData() -> ResponseFuture<Response<Data>> where T == Response<Data?> {
        then { try $0.ensureData() }
    }

    /// Decodes the body as a `Decodable` value; a failure reaches `error` as a
    /// `SerializationError` with the coding path and a body excerpt.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder.
    /// - Returns: a future of the decoded response.
    public func ensureDecoded<Value: Decodable & Sendable>(
        _ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()
    ) -> ResponseFuture<Response<Value>> where T == Response<Data> {
        then { try $0.ensureDecoded(type, using: decoder) }
    }

    /// Decodes an optional body as a `Decodable` value.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder.
    /// - Returns: a future of the decoded response.
    public func ensureDecoded<Value: Decodable & Sendable>(
        _ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()
    ) -> ResponseFuture<Response<Value>> where T == Response<Data?> {
        then { try $0.ensureDecoded(type, using: decoder) }
    }

    /// Decodes the body as text (charset from `Content-Type`, else UTF-8, else Latin-1).
    ///
    /// - Returns: a future of the response with a `String` body.
    public func ensureString() -> ResponseFuture<Response<String>> where T == Response<Data?> {
        then { try $0.ensureString() }
    }
}
