import Foundation
import NetworkingCore
import Testing
@testable import Workspace
@testable import Formats

/// A HAR request's `cookies` list and a form given as `postData.params`, as Chrome and Firefox
/// write them when they leave the Cookie header or the body's text out.
@Suite struct HARCookiesAndPartsTests {
    private func imported(_ request: String) throws -> Endpoint {
        let har = #"{"log": {"version": "1.2", "creator": {"name": "Firefox"}, "entries": [{"request": "# + request + "}]}}"
        let collection = try HARImporter().importData(Data(har.utf8)).collection
        let endpoint = try #require(collection.endpoints.first)
        // What the import says survives the collection file.
        let reread = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: "har.yaml")
        #expect(reread.endpoints.first == endpoint)
        return endpoint
    }

    @Test func aRequestsCookiesListBecomesACookieHeaderInOrder() throws {
        let endpoint = try imported("""
        {"method": "GET", "url": "https://shop.test/cart", "httpVersion": "HTTP/1.1",
         "headers": [{"name": "Accept", "value": "*/*"}],
         "cookies": [{"name": "session", "value": "abc123", "path": "/", "httpOnly": true}, {"name": "theme", "value": "dark"}]}
        """)
        #expect(endpoint.headers == [KeyValue("Accept", "*/*"), KeyValue("Cookie", "session=abc123; theme=dark")])
    }

    @Test func aCookieHeaderTheBrowserListedIsKeptAlone() throws {
        let endpoint = try imported("""
        {"method": "GET", "url": "https://shop.test/cart", "headers": [{"name": "Cookie", "value": "session=abc123"}],
         "cookies": [{"name": "session", "value": "abc123"}]}
        """)
        #expect(endpoint.headers == [KeyValue("Cookie", "session=abc123")])
    }

    @Test func multipartParamsBecomePartsWithBaseNamesAndContentTypes() throws {
        let endpoint = try imported(#"""
        {"method": "POST", "url": "https://shop.test/upload",
         "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=----geckoformboundary1"}],
         "postData": {"mimeType": "multipart/form-data; boundary=----geckoformboundary1",
                      "text": "------geckoformboundary1\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n------geckoformboundary1--\r\n",
                      "params": [{"name": "title", "value": "Holiday"},
                                 {"name": "photo", "fileName": "C:\\Users\\ana\\Pictures\\beach.png", "contentType": "image/png"},
                                 {"name": "notes", "fileName": "/home/ana/notes.txt", "contentType": "text/plain", "value": "sunny"}]}}
        """#)
        #expect(endpoint.body == .multipart([
            MultipartField(name: "title", value: "Holiday"),
            MultipartField(name: "photo", value: "", filename: "beach.png", contentType: "image/png"),
            MultipartField(name: "notes", value: "sunny", filename: "notes.txt", contentType: "text/plain"),
        ]))
        // The boundary of the browser's body is not the one explorer writes.
        #expect(!endpoint.headers.contains { $0.name.lowercased() == "content-type" })
    }

    @Test func multipartParamsWithoutFilesAreStillParts() throws {
        let endpoint = try imported("""
        {"method": "POST", "url": "https://shop.test/form",
         "postData": {"mimeType": "multipart/form-data; boundary=x", "params": [{"name": "a", "value": "1"}, {"name": "b", "value": "2"}]}}
        """)
        #expect(endpoint.body == .multipart([MultipartField(name: "a", value: "1"), MultipartField(name: "b", value: "2")]))
    }

    @Test func urlencodedParamsWithoutTextAreAForm() throws {
        let endpoint = try imported("""
        {"method": "POST", "url": "https://shop.test/login",
         "postData": {"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "user", "value": "ana"}]}}
        """)
        #expect(endpoint.body == .form([KeyValue("user", "ana")]))
    }

    @Test func baseNamesOfEveryPathSpelling() {
        #expect(HARImporter.baseName("C:\\fakepath\\a.png") == "a.png")
        #expect(HARImporter.baseName("/tmp/dir/b.txt") == "b.txt")
        #expect(HARImporter.baseName("c.bin") == "c.bin")
        #expect(HARImporter.baseName("dir/") == "dir")
    }
}
