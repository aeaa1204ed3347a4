import Foundation
import Testing

@testable import App
@testable import Query

/// The body view's JSONPath filter (`f`): its size limit and its pretty result.
@Suite struct JSONPathFilterTests {
    @Test func aBodyPastTheFilterLimitIsRefusedWithWhatToDoInstead() throws {
        let big = BodyDocument.make(Data(count: JSONPath.filterLimit + 1), contentType: "application/octet-stream")
        let error = #expect(throws: JSONPath.Failure.self) { try JSONPath.filter(big, "$.a") }
        #expect(error?.description.contains("the JSONPath filter reads bodies up to 64 MB") == true)
        #expect(error?.description.contains("jq") == true)
    }

    @Test func theResultIsPrettyJSON() throws {
        let result = try JSONPath("$.items[0].tags").evaluate(
            Data(#"{"items": [{"tags": ["fruit"]}, {"tags": []}]}"#.utf8))
        let document = BodyDocument.make(result, contentType: "application/json")
        #expect((0..<document.lineCount).map { document.plainLine($0) } == ["[", "  [", "    \"fruit\"", "  ]", "]"])
    }
}
