import Foundation
import Networking
import Testing

/// The IETF http-state cookie tests (github.com/abarth/http-state, `tests/data/parser.json`),
/// run when `HTTP_STATE_TESTS` names that file: the suite is not kept in this repository.
///
/// Each case is a set of `Set-Cookie` fields answered to
/// `http://home.example.org:8888/cookie-parser?NAME` and the `Cookie` a user agent sends to the
/// URL it then reads (`/cookie-parser-result?NAME`, or the case's `sent-to`). Cases named
/// `DISABLED_…` are left out, as the suite's own runner does.
@Suite(.enabled(if: HTTPStateSuite.cases != nil, "HTTP_STATE_TESTS names the suite's parser.json"))
struct HTTPStateSuiteTests {
    @Test func everyCaseSendsBackWhatTheSuiteExpectsAcrossTwoRequests() throws {
        let cases = try #require(HTTPStateSuite.cases)
        var failed: [String] = []
        for test in cases {
            let jar = CookieJar()
            jar.store(setCookie: test.received, from: test.setURL, now: HTTPStateSuite.written)
            let sent = jar.cookieHeader(for: test.readURL, now: HTTPStateSuite.written)
            if sent != test.expected { failed.append("\(test.name): sent \(sent ?? "nothing"), expected \(test.expected ?? "nothing")") }
        }
        print("http-state, direct: \(cases.count - failed.count)/\(cases.count)")
        #expect(failed.isEmpty, "\(failed.count) of \(cases.count):\n\(failed.joined(separator: "\n"))")
    }
}

/// The suite's cases, read from the file `HTTP_STATE_TESTS` names.
enum HTTPStateSuite {
    /// A time when the suite was written (2011): two of its cases expect a cookie that
    /// `Expires` in 2019 to be sent back.
    static let written = Date(timeIntervalSince1970: 1_320_000_000)

    struct Case: Sendable {
        var name: String
        var received: [String]
        var expected: String?
        var sentTo: String?

        /// The URL that answers with the case's `Set-Cookie` fields.
        var setURL: URL { URL(string: "http://home.example.org:8888/cookie-parser?\(name)")! }
        /// The URL the cookies are read on.
        var readURL: URL { URL(string: sentTo ?? "/cookie-parser-result?\(name)", relativeTo: setURL)!.absoluteURL }
    }

    static let cases: [Case]? = {
        guard let path = ProcessInfo.processInfo.environment["HTTP_STATE_TESTS"],
              let data = FileManager.default.contents(atPath: path),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return nil }
        return list.compactMap { item -> Case? in
            guard let name = item["test"] as? String, !name.hasPrefix("DISABLED_") else { return nil }
            let sent = (item["sent"] as? [[String: String]] ?? []).map { "\($0["name"] ?? "")=\($0["value"] ?? "")" }
            return Case(name: name, received: item["received"] as? [String] ?? [],
                        expected: sent.isEmpty ? nil : sent.joined(separator: "; "), sentTo: item["sent-to"] as? String)
        }
    }()
}
