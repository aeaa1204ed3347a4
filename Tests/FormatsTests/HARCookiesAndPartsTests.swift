import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// A HAR request's `cookies` list and a form given as `postData.params`, as Chrome and Firefox
/// write them when they leave the Cookie header or the body's text out.
@Suite struct HARCookiesAndPartsTests {
    private func imported(_ request: String) throws -> Endpoint {
        let har =
            #"{"log": {"version": "1.2", "creator": {"name": "Firefox"}, "entries": [{"request": "# + request + "}]}}"
        let collection = try HARImporter().importData(Data(har.utf8)).collection
        let endpoint = try #require(collection.endpoints.first)
        // What the import says survives the collection file.
        _ = try writtenAndReadBack(collection, file: "har.yaml")
        return endpoint
    }

    @Test func aRequestsCookiesListBecomesACookieHeaderInOrder() throws {
        let endpoint = try imported(
            """
            {"method": "GET", "url": "https://shop.test/cart", "httpVersion": "HTTP/1.1",
             "headers": [{"name": "Accept", "value": "*/*"}],
             "cookies": [{"name": "session", "value": "abc123", "path": "/", "httpOnly": true}, {"name": "theme", "value": "dark"}]}
            """)
        #expect(endpoint.headers == [KeyValue("Accept", "*/*"), KeyValue("Cookie", "session=abc123; theme=dark")])
    }

    @Test func aCookieHeaderTheBrowserListedIsKeptAlone() throws {
        let endpoint = try imported(
            """
            {"method": "GET", "url": "https://shop.test/cart", "headers": [{"name": "Cookie", "value": "session=abc123"}],
             "cookies": [{"name": "session", "value": "abc123"}]}
            """)
        #expect(endpoint.headers == [KeyValue("Cookie", "session=abc123")])
    }

