import Foundation
import Testing

@testable import App
@testable import Terminal

/// Response bodies made ready to show: pretty JSON, indented markup, charsets, binary.
@Suite struct BodyDocumentTests {
    private func lines(_ document: BodyDocument) -> [String] {
        (0..<document.lineCount).map { document.plainLine($0) }
    }

    private func pretty(_ json: String) -> String? {
        Array(json.utf8).withUnsafeBytes { JSONPrettyPrinter.prettyPrint($0) }.map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    // MARK: - JSON

    @Test func nestedJSONIsIndentedTwoSpacesPerLevel() {
        let document = BodyDocument.make(Data(#"{"a":{"b":[1,2]},"c":"d"}"#.utf8), contentType: "application/json")
        #expect(document.kind == .json)
        #expect(
            lines(document) == [
                "{",
                "  \"a\": {",
                "    \"b\": [",
                "      1,",
                "      2",
                "    ]",
                "  },",
                "  \"c\": \"d\"",
                "}",
            ])
    }

    @Test func emptyObjectsAndArraysStayOnOneLine() {
        let document = BodyDocument.make(Data(#"{"a":{},"b":[]}"#.utf8), contentType: "application/json")
        #expect(lines(document) == ["{", "  \"a\": {},", "  \"b\": []", "}"])
    }

    @Test func stringsWithEscapesAndStructuralCharactersAreUntouched() {
        let json = #"{"s":"a \"quoted\" {not: [an, object]} \\ \u00e9 end"}"#
        let document = BodyDocument.make(Data(json.utf8), contentType: "application/json")
        #expect(lines(document) == ["{", #"  "s": "a \"quoted\" {not: [an, object]} \\ \u00e9 end""#, "}"])
    }

    @Test func theIndentationOfTheInputDoesNotMatter() {
        #expect(pretty("  [ 1 ,\n\t2 ]  ") == pretty("[1,2]"))
        #expect(pretty("[1,2]") == "[\n  1,\n  2\n]")
    }

    @Test func unbalancedJSONGivesNil() {
        #expect(pretty(#"{"a":[1,2}"#) == nil)
        #expect(pretty(#"{"a":1"#) == nil)
    }

    @Test func invalidJSONFallsBackToText() {
        let document = BodyDocument.make(Data("{not json".utf8), contentType: "application/json")
        #expect(document.kind == .text)
        #expect(lines(document) == ["{not json"])
    }

    @Test func jsonWithoutAContentTypeIsRecognised() {
        #expect(BodyDocument.make(Data(" [1]".utf8), contentType: nil).kind == .json)
        #expect(BodyDocument.make(Data("[1]".utf8), contentType: "text/plain; charset=utf-8").kind == .json)
        #expect(BodyDocument.make(Data("hello".utf8), contentType: nil).kind == .text)
    }

    @Test func anEmptyBodyHasNoLines() {
        let document = BodyDocument.make(Data(), contentType: "application/json")
        #expect(document.kind == .empty)
        #expect(document.lineCount == 0)
        #expect(document.linesMatching("a").isEmpty)
    }

    // MARK: - Highlighting

    @Test func jsonHighlighterGivesEachTokenItsRole() {
        let spans = JSONHighlighter.spans(#"  "key": "value", "n": 12.5, "t": true, "z": null"#)
        func role(of text: String) -> Role? { spans.first { $0.text == text }?.style.role }
        #expect(role(of: "\"key\"") == .jsonKey)
        #expect(role(of: "\"value\"") == .jsonString)
        #expect(role(of: "12.5") == .jsonNumber)
        #expect(role(of: "true") == .jsonBool)
        #expect(role(of: "null") == .jsonNull)
        #expect(spans.map(\.text).joined() == #"  "key": "value", "n": 12.5, "t": true, "z": null"#)
    }

    @Test func aStringWithAnEscapedQuoteIsOneSpan() {
        let spans = JSONHighlighter.spans(#""say \"hi\"""#)
        #expect(spans.count == 1)
        #expect(spans.first?.style.role == .jsonString)
    }

    @Test func punctuationIsHighlighted() {
        let spans = JSONHighlighter.spans("[")
        #expect(spans.map(\.style.role) == [.jsonPunctuation])
    }

    // MARK: - Markup

    @Test func xmlOnOneLineIsIndented() {
        let document = BodyDocument.make(
            Data(#"<?xml version="1.0"?><a><b>text</b><c/></a>"#.utf8), contentType: "application/xml")
        #expect(document.kind == .xml)
        #expect(lines(document) == [#"<?xml version="1.0"?>"#, "<a>", "  <b>", "    text", "  </b>", "  <c/>", "</a>"])
    }

    @Test func htmlIsIndentedAndTagsAreHighlighted() {
        let document = BodyDocument.make(Data("<html><body><p>Hi</p></body></html>".utf8), contentType: "text/html")
        #expect(document.kind == .html)
        #expect(lines(document) == ["<html>", "  <body>", "    <p>", "      Hi", "    </p>", "  </body>", "</html>"])
        let spans = document.spans(2, maxCharacters: 80)
        #expect(spans.map(\.text) == ["    ", "<p>"])
        #expect(spans.last?.style.role == .jsonKey)
    }

    @Test func markupLaidOutByItsAuthorIsKept() {
        let text = (0..<20).map { "<line n=\"\($0)\"/>" }.joined(separator: "\n")
        let document = BodyDocument.make(Data(text.utf8), contentType: "text/xml")
        #expect(document.lineCount == 20)
        #expect(document.plainLine(3) == "<line n=\"3\"/>")
    }

    // MARK: - Charsets

    @Test func latin1IsDecodedFromTheCharset() {
        let data = Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0xA3, 0x35])  // "café £5" in ISO-8859-1
        let document = BodyDocument.make(data, contentType: "text/plain; charset=ISO-8859-1")
        #expect(document.charset == "iso-8859-1")
        #expect(lines(document) == ["café £5"])
    }

    @Test func windows1252IsDecodedFromTheCharset() {
        let data = Data([0x80, 0x31, 0x30])  // "€10" in Windows-1252
        let document = BodyDocument.make(data, contentType: #"text/plain; charset="windows-1252""#)
        #expect(lines(document) == ["€10"])
    }

    @Test func latin1JSONIsPrettyPrinted() {
        let data = Data([0x7B, 0x22, 0x6E, 0x22, 0x3A, 0x22, 0xE9, 0x22, 0x7D])  // {"n":"é"}
        let document = BodyDocument.make(data, contentType: "application/json; charset=latin1")
        #expect(lines(document) == ["{", "  \"n\": \"é\"", "}"])
    }

    @Test func invalidUTF8ShowsReplacementCharacters() {
        let document = BodyDocument.make(Data([0x61, 0xFF, 0x62]), contentType: "text/plain")
        #expect(lines(document) == ["a\u{FFFD}b"])
    }

    // MARK: - Binary

    @Test func imagesAndUnknownBytesWithNULAreBinary() {
        #expect(BodyDocument.make(Data("PNG".utf8), contentType: "image/png").kind == .binary)
        #expect(BodyDocument.make(Data([0x00, 0x01, 0x02]), contentType: nil).kind == .binary)
        #expect(
            BodyDocument.make(Data([0x00, 0x41]), contentType: "text/plain").kind == .text, "a text type is trusted")
    }

    @Test func binaryIsShownAsHexDumpLines() {
        let data = Data((0..<20).map { UInt8($0 + 0x3E) })
        let document = BodyDocument.make(data, contentType: "application/octet-stream")
        #expect(document.lineCount == 2)
        #expect(
            lines(document) == [
                "00000000  3e 3f 40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d  >?@ABCDEFGHIJKLM",
                "00000010  4e 4f 50 51                                      NOPQ",
            ])
        #expect(BodyDocument.hexLine(Data([0x00, 0x7F, 0x20]), line: 0).hasSuffix("  .. "))
        #expect(BodyDocument.hexLine(data, line: 2) == "")
    }

    @Test func searchInAHexDumpMatchesTheDumpText() {
        let document = BodyDocument.make(Data((0..<40).map { UInt8($0) }), contentType: "application/octet-stream")
        #expect(document.linesMatching("00000020") == [2])
        #expect(document.linesMatching("1F") == [1])
    }

    @Test func summaryNamesKindSizeAndType() {
        let document = BodyDocument.make(Data("{}".utf8), contentType: "application/json")
        #expect(document.summary.hasPrefix("JSON · "))
        #expect(document.summary.hasSuffix(" · application/json"))
    }

    // MARK: - Search

    @Test func searchFindsLinesCaseInsensitivelyInOrder() {
        let document = BodyDocument.make(Data("Alpha\nbeta\nALPHABET\ngamma\n".utf8), contentType: "text/plain")
        #expect(document.linesMatching("alpha") == [0, 2])
        #expect(document.linesMatching("ALP") == [0, 2])
        #expect(document.linesMatching("a\nb").isEmpty, "matches stay within a line")
        #expect(document.linesMatching("") == [])
        #expect(document.linesMatching("delta") == [])
    }

    @Test func searchInPrettyJSONCountsShownLines() {
        let document = BodyDocument.make(Data(#"{"a":"x","b":{"c":"x"}}"#.utf8), contentType: "application/json")
        #expect(document.linesMatching("\"x\"") == [1, 3])
    }
}
