import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Demo
@testable import Formats
@testable import Workspace

/// One entry of `Tests/Fixtures/curl/expected.json`.
struct ExpectedCurl: Decodable, Sendable {
    struct Part: Decodable, Sendable, Equatable {
        var name: String
        var value: String
    }
    var curl: String
    var method: String
    var url: String
    var headers: [String: String]
    var body: String?
    var form: [Part]?

    static func all() throws -> [ExpectedCurl] {
        try JSONDecoder().decode([ExpectedCurl].self, from: Data(contentsOf: Fixtures.url("curl/expected.json")))
    }
}

/// The decoded `name=value` pairs of a query, `+` read as a space.
func decodedCurlQuery(_ query: String?) -> [String] {
    guard let query, !query.isEmpty else { return [] }
    return query.split(separator: "&").map {
        $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
    }
}

@Suite struct CurlImporterTests {
    let importer = CurlImporter(baseDirectory: Fixtures.url("curl"))

    @Test func everyFixtureCommandParsesToItsExpectedRequest() throws {
        let expectations = try ExpectedCurl.all()
        #expect(expectations.count == 15)
        for expected in expectations {
            let command = try importer.parse(expected.curl)
            #expect(command.method.rawValue == expected.method, "\(expected.curl)")
            #expect(command.url == expected.url, "\(expected.curl)")
            var headers: [String: String] = [:]
            for header in command.headers { headers[header.name] = header.value }
            // -u is the endpoint's basic auth; curl sends it as this header.
            if case .basic(let username, let password)? = command.auth?.scheme {
                headers["Authorization"] = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
            }
            #expect(headers == expected.headers, "\(expected.curl)")
            // A file sent as it is (--data-binary @file) is read at send time, like curl reads it.
            let body =
                try command.bodyFile.map {
                    try String(contentsOf: Fixtures.url("curl").appendingPathComponent($0), encoding: .utf8)
                } ?? command.body
            #expect(body == expected.body, "\(expected.curl)")
            #expect(
                command.form.map { ExpectedCurl.Part(name: $0.name, value: $0.value) } == (expected.form ?? []),
                "\(expected.curl)")
            // Only options that do not change the request (-s …) are reported, as ignored.
            #expect(
                command.warnings.allSatisfy {
                    $0.hasPrefix("Ignored (they do not change the request)") || $0.hasPrefix("-k ")
                },
                "\(expected.curl): \(command.warnings)")
        }
    }

    @Test func everyFixtureCommandImportsAndResolvesToTheSameRequest() throws {
        for expected in try ExpectedCurl.all() {
            let result = try importer.importCommand(expected.curl.replacingOccurrences(of: "PORT", with: "9"))
            // Through YAML and back, as a user's collection file would go.
            let collection = try writtenAndReadBack(result.collection)
            let endpoint = try #require(collection.endpoints.first)
            let resolved = try RequestResolver(processEnvironment: [:]).resolve(endpoint, in: collection)
            let sent = try #require(URLComponents(string: resolved.url))
            let wanted = try #require(URLComponents(string: expected.url.replacingOccurrences(of: "PORT", with: "9")))
            #expect(resolved.request.method.rawValue == expected.method)
            #expect(sent.path == wanted.path, "\(expected.curl)")
            #expect(
                decodedCurlQuery(sent.percentEncodedQuery) == decodedCurlQuery(wanted.percentEncodedQuery),
                "\(expected.curl)")
            for (name, value) in expected.headers where name.lowercased() != "content-type" || expected.form == nil {
                #expect(
                    resolved.request.headers[name] == value.replacingOccurrences(of: "PORT", with: "9"),
                    "\(name) of \(expected.curl)")
            }
            if let body = expected.body {
                #expect(resolved.request.httpBody == Data(body.utf8), "\(expected.curl)")
            } else if let form = expected.form {
                let text = String(decoding: try #require(resolved.request.httpBody), as: UTF8.self)
                for part in form { #expect(text.contains("name=\"\(part.name)\"\r\n\r\n\(part.value)\r\n")) }
                #expect(resolved.request.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
            } else {
                #expect(resolved.request.httpBody == nil, "\(expected.curl)")
            }
        }
    }

    @Test func quotingStylesAndContinuations() throws {
        #expect(
            try ShellWords.split("curl -H 'A: b c' \"x\\\"y\" $'a\\nb\\'c' d\\ e \\\n  f") == [
                "curl", "-H", "A: b c", "x\"y", "a\nb'c", "d e", "f",
            ])
        #expect(throws: ShellWords.Failure.unterminatedHeredoc("EOF")) {
            try ShellWords.commands("curl -d @- x <<EOF\nnever closed")
        }
        #expect(throws: ShellWords.Failure.unterminatedQuote("'")) { try ShellWords.split("curl 'abc") }
    }

    @Test func anOptionCurlDoesNotKnowIsRefusedAsCurlRefusesIt() throws {
        #expect(throws: ImportError.self) { try importer.parse("curl --frobnicate http://127.0.0.1:1/a") }
        #expect(throws: ImportError.self) { try importer.parse("curl -W http://127.0.0.1:1/a") }
        let result = try importer.importCommand("curl -k https://example.com/a")
        #expect(result.warnings.contains { $0.contains("-k") })
    }

    @Test func everyOptionTakesExactlyItsOwnArgumentsSoNothingShifts() throws {
        // --capath takes a directory: the URL stays the URL (it became http:// before).
        let command = try importer.parse(
            "curl --cert /c --key /k --capath /etc/ssl/certs https://127.0.0.1:1/a -m 20 --retry 3 -o out.txt")
        #expect(command.url == "https://127.0.0.1:1/a")
        #expect(command.tls?.clientCertificateFile == "/c" && command.tls?.clientKeyFile == "/k")
        #expect(command.warnings.contains { $0.contains("--capath /etc/ssl/certs") })
        #expect(
            command.warnings.contains { $0.hasPrefix("Ignored") && $0.contains("-m 20") && $0.contains("-o out.txt") })
        // An unambiguous prefix is the option, as in curl (--sil is --silent).
        #expect(try importer.parse("curl --sil http://h/a").url == "http://h/a")
        #expect(try importer.parse("curl --no-location http://h/a").options.isEmpty)
        #expect(CurlOptions.match("proxy") == .option("proxy", negated: false))
        #expect(CurlOptions.withArgument.contains("proxy") && CurlOptions.withArgument.contains("capath"))
    }

    @Test func theMethodIsSentExactlyAsWritten() throws {
        let result = try importer.importCommand("curl -X wHat http://127.0.0.1:1/a")
        let yaml = try CollectionWriter.yaml(for: result.collection)
        #expect(yaml.contains("method: wHat"))
        let endpoint = try #require(try writtenAndReadBack(result.collection).endpoints.first)
        #expect(endpoint.method.rawValue == "wHat")
    }

    @Test func shellVariablesBecomeEnvironmentTemplates() throws {
        let command = try importer.parse(
            #"curl -H "Authorization: Bearer $DO_API_TOKEN" "$BASE/v2/images?a=${KIND}" -d '$LITERAL'"#)
        #expect(command.headers.first == KeyValue("Authorization", "Bearer {{env.DO_API_TOKEN}}"))
        #expect(command.url == "{{env.BASE}}/v2/images?a={{env.KIND}}")
        #expect(command.body == "$LITERAL")
    }

    @Test func heredocHereStringAndRedirectedFilesFeedStandardInput() throws {
        let heredoc = try importer.parse(
            "curl -X POST http://h/a -H 'Content-Type: application/json' --data-binary @- <<DATA\n{\"id\": \"$ID\"}\nDATA\n"
        )
        #expect(heredoc.body == "{\"id\": \"{{env.ID}}\"}\n")
        let quoted = try importer.parse("curl http://h/a --data-binary @- <<'EOF'\n$KEEP\nEOF")
        #expect(quoted.body == "$KEEP\n")
        let tabs = try importer.parse("curl http://h/a -d @- <<-EOF\n\tone\n\ttwo\n\tEOF")
        #expect(tabs.body == "onetwo")  // -d strips newlines, as curl does
        let hereString = try importer.parse("curl http://h/a --data-binary @- <<< 'x=1'")
        #expect(hereString.body == "x=1\n")
        let redirected = try importer.parse("curl http://h/a --data-binary @- < data/requests.ndjson")
        #expect(redirected.body == (try Fixtures.text("curl/data/requests.ndjson")))
        let noInput = try importer.parse("curl --data @- http://h/a")
        #expect(noInput.body == "" && noInput.warnings.contains { $0.contains("heredoc") })
        // The shell does not run a command whose input file cannot be opened.
        let skipped = try importer.importCommand("curl http://h/a\ncurl http://h/b -T - < nowhere.txt")
        #expect(skipped.collection.endpoints.count == 1 && skipped.warnings.contains { $0.contains("nowhere.txt") })
    }

    @Test func severalCommandsBecomeSeveralEndpoints() throws {
        let text = """
            curl http://127.0.0.1:1/first

            # a comment
            curl http://127.0.0.1:1/second && curl -X DELETE http://127.0.0.1:1/second
            echo done; curl http://127.0.0.1:1/a http://127.0.0.1:1/b --next -d x=1 http://127.0.0.1:1/c
            """
        let result = try importer.importCommand(text)
        #expect(
            result.collection.endpoints.map(\.name) == [
                "GET /first", "GET /second", "DELETE /second", "GET /a", "GET /b", "POST /c",
            ])
        #expect(result.warnings.contains { $0.contains("echo") })
        #expect(try writtenAndReadBack(result.collection).endpoints.count == 6)
    }

    @Test func formPartsKeepTheirFileNameAndType() throws {
        let command = try importer.parse(
            #"curl http://h/a -F 'document=@data/requests.ndjson;filename=report.csv;type=text/csv' -F 'input={"a": 1};type=application/json' -F 'token="9d9\"6"' -F 'plain=a;b'"#
        )
        #expect(
            command.form == [
                MultipartField(
                    name: "document", value: "data/requests.ndjson", isFile: true, filename: "report.csv",
                    contentType: "text/csv"),
                MultipartField(name: "input", value: #"{"a": 1}"#, contentType: "application/json"),
                MultipartField(name: "token", value: #"9d9"6"#),
                MultipartField(name: "plain", value: "a;b"),
            ])
        let result = try importer.importCommand(
            #"curl http://h/a -F 'document=@data/requests.ndjson;filename=report.csv;type=text/csv'"#)
        let endpoint = try #require(
            try writtenAndReadBack(result.collection).endpoints.first)
        guard case .multipart(let fields)? = endpoint.body else {
            Issue.record("no multipart body")
            return
        }
        #expect(fields.first?.filename == "report.csv" && fields.first?.contentType == "text/csv")
    }

    @Test func urlencodingIsCurlsByteForByte() throws {
        #expect(PercentEncoding.formEncode("b c(),:+~*'!é") == "b+c%28%29%2C%3A%2B~%2A%27%21%C3%A9")
        let command = try importer.parse(#"curl -G http://h/sign --data-urlencode "sig=a b(c),d:e" -d 'x=1'"#)
        #expect(command.url == "http://h/sign?sig=a+b%28c%29%2Cd%3Ae&x=1")
        // A query that would not be sent back as written stays in the path, exactly.
        let parts = URLParts(command.url)
        #expect(parts.query.isEmpty && parts.path == "/sign?sig=a+b%28c%29%2Cd%3Ae&x=1")
        #expect(URLParts("http://h/p?key=one&key=two").query == [KeyValue("key", "one"), KeyValue("key", "two")])
    }

    @Test func digestIsImportedAsDigestNeverDowngradedToBasic() throws {
        let command = try importer.parse("curl http://h/ -u user:pass --digest")
        #expect(!command.headers.contains { $0.name == "Authorization" })
        #expect(command.auth == Authentication(.digest(username: "user", password: "pass")))
        #expect(command.warnings.isEmpty)
        #expect(
            try importer.parse("curl http://h/ -u user:pass --digest --basic").auth
                == Authentication(.basic(username: "user", password: "pass")))
        // NTLM and the other negotiated schemes are still not imported, with a warning.
        let ntlm = try importer.parse("curl http://h/ -u user:pass --ntlm")
        #expect(ntlm.auth == nil && !ntlm.headers.contains { $0.name == "Authorization" })
        #expect(ntlm.warnings.contains { $0.contains("--ntlm") && $0.contains("not imported") })
    }

    @Test func credentialsBecomeTheEndpointsAuthInTheCollection() throws {
        let basic = try importer.importCommand("curl -u 'ada:pa:ss' http://h/a").collection
        #expect(basic.endpoints[0].auth == Authentication(.basic(username: "ada", password: "pa:ss")))
        #expect(basic.endpoints[0].headers.isEmpty)
        let digest = try importer.importCommand("curl --digest --user ada http://h/a")
        #expect(digest.collection.endpoints[0].auth == Authentication(.digest(username: "ada", password: "")))
        #expect(digest.warnings.contains { $0.contains("curl would ask for the password of ada") })
        let bearer = try importer.importCommand("curl --oauth2-bearer \"$TOKEN\" http://h/a").collection
        #expect(bearer.endpoints[0].auth == Authentication(.bearer(token: "{{env.TOKEN}}")))
        // An Authorization header written on the command line is kept as it is instead.
        let written = try importer.importCommand("curl -H 'Authorization: Token t' -u ada:pw http://h/a").collection
        #expect(written.endpoints[0].auth == nil)
        #expect(written.endpoints[0].headers == [KeyValue("Authorization", "Token t")])
        // Through YAML and the resolver: the header curl would send.
        let collection = try writtenAndReadBack(basic)
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(collection.endpoints[0], in: collection)
        #expect(resolved.request.headers["Authorization"] == "Basic " + Data("ada:pa:ss".utf8).base64EncodedString())
    }

    @Test func methodRulesFollowCurl() throws {
        #expect(try importer.parse("curl http://h/a").method == .get)
        #expect(try importer.parse("curl -d x http://h/a").method == .post)
        #expect(try importer.parse("curl -F a=b http://h/a").method == .post)
        #expect(try importer.parse("curl -I http://h/a").method == .head)
        #expect(try importer.parse("curl -G -d a=b http://h/a").url == "http://h/a?a=b")
        #expect(try importer.parse("curl -XPUT -d x http://h/a").method == .put)
        #expect(
            try importer.parse("curl --url http://h/a -u user:pw").auth
                == Authentication(.basic(username: "user", password: "pw")))
    }

    @Test func missingURLOrValueIsAClearError() throws {
        #expect(throws: ImportError.invalidCurl("it has no URL.")) { try importer.parse("curl -s") }
        #expect(throws: ImportError.invalidCurl("the option -H needs a value.")) {
            try importer.parse("curl http://h/ -H")
        }
        // A data file curl cannot read is sent empty by curl, with a warning; so it is imported.
        let missing = try importer.parse("curl -d @nope.txt http://h/")
        #expect(missing.body == "" && missing.warnings.contains { $0.contains(Fixtures.url("curl/nope.txt").path) })
        // A file sent at send time that does not exist is said when importing.
        #expect(
            try importer.importCommand("curl -F a=@nope.txt http://h/").warnings.contains {
                $0.contains("nope.txt") && $0.contains("does not exist")
            })
    }

    @Test func theImportedEndpointIsNamedByMethodAndPath() throws {
        let result = try importer.importCommand("curl -X DELETE 'http://127.0.0.1:1/api/items/9?force=true'")
        let endpoint = try #require(result.collection.endpoints.first)
        #expect(endpoint.name == "DELETE /api/items/9")
        #expect(endpoint.query == [KeyValue("force", "true")])
        #expect(result.collection.environments.first?.baseURLTemplate == "http://127.0.0.1:1")
    }
}
