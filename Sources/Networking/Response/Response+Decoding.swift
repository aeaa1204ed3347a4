import Foundation

extension Response where Body == Data? {
    /// The response with a body that must be present.
    ///
    /// - Returns: the response with a non-optional body.
    /// - Throws: `SerializationError.missingBody` when there is no body.
    public func unwrapData() throws -> Response<Data> {
        guard let body else { throw SerializationError.missingBody }
        return replacingBody(body)
    }

    /// The body as text: the charset from `Content-Type`, else UTF-8, else Latin-1.
    ///
    /// - Parameter encoding: a charset to use instead of the one the headers name.
    /// - Returns: the response with a `String` body.
    /// - Throws: `SerializationError.missingBody` or `.invalidText`.
    public func decodeString(encoding: String.Encoding? = nil) throws -> Response<String> {
        try unwrapData().decodeString(encoding: encoding)
    }

    /// Decodes the body as a `Decodable` value.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder (a fresh `JSONDecoder` by default).
    /// - Returns: the response with the decoded body.
    /// - Throws: `SerializationError` with the coding path and a body excerpt.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> Response<Value> {
        try unwrapData().decode(type, using: decoder)
    }

    /// Decodes the body as any JSON value.
    ///
    /// - Returns: the response with a `JSONValue` body.
    /// - Throws: `SerializationError` when the body is not JSON.
    public func decodeJSONObject() throws -> Response<JSONValue> {
        try unwrapData().decodeJSONObject()
    }
}

extension Response where Body == Data {
    /// The body as text: the charset from `Content-Type`, else UTF-8, else Latin-1.
    ///
    /// - Parameter encoding: a charset to use instead of the one the headers name.
    /// - Returns: the response with a `String` body.
    /// - Throws: `SerializationError.invalidText` when the named charset does not fit.
    public func decodeString(encoding: String.Encoding? = nil) throws -> Response<String> {
        if let encoding {
            guard let text = String(data: body, encoding: encoding) else {
                throw SerializationError.invalidText(charset: String(describing: encoding))
            }
            return replacingBody(text)
        }
        return replacingBody(TextDecoding.decode(body, contentType: headers["Content-Type"]))
    }

    /// Decodes the body as a `Decodable` value.
    ///
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the JSON decoder.
    /// - Returns: the response with the decoded body.
    /// - Throws: `SerializationError.decodingFailed` with the coding path and a body excerpt.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> Response<Value> {
        do {
            return replacingBody(try decoder.decode(type, from: body))
        } catch {
            throw SerializationError.decoding(error, type: type, body: body)
        }
    }

    /// Decodes the body as any JSON value.
    ///
    /// - Returns: the response with a `JSONValue` body.
    /// - Throws: `SerializationError` when the body is not JSON.
    public func decodeJSONObject() throws -> Response<JSONValue> {
        try decode(JSONValue.self)
    }
}

/// Turns bytes into text using the charset a `Content-Type` names.
enum TextDecoding {
    static func decode(_ data: Data, contentType: String?) -> String {
        if let charset = contentType.flatMap({ MediaType($0).parameters["charset"] }),
            let encoding = encoding(named: charset),
            let text = String(data: data, encoding: encoding)
        {
            return text
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        return String(data: data, encoding: .isoLatin1) ?? String(decoding: data, as: UTF8.self)
    }

    static func encoding(named name: String) -> String.Encoding? {
        switch name.lowercased() {
        case "utf-8", "utf8": return .utf8
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": return .isoLatin1
        case "iso-8859-2", "latin2": return .isoLatin2
        case "us-ascii", "ascii": return .ascii
        case "utf-16": return .utf16
        case "utf-16le": return .utf16LittleEndian
        case "utf-16be": return .utf16BigEndian
        case "utf-32": return .utf32
        case "windows-1252", "cp1252": return .windowsCP1252
        case "windows-1251", "cp1251": return .windowsCP1251
        case "windows-1250", "cp1250": return .windowsCP1250
        case "shift_jis", "shift-jis", "sjis": return .shiftJIS
        case "euc-jp": return .japaneseEUC
        default: return nil
        }
    }
}
