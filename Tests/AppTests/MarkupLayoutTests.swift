import Foundation
import Testing

@testable import App

/// XML and HTML laid out within bounds: a server's markup, however deep, costs the view a few
/// times its size, and what the view will not lay out is shown as received, with a note.
@Suite struct MarkupLayoutTests {
    private func lines(_ document: BodyDocument) -> [String] {
        (0..<document.lineCount).map { document.plainLine($0) }
    }

    private func nested(_ name: String, depth: Int) -> Data {
        Data((String(repeating: "<\(name)>", count: depth) + String(repeating: "</\(name)>", count: depth)).utf8)
    }

    @Test func indentationStopsGrowingAtThirtyTwoLevels() {
        let body = nested("a", depth: 2_000)
        guard case .laidOut(let text) = MarkupIndenter.layout([UInt8](body)) else {
            Issue.record("2,000 levels of <a> should be laid out")
            return
        }
        #expect(text.count <= MarkupIndenter.layoutBudget(for: body.count))
        let document = BodyDocument.make(body, contentType: "application/xml")
        #expect(document.note == nil)
        #expect(document.lineCount == 4_000)
        #expect(document.plainLine(31) == String(repeating: "  ", count: 31) + "<a>")
        #expect(document.plainLine(1_999) == String(repeating: "  ", count: 32) + "<a>")
        #expect(document.plainLine(3_999) == "</a>")
    }

    @Test func htmlNestedHundredThousandDivsDeepIsShownAsReceivedWithANote() {
        let body = nested("div", depth: 100_000)
        #expect(MarkupIndenter.layout([UInt8](body), html: true) == .overBudget(deepest: 100_000))
        let document = BodyDocument.make(body, contentType: "text/html; charset=utf-8")
        #expect(document.kind == .html)
        #expect(document.lineCount == 1)
        #expect(document.plainLine(0, maxBytes: 10) == "<div><div>")
        #expect(
            document.note
                == "Shown as received: this HTML nests 100,000 levels deep, and indented it would take more than "
                + "4 times its size plus 1 MB, the most the view lays out. s saves it to a file.")
    }

    @Test func xmlNestedHundredThousandLevelsDeepIsShownAsReceivedWithANote() {
        let body = Data(#"<?xml version="1.0"?>"#.utf8) + nested("item", depth: 100_000)
        #expect(MarkupIndenter.layout([UInt8](body)) == .overBudget(deepest: 100_000))
        let document = BodyDocument.make(body, contentType: "application/xml")
        #expect(document.kind == .xml)
        #expect(document.lineCount == 1)
        #expect(document.note?.hasPrefix("Shown as received: this XML nests 100,000 levels deep") == true)
    }

    @Test func aLessThanSignAfterTheLastTagIsText() {
        let document = BodyDocument.make(Data("<p>1 < 2".utf8), contentType: "text/html")
        #expect(lines(document) == ["<p>", "  1 ", "  < 2"])
    }

    @Test func htmlVoidElementsOpenNoLevel() {
        let document = BodyDocument.make(
            Data(#"<body><br><img src="a.png"><p>Hi</p></body>"#.utf8), contentType: "text/html")
        #expect(
            lines(document) == ["<body>", "  <br>", #"  <img src="a.png">"#, "  <p>", "    Hi", "  </p>", "</body>"])
    }

    @Test func xmlElementsNamedAsHTMLVoidElementsStillNest() {
        let document = BodyDocument.make(
            Data("<feed><link>https://a.example</link></feed>".utf8), contentType: "application/atom+xml")
        #expect(lines(document) == ["<feed>", "  <link>", "    https://a.example", "  </link>", "</feed>"])
    }
}
