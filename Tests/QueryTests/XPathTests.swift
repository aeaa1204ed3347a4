import Foundation
import NetworkingCore
import Testing

@testable import Demo
@testable import Query

/// `xpath` in assertions and captures: the subset of XPath on XML and on the HTML servers
/// really send, read by a reader that never prints, with clear errors for the rest.
@Suite struct XPathTests {
    private let catalog = DemoContent.xml.replacingOccurrences(of: "ENVIRONMENT", with: "local")
    private let page = DemoContent.serverErrorPage(requestID: "req-7")
    private let atom = """
        <?xml version="1.0"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><!-- a comment <entry> -->
          <title>News &amp; notes</title>
          <entry><title>First</title><link rel="alternate" href="/1"/><link rel="edit" href="/1/edit"/></entry>
          <entry><title><![CDATA[Second <b>bold</b>]]></title><link rel="alternate" href="/2"/></entry>
        </feed>
        """

    private func select(_ expression: String, in text: String, html: Bool? = nil) throws -> XPath.Selection {
        try XPath(expression).evaluate(try MarkupDocument(text, html: html))
    }

    @Test(arguments: [
        ("/catalog/book/title", ["XML Developer's Guide", "Midnight Rain"]),
        ("//title", ["XML Developer's Guide", "Midnight Rain"]),
        ("//book[2]/title", ["Midnight Rain"]),
        ("//book[last()]/author", ["Ralls, Kim"]),
        ("//book[@id='bk101']/price", ["44.95"]),
        (#"//book[@id!="bk101"]/@id"#, ["bk102"]),
        ("//price[@currency]/@currency", ["EUR", "EUR"]),
        ("/catalog/@environment", ["local"]),
        ("//book[1]/*", ["Gambardella, Matthew", "XML Developer's Guide", "44.95"]),
        ("//title/text()", ["XML Developer's Guide", "Midnight Rain"]),
        ("//price/../@id", ["bk101", "bk102"]),
        ("//book[3]", []),
        ("//nothing", []),
    ])
    func pathsPositionsAndAttributesOnXML(_ expression: String, _ expected: [String]) throws {
        #expect(try select(expression, in: catalog) == .values(expected))
    }

    @Test func countCountsTheNodes() throws {
        #expect(try select("count(//book)", in: catalog) == .count(2))
        #expect(try select("count(//entry/link)", in: atom) == .count(3))
        #expect(try select("count(//missing)", in: catalog) == .count(0))
    }

    @Test func commentsCDATAEntitiesAndADefaultNamespace() throws {
        #expect(try select("/feed/title", in: atom) == .values(["News & notes"]))
        #expect(try select("//entry[2]/title", in: atom) == .values(["Second <b>bold</b>"]))
        #expect(try select("//entry/link[@rel='alternate']/@href", in: atom) == .values(["/1", "/2"]))
        #expect(
            try select("//link[1]/@href", in: atom) == .values(["/1", "/2"]),
            "a position counts among each parent's children")
    }

    @Test func htmlAsServersSendItVoidElementsStylesAndAnyCase() throws {
        #expect(try select("/html/head/title", in: page) == .values(["500 Internal Server Error"]))
        #expect(try select("//H1", in: page) == .values(["Internal Server Error"]))
        #expect(try select("//p[2]/code", in: page) == .values(["req-7"]))
        #expect(try select("//meta/@charset", in: page) == .values(["utf-8"]))
        #expect(try select("/html/@LANG", in: page) == .values(["en"]))
        #expect(
            try select("//style", in: page) == .values(["body{font-family:sans-serif;margin:4em}code{background:#eee}"])
        )
        #expect(
            try select("count(/html/body/*)", in: page) == .count(5),
            "hr is void: address is its sibling, not its child")
        // Unclosed elements close with their parent; a stray end tag closes nothing.
        let loose = "<ul><li>one<li>two</span></ul><p>after"
        #expect(try select("count(//li)", in: loose, html: true) == .count(2))
        #expect(try select("//p", in: loose, html: true) == .values(["after"]))
    }

    @Test(arguments: [
        ("//book/following-sibling::book", "following-sibling:: is not in the XPath subset"),
        ("//book[contains(@id,'1')]", "is not a predicate of the subset"),
        ("//book | //title", "expected / or // before"),
        ("name(//book)", "name() is not in the XPath subset"),
        ("//book[0]", "a position counts from 1"),
        ("//book[@id=bk101]", "compare an attribute with a quoted value"),
        ("//@id/title", "an attribute (@…) can only end a path"),
        ("count(//book", "count( must close with )"),
        ("//book[1", "expected ] to close the predicate"),
    ])
    func anythingOutsideTheSubsetIsAClearError(_ expression: String, _ message: String) {
        do {
            _ = try XPath(expression)
            Issue.record("\(expression) was accepted")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func aBodyWithoutMarkupIsAFailureNotANoise() {
        #expect(throws: MarkupDocument.Failure.self) { try MarkupDocument("just text, no tags", html: false) }
        let deep = String(repeating: "<a>", count: MarkupDocument.maximumDepth + 5)
        #expect(throws: MarkupDocument.Failure.self) { try MarkupDocument(deep, html: false) }
    }
}
