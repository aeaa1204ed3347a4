import Foundation

/// An RFC 9457 problem details object (`application/problem+json`), typed.
///
/// The standard members are properties; every other member is kept in `extensions`.
public struct ProblemDetails: Sendable, Hashable, Decodable {
    /// A URI reference that identifies the problem type (`about:blank` when absent).
    public var type: String
    /// A short, human-readable summary of the problem type.
    public var title: String?
    /// The HTTP status code the server generated for this occurrence.
    public var status: Int?
    /// A human-readable explanation specific to this occurrence.
    public var detail: String?
    /// A URI reference that identifies this occurrence.
    public var instance: String?
    /// The extension members, by name.
    public var extensions: [String: JSONValue]

    /// Creates problem details.
    public init(
        type: String = "about:blank", title: String? = nil, status: Int? = nil, detail: String? = nil,
        instance: String? = nil, extensions: [String: JSONValue] = [:]
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.extensions = extensions
    }

    /// Decodes problem details; members of the wrong type are ignored, as RFC 9457 asks.
    public init(from decoder: Decoder) throws {
        guard let members = try JSONValue(from: decoder).members else {
            throw DecodingError.typeMismatch(
                ProblemDetails.self,
                .init(codingPath: decoder.codingPath, debugDescription: "problem details must be a JSON object"))
        }
        self.init(members: members)
    }

    /// Problem details from the members of a JSON object; members of the wrong type are
    /// ignored, as RFC 9457 asks.
    init(members: [(key: String, value: JSONValue)]) {
        var members = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
        type = members.removeValue(forKey: "type")?.stringValue ?? "about:blank"
        title = members.removeValue(forKey: "title")?.stringValue
        status = members.removeValue(forKey: "status")?.intValue
        detail = members.removeValue(forKey: "detail")?.stringValue
        instance = members.removeValue(forKey: "instance")?.stringValue
        extensions = members
    }

    /// Parses a body as problem details when its content type is `application/problem+json`.
    static func parse(body: Data?, contentType: String?) -> ProblemDetails? {
        guard let body, let contentType,
            MediaType(contentType).essence == "application/problem+json"
        else { return nil }
        guard let members = (try? JSONValue(parsing: body))?.members else { return nil }
        return ProblemDetails(members: members)
    }
}

/// A parsed `Content-Type` value: its essence (`type/subtype`, lower-cased) and parameters.
struct MediaType {
    var essence: String
    var parameters: [String: String]

    init(_ value: String) {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        essence = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces).lowercased()
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            parameters[name] = value
        }
        self.parameters = parameters
    }
}
