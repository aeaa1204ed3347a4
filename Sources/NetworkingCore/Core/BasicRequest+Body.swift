import Foundation

extension BasicRequest {
    /// Sets a JSON body from a string and `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - string: the JSON text.
    ///   - encoding: the charset it is sent in (UTF-8 by default); a text the charset cannot
    ///     hold is sent as UTF-8, and the `Content-Type` names the charset that was used.
    public mutating func setJSONBody(string: String, encoding: String.Encoding = .utf8) {
        if encoding != .utf8, let data = string.data(using: encoding), let name = Self.charsetName(encoding) {
            setBody(data, contentType: "application/json; charset=\(name)")
        } else {
            setBody(Data(string.utf8), contentType: "application/json")
        }
    }

    /// Sets a JSON body from Foundation objects (`[String: Any?]`, `[[String: Any?]]`, ...;
    /// `nil` is `null`), keys sorted, and `Content-Type: application/json`.
    ///
    /// - Parameter jsonObject: the object.
    /// - Throws: `SerializationError.encodingFailed` naming the member that is not JSON.
    public mutating func setJSONBody(jsonObject: Any) throws {
        setBody(try JSONObjectEncoding.data(jsonObject), contentType: "application/json")
    }

    /// Sets a JSON body from an `Encodable` value and `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - encodable: the value.
    ///   - encoder: the encoder (a fresh `JSONEncoder` by default).
    /// - Throws: `SerializationError.encodingFailed`.
    public mutating func setJSONBody<Value: Encodable>(encodable: Value, encoder: JSONEncoder = JSONEncoder()) throws {
        do {
            setBody(try encoder.encode(encodable), contentType: "application/json")
        } catch {
            throw SerializationError.encodingFailed(reason: String(describing: error))
        }
    }

    /// Sets a JSON body from an `Encodable` value: `setJSONBody(encodable:encoder:)` without
    /// the label, as PiuPiu 1.x also spells it.
    ///
    /// - Parameters:
    ///   - encodable: the value.
    ///   - encoder: the encoder (a fresh `JSONEncoder` by default).
    /// - Throws: `SerializationError.encodingFailed`.
    public mutating func setJSONBody<Value: Encodable>(_ encodable: Value, encoder: JSONEncoder = JSONEncoder()) throws
    {
        try setJSONBody(encodable: encodable, encoder: encoder)
    }

    /// Sets `Content-Type: application/json` unless the request already has a JSON content
    /// type; for extensions that set `httpBody` themselves.
    public mutating func ensureJSONContentType() {
        let current = headers["Content-Type"].map { MediaType($0).essence } ?? ""
        if current != "application/json" && !current.hasSuffix("+json") {
            headers["Content-Type"] = "application/json"
        }
    }

    /// Sets an `application/x-www-form-urlencoded` body (`PercentEncoding.form`: space as
    /// `+`, order kept).
    ///
    /// - Parameter items: the fields, in order.
    public mutating func setFormBody(_ items: [URLQueryItem]) {
        setBody(Data(PercentEncoding.form(items).utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// Sets an `application/x-www-form-urlencoded` body from a dictionary, keys sorted.
    ///
    /// - Parameter fields: the fields.
    public mutating func setFormBody(_ fields: [String: String]) {
        setFormBody(fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// Sets a `multipart/form-data` body of fields and files.
    ///
    /// - Parameters:
    ///   - parts: the parts, in order.
    ///   - boundary: the boundary (a random one by default).
    public mutating func setMultipartBody(_ parts: [MultipartPart], boundary: String = MultipartBody.randomBoundary()) {
        let body = MultipartBody(parts: parts, boundary: boundary)
        setBody(body.data, contentType: body.contentType)
    }

    /// Sets a raw body and, when given, its `Content-Type`.
    ///
    /// - Parameters:
    ///   - data: the bytes.
    ///   - contentType: the media type; `nil` leaves the headers as they are.
    public mutating func setBody(_ data: Data, contentType: String? = "application/octet-stream") {
        httpBody = data
        if let contentType { headers["Content-Type"] = contentType }
    }

    private static func charsetName(_ encoding: String.Encoding) -> String? {
        switch encoding {
        case .isoLatin1: return "iso-8859-1"
        case .ascii: return "us-ascii"
        case .utf16: return "utf-16"
        case .utf16BigEndian: return "utf-16be"
        case .utf16LittleEndian: return "utf-16le"
        case .windowsCP1252: return "windows-1252"
        default: return nil
        }
    }
}
