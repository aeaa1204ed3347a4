import Foundation
import Testing

@testable import Query

/// A filter applied to a body says why it cannot apply: a body nested past the depth limit is
/// too deep (and can be read with the limit raised), not "not valid JSON".
@Suite struct JSONPathBodyTests {
    private let deep = Data((String(repeating: "[", count: 600) + "1" + String(repeating: "]", count: 600)).utf8)

    @Test func aBodyNestedPastTheLimitIsSaidToBeTooDeepWithTheSettingThatRaisesIt() throws {
        let failure = #expect(throws: JSONPath.Failure.self) { try JSONPath("$").evaluate(deep) }
        #expect(
            failure?.description
                == "The body nests arrays and objects deeper than 512 levels, the most a JSONPath filter reads; "
                + "set EXPLORER_MAX_DOCUMENT_DEPTH to a larger number to read it.")
    }

    @Test func withTheLimitRaisedTheSameBodyIsRead() throws {
        let selected = try JSONPath("$" + String(repeating: "[0]", count: 600)).evaluate(deep, maximumDepth: 1000)
        #expect(String(decoding: selected, as: UTF8.self) == "[\n  1\n]")
    }

    @Test func aBodyThatIsNotJSONSaysWhereItStopsBeingJSON() throws {
        let failure = #expect(throws: JSONPath.Failure.self) { try JSONPath("$.a").evaluate(Data("<html>".utf8)) }
        #expect(
            failure?.description
                == "The body is not valid JSON (line 1, column 1: expected a value (an object, array, string, number, "
                + "true, false or null), found '<'), so a JSONPath filter cannot apply.")
    }
}
