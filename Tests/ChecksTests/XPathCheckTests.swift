import Foundation
import NetworkingCore
import Testing

@testable import Checks
@testable import Demo
@testable import Workspace

/// `xpath` in assertions and captures, on the XML and HTML the demo serves.
@Suite struct XPathCheckTests {
    private let catalog = DemoContent.xml.replacingOccurrences(of: "ENVIRONMENT", with: "local")
    private let page = DemoContent.serverErrorPage(requestID: "req-7")

    // MARK: - In assertions and captures

    private func response(_ body: String, contentType: String) -> CheckedResponse {
        CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", contentType)]), body: Data(body.utf8),
            durationMilliseconds: 5)
    }

    @Test(arguments: [
        "xpath /catalog/book[1]/title == \"XML Developer's Guide\"", "xpath //book/@id includes bk102",
        "xpath //book isCollection",
        "xpath count(//book) == 2", "xpath count(//book) isInteger", "xpath //book[1]/price == 44.95",
        "xpath //book[9] not exists",
        "xpath /catalog/@environment startsWith loc", "xpath //book[2]/title contains Rain",
    ])
    func assertionsReadTheXPath(_ text: String) throws {
        let result = try Assertion(parsing: text).check(response(catalog, contentType: "application/xml"))
        #expect(result.passed, "\(result.line)")
    }

    @Test func aFailedXPathAssertionSaysWhatItFound() throws {
        let html = response(page, contentType: "text/html; charset=utf-8")
        let wrong = try Assertion(parsing: "xpath //h1 == \"Not Found\"").check(html)
        #expect(!wrong.passed && wrong.actual == "\"Internal Server Error\"")
        let missing = try Assertion(parsing: "xpath //nav exists").check(html)
        #expect(missing.reason == "the XPath //nav selects nothing")
        let binary = CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "image/png")]), body: Data([0x89, 0x50, 0x00, 0xFF]),
            durationMilliseconds: 1)
        #expect(try Assertion(parsing: "xpath //a exists").check(binary).reason?.contains("binary") == true)
        let json = response("{\"a\": 1}", contentType: "application/json")
        #expect(
            try Assertion(parsing: "xpath //a exists").check(json).reason == "the body holds no XML or HTML element")
    }

    @Test func capturesTakeTheFirstNodesTextOrTheCount() throws {
        let body = response(catalog, contentType: "text/xml")
        let collection = try CollectionLoader.parse(
            """
            name: XML
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: Books
                path: /xml
                capture:
                  first_id: { xpath: "//book/@id" }
                  books: { xpath: "count(//book)" }
                  nothing: { xpath: "//magazine" }
            """, file: "xml.yaml")
        let endpoint = try collection.endpoint(named: "Books")
        let report = endpoint.check(body)
        #expect(report.captured.map(\.name) == ["first_id", "books"])
        #expect(report.captured.map(\.value) == ["bk101", "2"])
        #expect(report.captureFailures == ["nothing: the XPath //magazine selects nothing"])
        // Written back as it was read.
        let again = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: "again.yaml")
        #expect(again == collection)
    }
}
