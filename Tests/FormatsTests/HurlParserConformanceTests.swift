import Foundation
import TestSupport
import Testing

@testable import Formats

/// Hurl's own parser tests (Orange-OpenSource/hurl, integration/hurl/tests_error_parser): each
/// file is refused at the line and column of Hurl's `.err` beside it, with Hurl's words.
@Suite struct HurlParserConformanceTests {
    /// Each refused file and the `.err` Hurl wrote for it (`jsonpath.err` is the one Hurl wrote
    /// before the file was renamed `invalid_jsonpath.hurl`).
    static let cases: [(file: String, err: String)] = [
        ("hexdigit.hurl", "hexdigit.err"), ("invalid_jsonpath.hurl", "jsonpath.err"),
        ("invalid_option.hurl", "invalid_option.err"), ("typo_option.hurl", "typo_option.err"),
        ("invalid_url_1.hurl", "invalid_url_1.err"), ("invalid_url_query_param.hurl", "invalid_url_query_param.err"),
        ("invalid_xpath.hurl", "invalid_xpath.err"), ("status.hurl", "status.err"), ("version.hurl", "version.err"),
        ("unicode.hurl", "unicode.err"), ("json.hurl", "json.err"),
        ("json_unexpected_eof.hurl", "json_unexpected_eof.err"),
        ("predicate_equal_value.hurl", "predicate_equal_value.err"), ("multipart.hurl", "multipart.err"),
        ("invalid_variable.hurl", "invalid_variable.err"),
        ("invalid_option_duration.hurl", "invalid_option_duration.err"),
        ("invalid_option_retry.hurl", "invalid_option_retry.err"),
        ("invalid_option_verbosity.hurl", "invalid_option_verbosity.err"),
        ("duplicate_response_section.hurl", "duplicate_response_section.err"),
        ("function_random_int_invalid_range.hurl", "function_random_int_invalid_range.err"),
        ("json_max_depth.hurl", "json_max_depth.err"),
    ]

    /// Where Hurl's `.err` points (`line:column`) and what it says there (after the caret).
    static func expected(_ err: String) throws -> (position: String, message: String) {
        let lines = err.components(separatedBy: "\n")
        let arrow = try #require(lines.first { $0.contains("--> ") })
        let place = arrow.split(separator: ":").suffix(2).joined(separator: ":")
        let caret = try #require(lines.first { $0.contains("^ ") })
        let message = caret[caret.range(of: "^ ")!.upperBound...]
        // Hurl lists the option names it knows; the first sentence is what is wrong.
        return (place, String(message.split(separator: ".").first ?? message))
    }

    /// Hurl's own files that Hurl reads (tests_ok): none is refused by the checks above.
    @Test(arguments: [
        "filter.hurl", "delay_option.hurl", "multilines.hurl", "form_params.hurl", "captures.hurl", "cookies.hurl",
        "basic_authentication_per_request.hurl", "multipart_form_data.hurl", "graphql.hurl", "headers.hurl",
        "empty_sections.hurl", "assert_json.hurl", "cookie_jar.hurl",
    ])
    func aFileHurlReadsIsImported(_ file: String) throws {
        let result = try HurlImporter().importFile(at: Fixtures.url("hurl/\(file)"))
        #expect(!result.collection.endpoints.isEmpty)
    }

    @Test(arguments: cases)
    func aFileHurlRefusesIsRefusedWhereHurlRefusesIt(_ file: String, _ err: String) throws {
        let url = Fixtures.url("hurl/errors/\(file)")
        let expected = try Self.expected(try String(contentsOf: Fixtures.url("hurl/errors/\(err)"), encoding: .utf8))
        let error = #expect(throws: ImportError.self) { try HurlImporter().importFile(at: url) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("\(url.path):\(expected.position):"), "\(text)")
        #expect(text.contains(expected.message), "\(text)")
    }
}

/// Hurl's `tests_ok/multilines.hurl`: multiline string bodies with and without a language,
/// as request bodies, as implicit response bodies and as the value of a `body ==` assert.
@Suite struct HurlMultilineStringTests {
    @Test func multilineBodiesAreSentAndCheckedAsHurlSendsAndChecksThem() throws {
        let result = try HurlImporter().importFile(at: Fixtures.url("hurl/multilines.hurl"))
        let endpoints = result.collection.endpoints
        #expect(endpoints.count == 4)
        guard endpoints.count == 4 else { return }
        let plain = "line1\nline2\nline3\n"
        #expect(endpoints[0].body == .raw(plain))
        // The explicit `body == "…"`, the multiline `body == ```…```` and the implicit body: the same text.
        #expect(endpoints[0].assertions.filter { $0.expected == .string(plain) }.count == 3)
        // The json hint on text that is no JSON (a comma is missing): sent as written.
        let json = "{\n  \"foo\": \"bar\"\n  \"baz\": 123456\n}\n"
        #expect(endpoints[1].body == .raw(json))
        #expect(endpoints[1].assertions.filter { $0.expected == .string(json) }.count == 3)
        guard case .raw(let xml)? = endpoints[2].body else {
            Issue.record("\(String(describing: endpoints[2].body))")
            return
        }
        #expect(xml.hasPrefix("<?xml version=\"1.0\"?>\n<catalog>") && xml.hasSuffix("</catalog>\n"))
        #expect(endpoints[2].assertions.filter { $0.expected == .string(xml) }.count == 3)
        // GraphQL: the JSON Hurl sends, and the asserts compare with it.
        let sent =
            #"{"query":"{\n  hero {\n    name\n    # Queries can have comments!\n    friends {\n      name\n    }\n  }\n}"}"#
        #expect(endpoints[3].body == .raw(sent))
        #expect(endpoints[3].assertions.filter { $0.expected == .string(sent) }.count == 3)
        _ = try writtenAndReadBack(result.collection, file: "multilines.yaml")
    }
}
