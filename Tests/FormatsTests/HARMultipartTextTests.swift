import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// A HAR multipart body whose file parts Firefox lists in `params` without their content, while
/// `postData.text` holds every part whole: the parts are read from the text.
@Suite struct HARMultipartTextTests {
    private func imported(_ request: String) throws -> Endpoint {
        let har =
            #"{"log": {"version": "1.2", "creator": {"name": "Firefox"}, "entries": [{"request": "# + request + "}]}}"
        let collection = try HARImporter().importData(Data(har.utf8)).collection
        _ = try writtenAndReadBack(collection, file: "har.yaml")
        return try #require(collection.endpoints.first)
    }

    @Test func aFilePartKeepsTheContentTheTextHolds() throws {
        let endpoint = try imported(
            #"""
            {"method": "POST", "url": "https://httpbin.org/post",
             "headers": [{"name": "Content-Type", "value": "multipart/form-data; boundary=---------------------------27072"}],
             "postData": {"mimeType": "multipart/form-data; boundary=---------------------------27072",
                          "text": "-----------------------------27072\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n-----------------------------27072\r\nContent-Disposition: form-data; name=\"notes\"; filename=\"C:\\\\Users\\\\ana\\\\notes.txt\"\r\nContent-Type: text/plain\r\n\r\nsunny\r\nwarm\r\n-----------------------------27072--\r\n",
                          "params": [{"name": "title", "value": "Holiday"},
                                     {"name": "notes", "fileName": "notes.txt", "contentType": "text/plain", "value": ""}]}}
            """#)
        #expect(
            endpoint.body
                == .multipart([
                    MultipartField(name: "title", value: "Holiday"),
                    MultipartField(
                        name: "notes", value: "sunny\r\nwarm", filename: "notes.txt", contentType: "text/plain"),
                ]))
        #expect(!endpoint.headers.contains { $0.name.lowercased() == "content-type" })
    }

    @Test func aTextWithoutItsClosingDelimiterLeavesTheParamsInCharge() {
        #expect(
            HARImporter.multipartParts(
                of: "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n",
                mimeType: "multipart/form-data; boundary=b") == nil)
        #expect(
            HARImporter.multipartParts(
                of: "--B\nContent-Disposition: form-data; name=a\n\n1\n--B--\n", mimeType: "multipart/form-data")
                == [HARImporter.TextPart(name: "a", content: "1")])
    }
}
