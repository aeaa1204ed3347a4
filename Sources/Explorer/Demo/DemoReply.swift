import Foundation
import HTTPTypes
import Hummingbird

/// Builds the demo API's responses: JSON, RFC 9457 problem details, text and HTML.
enum DemoReply {
    static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    static func json(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Hummingbird.Response {
        let data = (try? jsonEncoder.encode(value)) ?? Data("{}".utf8)
        return bytes(data, contentType: "application/json; charset=utf-8", status: status, headers: headers)
    }

    /// A JSON value built from plain dictionaries and arrays (for bodies whose keys vary).
    static func jsonObject(
        _ object: Any, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Hummingbird.Response {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return bytes(data, contentType: "application/json; charset=utf-8", status: status, headers: headers)
    }

    /// An `application/problem+json` body (RFC 9457).
    ///
    /// - Parameters:
    ///   - status: the HTTP status, repeated in the body's `status` member.
    ///   - type: the problem type's slug, made into a URI under the demo's problem namespace.
    ///   - detail: what happened to this request, for a person.
    ///   - instance: the path of the request that failed.
    ///   - extensions: extension members such as `errors`.
    static func problem(
        _ status: HTTPResponse.Status,
        type: String,
        title: String,
        detail: String,
        instance: String,
        extensions: [String: Any] = [:],
        headers: HTTPFields = [:]
    ) -> Hummingbird.Response {
        var object: [String: Any] = [
            "type": "https://demo.explorer.example/problems/\(type)",
            "title": title,
            "status": status.code,
            "detail": detail,
            "instance": instance,
        ]
        object.merge(extensions) { _, new in new }
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return bytes(data, contentType: "application/problem+json", status: status, headers: headers)
    }

    static func text(
        _ text: String, contentType: String = "text/plain; charset=utf-8", status: HTTPResponse.Status = .ok
    ) -> Hummingbird.Response {
        bytes(Data(text.utf8), contentType: contentType, status: status)
    }

    static func bytes(
        _ data: Data, contentType: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) -> Hummingbird.Response {
        var fields = headers
        fields[.contentType] = contentType
        return Hummingbird.Response(
            status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Builds a header name the demo uses; the names are fixed ASCII tokens.
    static func header(_ name: String) -> HTTPField.Name {
        HTTPField.Name(name)!
    }
}
