import Foundation
import Networking
import Testing

@Suite struct CodingTransformTests {
    struct User: Codable, Equatable, Sendable {
        @Transformed<IntFromStringTransform> var id: Int64
        @Transformed<StringFromIntTransform> var code: String
        @Transformed<ISO8601DateTransform> var joined: Date
        @Transformed<UnixTimestampTransform> var seen: Date
        @Transformed<TimeZoneTransform> var zone: TimeZone
        @Transformed<URLTransform> var homepage: URL
        @Transformed<EmptyStringTransform> var nickname: String?
        @Transformed<EmptyStringTransform> var motto: String?
    }

    @Test func transformsDecodeWhatAPIsSendAndEncodeItBack() throws {
        let json =
            #"{"id":"42","code":7,"joined":"2024-05-01T10:00:00.250Z","seen":1700000000,"zone":"Europe/Paris","homepage":"https://example.com/a b","nickname":""}"#
        let user = try JSONDecoder().decode(User.self, from: Data(json.utf8))

        #expect(user.id == 42)
        #expect(user.code == "7")
        #expect(abs(user.joined.timeIntervalSince1970 - 1_714_557_600.25) < 0.001)
        #expect(user.seen == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(user.zone.identifier == "Europe/Paris")
        #expect(user.homepage.absoluteString == "https://example.com/a%20b")
        #expect(user.nickname == nil)
        #expect(user.motto == nil)

        let again = try JSONDecoder().decode(User.self, from: try JSONEncoder().encode(user))
        #expect(again.id == 42 && again.code == "7" && again.zone == user.zone && again.homepage == user.homepage)
    }

    @Test func anInvalidValueFailsWithItsCodingPath() async throws {
        let mock = MockDispatcher()
        mock.stub(path: "/user", with: .data(Data(#"{"id":"forty-two"}"#.utf8), contentType: "application/json"))
        struct OnlyID: Decodable, Sendable { @Transformed<IntFromStringTransform> var id: Int64 }

        let error = await #expect(throws: SerializationError.self) {
            try await mock.future(from: BasicRequest(path: "/user")).ensureDecoded(OnlyID.self).value
        }
        guard case .decodingFailed(_, let path, let reason, _) = error else {
            Issue.record("wrong error")
            return
        }
        #expect(path == "id")
        #expect(reason.contains("'forty-two' is not an integer"))
    }
}
