import Foundation
import Testing

@testable import Query

/// JSONPath as people type it to narrow a response; results are JSON arrays of matches.
@Suite struct JSONPathTests {
    private let document = #"""
        {"store": {"name": "corner", "items": [
          {"id": 1, "name": "apple", "price": 3, "tags": ["fruit"], "ok": true},
          {"id": 2, "name": "banana", "price": 1, "ok": false},
          {"id": 3, "name": "cherry", "price": 7, "tags": [], "odd key": "x"},
          {"id": 4, "name": "durian", "price": 12, "note": null}
        ]}, "id": 0}
        """#

    private func select(_ expression: String) throws -> [String] {
        let result = try JSONPath(expression).evaluate(Data(document.utf8))
        let array = try #require(try JSONSerialization.jsonObject(with: result, options: [.fragmentsAllowed]) as? [Any])
        return array.map { value in
            if let string = value as? String { return string }
            if let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
            {
                return String(decoding: data, as: UTF8.self)
            }
            return "\(value)"
        }
    }

    @Test func wildcardThenChild() throws {
        #expect(try select("$.store.items[*].name") == ["apple", "banana", "cherry", "durian"])
        #expect(try select("store.items[*].name") == ["apple", "banana", "cherry", "durian"], "the $ is optional")
        #expect(try select("$.store.*").count == 2)
    }

    @Test func recursiveDescentFindsEveryDepthInDocumentOrder() throws {
        // RFC 9535 §2.5.2.2: the selector applies to a node before the nodes below it, so the
        // document's own id comes first, then the store's in document order.
        #expect(try select("$..id") == ["0", "1", "2", "3", "4"])
        #expect(try select("$..price").count == 4)
    }

    @Test func membersKeepTheDocumentsOrderAndNumbersTheirSpelling() throws {
        let body = #"{"zeta": 1.10, "alpha": {"b": 2, "a": 12345678901234567890}, "mid": 1e3}"#
        let result = String(decoding: try JSONPath("$.*").evaluate(Data(body.utf8)), as: UTF8.self)
        // Not sorted, not re-spelled: 1.10 stays 1.10 and the 20-digit integer is not rounded.
        #expect(
            result == """
                [
                  1.10,
                  {
                    "b": 2,
                    "a": 12345678901234567890
                  },
                  1e3
                ]
                """)
    }

    @Test func indexesIncludingNegative() throws {
        #expect(try select("$.store.items[0].name") == ["apple"])
        #expect(try select("$.store.items[-1].name") == ["durian"])
        #expect(try select("$.store.items[-2].name") == ["cherry"])
        #expect(try select("$.store.items[9].name") == [])
    }

    @Test func slices() throws {
        #expect(try select("$.store.items[1:3].name") == ["banana", "cherry"])
        #expect(try select("$.store.items[:2].name") == ["apple", "banana"])
        #expect(try select("$.store.items[2:].name") == ["cherry", "durian"])
        #expect(try select("$.store.items[-2:].name") == ["cherry", "durian"])
        #expect(try select("$.store.items[3:1].name") == [])
    }

    @Test func quotedKeys() throws {
        #expect(try select("$['store']['name']") == ["corner"])
        #expect(try select("$.store.items[*]['odd key']") == ["x"])
        #expect(try select(#"$["store"].name"#) == ["corner"])
    }

    @Test func filtersCompareNumbers() throws {
        #expect(try select("$.store.items[?(@.price == 7)].name") == ["cherry"])
        #expect(try select("$.store.items[?(@.price != 7)].name") == ["apple", "banana", "durian"])
        #expect(try select("$.store.items[?(@.price < 3)].name") == ["banana"])
        #expect(try select("$.store.items[?(@.price <= 3)].name") == ["apple", "banana"])
        #expect(try select("$.store.items[?(@.price > 3)].name") == ["cherry", "durian"])
        #expect(try select("$.store.items[?(@.price >= 7)].name") == ["cherry", "durian"])
    }

    @Test func filtersCompareStringsBooleansAndNull() throws {
        #expect(try select(#"$.store.items[?(@.name == "banana")].id"#) == ["2"])
        #expect(try select("$.store.items[?(@.name == 'banana')].id") == ["2"])
        #expect(try select("$.store.items[?(@.ok == true)].name") == ["apple"])
        #expect(try select("$.store.items[?(@.ok == false)].name") == ["banana"])
        #expect(try select("$.store.items[?(@.note == null)].name") == ["durian"])
    }

    @Test func existenceFilters() throws {
        #expect(try select("$.store.items[?(@.tags)].name") == ["apple", "cherry"])
        #expect(try select("$.store.items[?(@.note)].name") == ["durian"], "a null member exists (RFC 9535 §2.3.5.2.2)")
        #expect(
            try select("$.store.items[?(@.note != null)].name") == ["apple", "banana", "cherry"],
            "an absent member is Nothing, which is not equal to null")
    }

    @Test func aMissingMemberSelectsNothing() throws {
        #expect(try select("$.nothing.here") == [])
        #expect(try select("$.store.name.deeper") == [])
    }

    @Test(arguments: [
        "$.items[", "$.items[abc]", "$.", "$..", "$.items[?(@.price ~ 3)]", "$$", "$.a[?(@.b == )]", "$['unclosed",
    ])
    func badExpressionsThrowAClearError(expression: String) {
        #expect(throws: JSONPath.Failure.self) { try JSONPath(expression) }
    }

    @Test func anErrorSaysWhereItIs() {
        do {
            _ = try JSONPath("$.items[")
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).contains("position 9"))
        }
    }

    @Test func aBodyThatIsNotJSONThrows() throws {
        let path = try JSONPath("$.a")
        #expect(throws: JSONPath.Failure.self) { try path.evaluate(Data("<html>".utf8)) }
    }
}
