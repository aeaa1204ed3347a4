import Foundation

/// One part of a `multipart/form-data` body: a field or a file.
public struct MultipartPart: Sendable, Hashable {
    /// The form field name.
    public var name: String
    /// The file name, for a file part.
    public var filename: String?
    /// The part's content type; a file part without one is sent as `application/octet-stream`.
    public var contentType: String?
    /// The part's bytes.
    public var data: Data

    /// A part.
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - filename: the file name, which makes it a file part.
    ///   - contentType: the part's media type.
    ///   - data: the bytes.
    public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    /// A text field.
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - value: the text.
    /// - Returns: the part.
    public static func field(_ name: String, _ value: String) -> MultipartPart {
        MultipartPart(name: name, data: Data(value.utf8))
    }

    /// A file.
    ///
    /// - Parameters:
    ///   - name: the field name.
    ///   - filename: the file name sent to the server.
    ///   - contentType: the file's media type (default `application/octet-stream`).
    ///   - data: the file's bytes.
    /// - Returns: the part.
    public static func file(
        _ name: String, filename: String, contentType: String = "application/octet-stream", data: Data
    ) -> MultipartPart {
        MultipartPart(name: name, filename: filename, contentType: contentType, data: data)
    }
}

/// A `multipart/form-data` body (RFC 7578), written as browsers and curl write it: names and
/// file names in double quotes with `"`, CR and LF percent-encoded (WHATWG's rule).
public struct MultipartBody: Sendable, Hashable {
    /// The parts, in order.
    public var parts: [MultipartPart]
    /// The boundary between parts.
    public var boundary: String

    /// A body of parts.
    ///
    /// - Parameters:
    ///   - parts: the parts, in order.
    ///   - boundary: the boundary (a random one by default).
    public init(parts: [MultipartPart], boundary: String = MultipartBody.randomBoundary()) {
        self.parts = parts
        self.boundary = boundary
    }

    /// A boundary no body is likely to hold: `Boundary-` and 32 random hex digits.
    public static func randomBoundary() -> String {
        "Boundary-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The `Content-Type` header value, with the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The encoded body.
    public var data: Data {
        var out = Data()
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.escaped(filename))\"" }
            head += "\r\n"
            if let type = part.contentType ?? (part.filename != nil ? "application/octet-stream" : nil) {
                head += "Content-Type: \(type)\r\n"
            }
            out.append(Data((head + "\r\n").utf8))
            out.append(part.data)
            out.append(Data("\r\n".utf8))
        }
        out.append(Data("--\(boundary)--\r\n".utf8))
        return out
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
