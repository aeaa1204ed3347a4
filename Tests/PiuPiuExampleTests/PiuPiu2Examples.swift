import Foundation
import Networking

#if canImport(FoundationNetworking)
import FoundationNetworking  // Linux: where `URLRequest` lives
#endif

// Every code example of PiuPiu 2's README, as its users write them, in order. What differs is
// marked `// README:` (a typo that does not compile anywhere) or `// test:` (the test server's
// address, what is returned for the test to check).

// "2. Instantiate a Dispatcher"
final class PostsScreen {
    private let dispatcher = URLRequestDispatcher()

    // ...

    let server: URL
    init(server: URL) { self.server = server }

    // "3. Making a request"
    func makingARequest() async throws -> Response<Data?> {
        // README: URL(string: "https://jsonplaceholder.typicode.com/posts/1")!
        let url = server.appendingPathComponent("posts/1")
        let request = URLRequest(url: url, method: .get)
        let response = try await dispatcher.data(from: request)
        return response  // test:
    }

    func allPosts() async throws -> Response<Data?> {
        try await dispatcher.data(from: URLRequest(url: server.appendingPathComponent("posts"), method: .get))
    }

    func greeting() async throws -> Response<Data?> {
        try await dispatcher.data(from: URLRequest(url: server.appendingPathComponent("greeting"), method: .get))
    }
}

// "Decoding"
enum PiuPiu2Decoding {
    // Unwrapping `Data`
    static func unwrappingData(_ response: Response<Data?>) throws -> (Data, Data) {
        let responseWithData = try response.ensureData()
        let data = responseWithData.body  // README: `responseWithPosts.body` (no such name)

        let data2 = try response.unwrapData()  // README: `let data = ...` (the "or" alternative)
        return (data, data2)  // test:
    }

    // Decode `String`
    static func decodeString(_ response: Response<Data?>) throws -> String {
        let string = try response.ensureData().decodeString(encoding: .utf8)
        return string  // test:
    }

    // Decode `Decodable`
    static func decodeDecodable(_ response: Response<Data?>) async throws -> ([Post], [Post]) {
        let responseWithPosts = try await response.ensureDecoded([Post].self)
        let posts = responseWithPosts.body

        // README: `let posts = ...` (the "or" alternative)
        let posts2 = try await response.ensureData().decode([Post].self)
        return (posts, posts2)  // test:
    }

    // Chaining
    static func chaining(_ response: Response<Data?>) async throws -> ([Post], HTTPStatus) {
        let decodedResponse =
            try await response
            .ensureHTTPResponse()
            .ensureValidResponse()
            .ensureData()
            .ensureDecoded([Post].self)

        let posts = decodedResponse.body
        let statusCode = decodedResponse.statusCode
        return (posts, statusCode)  // test:
    }
}

// "Transforms"
struct ExampleModel: Codable {
    enum CodingKeys: String, CodingKey {
        case timeZoneId
    }

    let timeZone: TimeZone

    init(timeZone: TimeZone) { self.timeZone = timeZone }  // test: to encode one

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.timeZone = try container.decode(using: TimeZoneTransform(), forKey: .timeZoneId)
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(timeZone, forKey: .timeZoneId, using: TimeZoneTransform())
    }
}

// "Custom transforms": the README shows the included `DateTransform`; here one of our own
// written the same way (the README's own listing does not compile: `toJSON(Date, ...)` has no
// parameter name and uses `value`).
final class DayTransform: Transform {
    let formatter: DateFormatter

    init(formatter: DateFormatter) {
        self.formatter = formatter
    }

    func from(json: String, codingPath: [CodingKey]) throws -> Date {
        guard let date = formatter.date(from: json) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription:
                        "Could not convert `\(json)` to `Date` using formatter `\(String(describing: formatter))`"))
        }

        return date
    }

    func toJSON(_ value: Date, codingPath: [CodingKey]) throws -> String {
        return formatter.string(from: value)
    }
}

/// Every included transform, and `EmptyStringTransform` with `decodeIfPresent` as the README's
/// note writes it.
struct Profile: Codable {
    enum CodingKeys: String, CodingKey { case born, homepage, id, code, value, nickname }

    let born: Date
    let homepage: URL
    let id: Int64
    let code: String
    let value: String?
    let nickname: String?

    static let days: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.born = try container.decode(using: DateTransform(formatter: Self.days), forKey: .born)
        self.homepage = try container.decode(using: URLTransform(), forKey: .homepage)
        self.id = try container.decode(using: IntFromStringTransform(), forKey: .id)
        self.code = try container.decode(using: StringFromIntTransform(), forKey: .code)
        self.value = try container.decodeIfPresent(using: EmptyStringTransform(), forKey: .value) ?? nil
        self.nickname = try container.decodeIfPresent(using: EmptyStringTransform(), forKey: .nickname) ?? nil
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(born, forKey: .born, using: DayTransform(formatter: Self.days))
        try container.encode(homepage, forKey: .homepage, using: URLTransform())
        try container.encode(id, forKey: .id, using: IntFromStringTransform())
        try container.encode(code, forKey: .code, using: StringFromIntTransform())
        try container.encode(value, forKey: .value, using: EmptyStringTransform())
        try container.encodeIfPresent(nickname, forKey: .nickname, using: EmptyStringTransform())
    }
}
