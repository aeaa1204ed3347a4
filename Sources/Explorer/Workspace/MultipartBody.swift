import Foundation

/// A `multipart/form-data` body (RFC 7578) with a random boundary.
struct MultipartBody: Sendable {
    /// One part: a text field, or a file when it has a file name.
    struct Part: Sendable {
        /// The field name.
        var name: String
        /// The file name, for file parts.
        var filename: String?
        /// The part's `Content-Type`; file parts without one are `application/octet-stream`.
        var contentType: String?
        /// The content.
        var data: Data
    }

    /// The parts, in order.
    let parts: [Part]
    /// The boundary between parts.
    let boundary: String

    /// Creates a body.
    init(parts: [Part], boundary: String = "explorer-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()) {
        self.parts = parts
        self.boundary = boundary
    }

    /// The `Content-Type` header value, with the boundary.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The encoded body.
    var data: Data {
        var out = Data()
        for part in parts {
            out.append(Data("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(escape(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(escape(filename))\"" }
            out.append(Data((disposition + "\r\n").utf8))
            if let type = part.contentType ?? (part.filename != nil ? "application/octet-stream" : nil) {
                out.append(Data("Content-Type: \(type)\r\n".utf8))
            }
            out.append(Data("\r\n".utf8))
            out.append(part.data)
            out.append(Data("\r\n".utf8))
        }
        out.append(Data("--\(boundary)--\r\n".utf8))
        return out
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }
}