    @Test func theHeaderPlacementSaysHowManyCookiesWentIntoHeaders() throws {
        let har =
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://shop.test/a", "cookies": [{"name": "s", "value": "v1"}, {"name": "t", "value": "w"}]}},"#
            + #"{"request": {"method": "GET", "url": "https://shop.test/b", "cookies": [{"name": "s", "value": "v1"}]}}]}}"#
        let result = try HARImporter().importData(Data(har.utf8))
        #expect(result.cookies.isEmpty)
        #expect(
            result.warnings.contains {
                $0.hasPrefix("3 cookies of the requests' cookies lists went into the Cookie header of 2 endpoints")
            })
        #expect(!result.warnings.joined().contains("v1"))
    }

    // MARK: - Into the jar

    private let recorded = Date(timeIntervalSince1970: 1_800_000_000)

    private func jarImport(_ entries: String) throws -> ImportResult {
        try HARImporter().importData(
            Data(#"{"log": {"entries": ["#.utf8) + Data(entries.utf8) + Data("]}}".utf8), cookies: .jar, now: recorded)
    }

    @Test func theJarPlacementKeepsEachCookieWithItsAttributesAndNoCookieHeader() throws {
        let result = try jarImport(
            #"""
            {"request": {"method": "GET", "url": "https://www.shop.test/cart/items", "headers": [{"name": "Cookie", "value": "session=abc123; theme=dark; pref=1"}],
              "cookies": [{"name": "session", "value": "abc123", "path": "/", "domain": "www.shop.test", "expires": "2027-07-24T19:20:30.123+02:00",
                           "httpOnly": true, "secure": true, "sameSite": "Lax"},
                          {"name": "theme", "value": "dark", "domain": ".shop.test", "path": "/cart", "expires": "1969-12-31T23:59:59.000Z"},
                          {"name": "pref", "value": "1"}]}}
            """#)
        #expect(result.collection.endpoints.first?.headers == [])
        let expiry = try #require(ISO8601DateFormatter().date(from: "2027-07-24T17:20:30Z")).addingTimeInterval(0.123)
        #expect(result.cookies.count == 3)
        #expect(
            result.cookies.first.map { abs(($0.expires ?? .distantPast).timeIntervalSince(expiry)) < 0.001 } == true)
        var withoutExpiry = result.cookies
        withoutExpiry[0].expires = nil
        #expect(
            withoutExpiry == [
                Cookie(
                    name: "session", value: "abc123", domain: "www.shop.test", hostOnly: true, path: "/", secure: true,
                    httpOnly: true,
                    sameSite: "Lax", created: recorded),
                Cookie(
                    name: "theme", value: "dark", domain: "shop.test", hostOnly: false, path: "/cart", created: recorded
                ),
                Cookie(name: "pref", value: "1", domain: "www.shop.test", hostOnly: true, path: "/", created: recorded),
            ])
        #expect(result.warnings.isEmpty)
    }

    @Test func aCookieHeaderWithoutAListGivesItsPairsAndTheLastValueOfACookieWins() throws {
        let result = try jarImport(
            """
            {"request": {"method": "GET", "url": "http://127.0.0.1:8080/a", "headers": [{"name": "cookie", "value": "session=old; lang=en"}]}},
            {"request": {"method": "GET", "url": "http://127.0.0.1:8080/b", "headers": [{"name": "Cookie", "value": "session=new"}]}}
            """)
        #expect(
            result.cookies.map { "\($0.name)=\($0.value)@\($0.domain)\($0.path)" } == [
                "session=new@127.0.0.1/", "lang=en@127.0.0.1/",
            ])
        #expect(result.collection.endpoints.allSatisfy { $0.headers.isEmpty })
    }

    @Test func expiredOversizedAndMismatchedCookiesAreLeftOutByNameOnly() throws {
        let big = String(repeating: "x", count: CookieJar.maximumCookieSize)
        let result = try jarImport(
            """
            {"request": {"method": "GET", "url": "http://shop.test/a", "cookies": [
              {"name": "gone", "value": "secret-1", "expires": "2020-01-01T00:00:00Z"},
              {"name": "huge", "value": "\(big)"},
              {"name": "elsewhere", "value": "secret-2", "domain": "other.test"},
              {"name": "https-only", "value": "secret-3", "secure": true},
              {"name": "deeper", "value": "secret-4", "path": "/admin"},
              {"name": "kept", "value": "ok"}]}}
            """)
        #expect(result.cookies.map(\.name) == ["kept"])
        #expect(
            result.warnings == [
                "Cookies that have expired since the HAR file was recorded were left out of the jar: gone.",
                "Cookies larger than a jar keeps (4096 bytes of name and value) were left out: huge.",
                "Cookies whose domain, path or secure flag do not match the request they were recorded with were left out of the jar: deeper, elsewhere, https-only.",
            ])
        #expect(!result.warnings.joined().contains("secret"))
    }

    @Test func multipartParamsBecomePartsWithBaseNamesAndContentTypes() throws {
        let endpoint = try imported(
            #"""
            {"method": "POST", "url": "https://shop.test/upload",
             "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=----geckoformboundary1"}],
             "postData": {"mimeType": "multipart/form-data; boundary=----geckoformboundary1",
                          "text": "------geckoformboundary1\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n------geckoformboundary1--\r\n",
                          "params": [{"name": "title", "value": "Holiday"},
                                     {"name": "photo", "fileName": "C:\\Users\\ana\\Pictures\\beach.png", "contentType": "image/png"},
                                     {"name": "notes", "fileName": "/home/ana/notes.txt", "contentType": "text/plain", "value": "sunny"}]}}
            """#)
        #expect(
            endpoint.body
                == .multipart([
                    MultipartField(name: "title", value: "Holiday"),
                    MultipartField(name: "photo", value: "", filename: "beach.png", contentType: "image/png"),
                    MultipartField(name: "notes", value: "sunny", filename: "notes.txt", contentType: "text/plain"),
                ]))
        // The boundary of the browser's body is not the one explorer writes.
        #expect(!endpoint.headers.contains { $0.name.lowercased() == "content-type" })
    }

    @Test func multipartParamsWithoutFilesAreStillParts() throws {
        let endpoint = try imported(
            """
            {"method": "POST", "url": "https://shop.test/form",
             "postData": {"mimeType": "multipart/form-data; boundary=x", "params": [{"name": "a", "value": "1"}, {"name": "b", "value": "2"}]}}
            """)
        #expect(
            endpoint.body == .multipart([MultipartField(name: "a", value: "1"), MultipartField(name: "b", value: "2")]))
    }

    @Test func urlencodedParamsWithoutTextAreAForm() throws {
        let endpoint = try imported(
            """
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

    // MARK: - HAR as tools write it (Insomnia's importer fixtures)

    @Test func aQueryListedOnlyInQueryStringIsKept() throws {
        let result = try HARImporter().importFile(at: Fixtures.url("har/insomnia-deep-input.json"))
        let endpoint = try #require(result.collection.endpoints.first)
        #expect(endpoint.query == [KeyValue("foo", "bar")])
        #expect(endpoint.body == .raw("hello world!"))
    }

    @Test func aRequestObjectAloneIsOneEndpoint() throws {
        let shallow = try HARImporter().importFile(at: Fixtures.url("har/insomnia-shallow-input.json"))
        let endpoint = try #require(shallow.collection.endpoints.first)
        #expect(shallow.collection.endpoints.count == 1 && endpoint.method == .post && endpoint.path == "/foo/bar")
        #expect(endpoint.query == [KeyValue("foo", "bar")])
        #expect(endpoint.body == .form([KeyValue("foo", "bar")]))
        #expect(endpoint.headers.map(\.name) == ["Cookie"])
        let parts = try HARImporter().importFile(at: Fixtures.url("har/insomnia-form-data-input.json")).collection
        #expect(
            parts.endpoints.first?.body
                == .multipart([
                    MultipartField(name: "file", value: "", filename: "test.txt"),
                    MultipartField(name: "foo", value: "bar"),
                ]))
        // A list of entries, or one entry, reads too.
        let entry = #"{"request": {"method": "GET", "url": "https://a.test/x"}}"#
        #expect(try HARImporter().importData(Data(entry.utf8)).collection.endpoints.map(\.path) == ["/x"])
        #expect(try HARImporter().importData(Data("[\(entry), \(entry)]".utf8)).collection.endpoints.count == 2)
        #expect(throws: ImportError.self) { try HARImporter().importData(Data(#"{"something": 1}"#.utf8)) }
    }
}
