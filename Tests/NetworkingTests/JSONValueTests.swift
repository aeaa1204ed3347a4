import Foundation
import Networking
import Testing

@Suite struct JSONValueTests {
    @Test func aDocumentRoundTripsAsWritten() throws {
        let text = #"{"zeta":1.10,"alpha":[-0.50,1e3,2E-7,0],"mid":{"b":null,"a":true,"c":"é\n\"/"},"dup":1,"dup":2}"#
        let value = try JSONValue(parsing: text)
        #expect(value.serialized() == text)
        #expect(value.members?.map(\.key) == ["zeta", "alpha", "mid", "dup", "dup"])
        #expect(value["zeta"] == .number("1.10"))
        #expect(value["dup"]?.intValue == 2)
        #expect(value["alpha"]?[1]?.numberValue == 1000)
        #expect(value["mid"]?["c"]?.stringValue == "é\n\"/")
    }

    @Test func prettyTextIsIndentedByTwoAndReadsBackTheSame() throws {
        let value: JSONValue = ["b": [1, 2.5, "x"], "a": [:], "c": []]
        let pretty = value.serialized(pretty: true)
        #expect(pretty == "{\n  \"b\": [\n    1,\n    2.5,\n    \"x\"\n  ],\n  \"a\": {},\n  \"c\": []\n}")
        #expect(try JSONValue(parsing: pretty) == value)
    }

    @Test func escapesAndSurrogatePairsAreRead() throws {
        let value = try JSONValue(parsing: #"["\u00e9\ud83d\ude00\t\/", "\ud800x"]"#)
        #expect(value[0]?.stringValue == "é😀\t/")
        #expect(value[1]?.stringValue == "\u{FFFD}x")
        #expect(JSONValue.string("a\u{01}\"").serialized() == #""a\u0001\"""#)
    }

    @Test func stringsAreQuotedAsJSONRequiresInRunsAndEscapes() throws {
        // Every control character, the two that must be escaped, and runs around them.
        var text = ""
        for scalar in 0..<0x20 { text += "run\(scalar)" + String(UnicodeScalar(UInt8(scalar))) }
        text += "\"é\\😀/ end"
        let quoted = JSONValue.quote(text)
        #expect(quoted.hasPrefix(#""run0\u0000run1\u0001"#))
        #expect(quoted.contains(#"run9\trun10\nrun11\u000brun12\u000crun13\rrun14"#))
        #expect(quoted.hasSuffix(#"run31\u001f\"é\\😀/ end""#))
        #expect(try JSONValue(parsing: quoted) == .string(text))
        #expect(JSONValue.quote("") == #""""#)
        #expect(JSONValue.quote("plain") == #""plain""#)
        #expect(JSONValue.quote("\"") == #""\"""#)
        // The compact writer quotes the same way (a bridged or native string alike).
        #expect(JSONValue.string(text).serialized() == quoted)
    }

    @Test func dataWithAByteOrderMarkParses() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + Data(#"{"a":1}"#.utf8)
        #expect(try JSONValue(parsing: data) == ["a": 1])
    }

    @Test func aLargeValueIsWrittenInPiecesThatJoinToItsText() {
        let value = JSONValue.array(
            (0..<20_000).map { ["id": .number(String($0)), "name": .string("item \"\($0)\"")] })
        var pieces: [String] = []
        value.write(pretty: true) { pieces.append($0) }
        #expect(pieces.joined() == value.serialized(pretty: true))
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.utf8.count < 80 * 1024 })
    }

    @Test func aSliceOfDataParsesInPlace() throws {
        let data = Data(#"xx{"a":[1,"é"]}"#.utf8)
        #expect(try JSONValue(parsing: data[2...]) == ["a": [1, "é"]])
    }

    @Test func nestingPastTheLimitIsSaidAsSuchNotAsAMistake() {
        let deep = Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        do {
            _ = try JSONValue(parsing: deep)
            Issue.record("600 levels were read past the limit of 512")
        } catch {
            #expect(error.isTooDeep)
            #expect(error.message == "nested deeper than 512 levels")
        }
        #expect(throws: Never.self) { try JSONValue(parsing: deep, maximumDepth: 601) }
        do {
            _ = try JSONValue(parsing: "[1,]")
        } catch {
            #expect(!error.isTooDeep)
        }
    }

    @Test func mistakesNameLineAndColumn() {
        func failure(_ text: String) -> JSONValue.SyntaxError? {
            do {
                _ = try JSONValue(parsing: text)
                return nil
            } catch { return error }
        }
        #expect(failure("{\"a\": [1, 2]}") == nil)
        #expect(
            failure("{\n  \"a\": tru\n}")?.description == "line 2, column 11: expected true, found a control character")
        let trailing = failure("[1,\n 2,\n]")
        #expect(trailing?.line == 3 && trailing?.column == 1)
        #expect(trailing?.message == "a trailing comma before ']'")
        let open = failure("{\"a\": \"x}")
        #expect(open?.message == "the string that starts here is not closed" && open?.column == 7)
        #expect(failure("{} x")?.message == "unexpected 'x' after the end of the JSON value")
        #expect(failure("[\"é\", x]")?.column == 7)
        #expect(failure("01")?.message == "unexpected '1' after the end of the JSON value")
        #expect(failure("[1.]")?.message == "expected a digit after '.', found ']'")
        #expect(failure("\"\\q\"")?.message == "\\q is not a JSON escape")
        #expect(failure(String(repeating: "[", count: 600))?.message.contains("deeper") == true)
        #expect(failure("[[1]]") == nil)
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue(parsing: "[[1]]", maximumDepth: 1) }
    }

    @Test func codableKeepsOrderThroughTheEncoderAndWholeNumbersAsIntegers() throws {
        let value: JSONValue = ["n": 3, "x": 0.25, "s": "t", "l": [true, nil]]
        let data = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(back["n"] == .number("3"))
        #expect(back["x"] == .number("0.25"))
        #expect(back["l"] == [true, nil])
        #expect(JSONValue(1e20) == .number("1e+20"))
        #expect(JSONValue(Double.nan) == .null)
    }

    @Test func decodeJSONValueKeepsTheBodysOrderAndSaysWhereItIsNotJSON() throws {
        let request = PreparedRequest(url: URL(string: "http://h/")!)
        let body = Data(#"{"z":1.0,"a":2}"#.utf8)
        let json = try Response<Data?>(statusCode: .ok, headers: [:], data: body, request: request).decodeJSONValue()
        #expect(json.serialized() == #"{"z":1.0,"a":2}"#)
        let broken = Response<Data?>(statusCode: .ok, headers: [:], data: Data("{\"a\":".utf8), request: request)
        #expect(throws: SerializationError.self) { try broken.decodeJSONValue() }
        do { _ = try broken.decodeJSONValue() } catch { #expect("\(error)".contains("line 1, column 6")) }
    }
}
