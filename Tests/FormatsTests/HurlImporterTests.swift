import Checks
import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// `explorer import hurl`, read from Hurl's own integration files (Orange-OpenSource/hurl).
@Suite struct HurlImporterTests {
    private func imported(_ fixture: String) throws -> (APICollection, [String]) {
        let result = try HurlImporter().importFile(at: Fixtures.url("hurl/\(fixture)"))
        let collection = try writtenAndReadBack(result.collection, file: fixture)
        return (collection, result.warnings)
    }

    static let files = [
        "form_params.hurl", "captures.hurl", "cookies.hurl", "basic_authentication_per_request.hurl",
        "multipart_form_data.hurl", "graphql.hurl", "headers.hurl", "empty_sections.hurl", "cookie_jar.hurl",
    ]

    @Test(arguments: files)
    func everyFileImportsAndExportsBackToTheSameRequests(_ fixture: String) throws {
        let (collection, _) = try imported(fixture)
        #expect(!collection.endpoints.isEmpty)
        // export hurl, then import that: the same requests, checks and captures.
        let exported = HurlExporter.text(
            for: collection.endpoints, in: collection, environment: collection.environments.first)
        let again = try HurlImporter().importText(exported, path: "exported.hurl").collection
        let environment = try #require(collection.environments.first)
        let againEnvironment = try #require(again.environments.first)
        #expect(again.endpoints.count == collection.endpoints.count, "\(exported)")
        for (first, second) in zip(collection.endpoints, again.endpoints) {
            #expect(second.name == first.id)
            #expect(second.method == first.method)
            #expect(
                againEnvironment.baseURLTemplate + second.path == environment.baseURLTemplate + first.path
                    || second.path == environment.baseURLTemplate + first.path)
            #expect(second.query == first.query, "\(first.id)")
            #expect(second.body == first.body, "\(first.id)")
            #expect(second.auth == first.auth, "\(first.id)")
            #expect(second.captures == first.captures, "\(first.id)")
            #expect(second.assertions.map(\.text) == first.assertions.map(\.text), "\(first.id)")
            #expect(second.headers == first.headers, "\(first.id)")
            #expect(second.requirements == first.requirements, "\(first.id)")
            #expect(second.retry == first.retry, "\(first.id)")
        }
    }

    @Test func aHeaderWithASemicolonIsSentEmptyAndEmptySectionsSendNoBody() throws {
        let (headers, _) = try imported("headers.hurl")
        #expect(try headers.endpoint(named: "GET /empty-headers").headers == [KeyValue("Empty-Header", "")])
        #expect(try headers.endpoint(named: "GET /custom-headers-value").headers == [KeyValue("Id", "#123")])
        let (empty, _) = try imported("empty_sections.hurl")
        let hello = try #require(empty.endpoints.first)
        #expect(hello.body == nil && hello.query.isEmpty && hello.headers.isEmpty)
        #expect(hello.assertions.map(\.text) == ["status == 200", "body == \"Hello World!\""])
    }

    @Test func aTypedVariableIsComparedAsANumberAndAnOptionLeftOffIsNotReported() throws {
        let (collection, warnings) = try imported("assert_json.hurl")
        let first = try #require(collection.endpoints.first)
        let body = Data(#"{"count": 5, "duration": 1.5}"#.utf8)
        let response = CheckedResponse(
            status: 200, headers: HTTPHeaders([("Content-Type", "application/json")]), body: body,
            durationMilliseconds: 1)
        let values = ["{{one}}": "1", "{{two}}": "2", "{{four}}": "4", "{{five}}": "5"]
        let typed = first.assertions.filter {
            $0.text.contains("{{one}}") || $0.text.contains("{{two}}") || $0.text.contains("{{four}}")
                || $0.text.contains("{{five}}")
        }
        #expect(
            typed.map(\.text) == [
                #"jsonpath $.count == "{{five}}""#, #"jsonpath $.count != "{{four}}""#,
                #"jsonpath $.count > "{{one}}""#,
                #"jsonpath $.duration < "{{two}}""#,
            ])
        for assertion in typed {
            let result = assertion.check(response) { text in
                values.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
            }
            #expect(result.passed, "\(assertion.text): \(result.reason ?? "")")
        }
        // A JSONPath with a variable in it is kept as a line: the collection reads its expressions as written.
        let second = try collection.endpoint(named: "GET /assert-json (2)")
        #expect(!second.assertions.contains { $0.text.contains("{{index}}") })
        #expect(second.description?.contains(#"[Asserts] jsonpath "$.errors[{{index}}].id" == "error2""#) == true)
        // `insecure: false` is what Hurl does without it.
        #expect(!warnings.contains { $0.contains("insecure") }, "\(warnings)")
    }

    @Test func expressionsTheCollectionCannotReadStayLinesSoTheImportLoads() throws {
        let text = #"""
            GET http://localhost:8000/items
            HTTP 200
            [Captures]
            id: regex "(?P<id>\\d+)"
            kept: jsonpath "$.items[0].id"
            [Asserts]
            jsonpath "$.items[{{n}}].id" == 1
            body matches "(?P<x>a)"
            xpath "//p[" exists
            """#
        let result = try HurlImporter().importText(text, path: "items.hurl")
        _ = try writtenAndReadBack(result.collection, file: "items.yaml")
        let endpoint = try #require(result.collection.endpoints.first)
        #expect(endpoint.captures.map(\.name) == ["kept"])
        #expect(endpoint.assertions.map(\.text) == ["status == 200"])
        #expect(endpoint.description?.components(separatedBy: "\n").filter { $0.hasPrefix("[") }.count == 4)
    }

    @Test func severalFieldsOfOneResponseHeaderAreEachLookedForInTheJoinedValue() throws {
        let (collection, _) = try imported("cookie_jar.hurl")
        let endpoint = try #require(collection.endpoints.first)
        let setCookie = endpoint.assertions.filter { $0.query == .header("Set-Cookie") }
        #expect(setCookie.count == 3 && setCookie.allSatisfy { $0.predicate == .contains })
        // What a server sending the three fields answers: each line passes, as in Hurl.
        let fields = [
            "LSID=DQAAAKEaem_vYg; Expires=Thu, 13 Jan 2078 22:23:01 GMT; HttpOnly; Path=/accounts",
            "HSID=AYQEVnDKrdst; Domain=localhost; Expires=Thu, 13 Jan 2078 22:23:01 GMT; HttpOnly; Path=/",
            "SSID=Ap4PGTEq; Domain=localhost; Expires=Thu, 13 Jan 2078 22:23:01 GMT; HttpOnly; Path=/",
            "foo=\"a b c\"",
        ]
        let response = CheckedResponse(
            status: 200, headers: HTTPHeaders(fields.map { ("Set-Cookie", $0) }), body: Data(), durationMilliseconds: 1)
        for assertion in endpoint.assertions { #expect(assertion.check(response).passed, "\(assertion.text)") }
    }

    @Test func sectionsBecomeQueryFormPartsCookiesAndAuth() throws {
        let (forms, _) = try imported("form_params.hurl")
        let form: EndpointBody = .form([
            KeyValue("param1", "value1"), KeyValue("param2", ""), KeyValue("param3", "a=b"),
            KeyValue("param4", "a%3db"),
            KeyValue("values[0]", "0"), KeyValue("values[1]", "1"),
        ])
        #expect(forms.endpoints[0].body == form)
        #expect(forms.endpoints[1].body == form)
        #expect(forms.endpoints[2].name == "same version as raw")
        #expect(
            forms.endpoints[2].body == .raw("param1=value1&param2=&param3=a%3db&param4=a%253db&values[0]=0&values[1]=1")
        )
        #expect(forms.environments.first?.baseURLTemplate == "http://localhost:8000")

        let (parts, _) = try imported("multipart_form_data.hurl")
        #expect(
            parts.endpoints[0].body
                == .multipart([
                    MultipartField(name: "key1", value: "value1"),
                    MultipartField(name: "upload1", value: "data.txt", isFile: true),
                    MultipartField(name: "upload2", value: "data.html", isFile: true),
                    MultipartField(name: "upload3", value: "data.txt", isFile: true, contentType: "text/html"),
                ]))

        let (cookies, _) = try imported("cookies.hurl")
        #expect(cookies.endpoints[2].headers == [KeyValue("Cookie", "user1=Bob; user2=Bill; user3={{name}}")])
        let set = try #require(cookies.endpoints.first { $0.path == "/cookies/set-session-cookie2-valueA" })
        #expect(
            set.assertions.map(\.text) == [
                "status == 200", "cookie cookie1 not exists", "cookie cookie2 == \"valueA\"",
            ])

        let (auth, _) = try imported("basic_authentication_per_request.hurl")
        let basic = Authentication(.basic(username: "bob@email.com", password: "secret"))
        #expect(
            auth.endpoints.map(\.auth) == [
                basic, nil, basic, basic, Authentication(.basic(username: "{{user}}", password: "{{password}}")),
            ])
        #expect(auth.endpoints[0].path == "/basic-authentication-per-request")
        #expect(auth.endpoints[1].headers == [KeyValue("Authorization", "Basic Ym9iQGVtYWlsLmNvbTpzZWNyZXQ=")])
        #expect(auth.endpoints[0].assertions.map(\.text) == ["status == 200", "body == \"You are authenticated\""])
        #expect(auth.variables == [KeyValue("user", "bob@email.com"), KeyValue("password", "secret")])
    }

    @Test func capturesAssertsAndWhatTheCollectionCannotSay() throws {
        let (collection, warnings) = try imported("captures.hurl")
        let first = collection.endpoints[0]
        #expect(
            first.captures == [
                Capture(name: "param1", source: .header("header1")), Capture(name: "data1", source: .body),
            ])
        #expect(first.assertions.map(\.text) == ["status == 200", "header header1 == \"{{param1}}\""])
        #expect(first.description?.contains("param2: header \"header2\" regex \"Hello (.*)!\"") == true)
        #expect(first.description?.contains("[Asserts] variable \"param1\" == \"value1\"") == true)
        // Who uses a captured value requires the entry that captures it.
        #expect(collection.endpoints[1].query == [KeyValue("param1", "{{param1}}"), KeyValue("param2", "{{param2}}")])
        #expect(collection.endpoints[1].requirements == [Requirement(endpoint: first.id)])
        let xml = collection.endpoints[3]
        #expect(xml.captures == [Capture(name: "a_node_set", source: .xpath("//p"))])
        let json = collection.endpoints[5]
        #expect(json.captures.first == Capture(name: "an_object", source: .jsonpath("$['an_object']")))
        #expect(warnings.contains { $0.contains("kept in the endpoints' descriptions") })
    }

    @Test func graphQLBodiesAreTheJSONHurlSends() throws {
        let (collection, _) = try imported("graphql.hurl")
        let withVariables = collection.endpoints[3]
        #expect(withVariables.headers == [KeyValue("Content-Type", "application/json")])
        guard case .raw(let text)? = withVariables.body, case .object(let pairs)? = JSONValue.container(parsing: text)
        else {
            Issue.record("not a JSON body: \(String(describing: withVariables.body))")
            return
        }
        #expect(pairs.map(\.key) == ["query", "variables"])
        #expect(pairs[0].value == .string("query Person($id: ID!) {\n  person(id: $id) {\n    name\n  }\n}"))
        #expect(pairs[1].value == .object([("id", .string("cGVvcGxlOjQ="))]))
        // Hurl's JSON body, as JSON.
        #expect(
            collection.endpoints[1].body
                == .json(
                    .object([
                        (
                            "query",
                            .string(
                                "{\n  allFilms {\n    films {\n      title\n      director\n      releaseDate\n    }\n  }\n}"
                            )
                        )
                    ])))
        #expect(
            collection.endpoints[0].assertions.contains {
                $0.query == .jsonpath("$.data.allFilms.films[0].title") && $0.expected == .string("A New Hope")
            })
    }

    /// The files Hurl's own parser tests refuse, with the line and column of Hurl's `.err` file.
    @Test(arguments: [
        ("invalid_section.hurl", "2:2", "the section is not valid"),
        ("duplicate_section.hurl", "4:1", "the section is already defined"),
        ("invalid_url_1.hurl", "1:5", "expecting http://, https:// or {{"),
        ("json_object_trailing_comma.hurl", "5:13", "trailing comma is not allowed"),
        ("invalid_escape.hurl", "4:21", "the escaping sequence is not valid"),
    ])
    func filesHurlRefusesAreRefusedAtTheSamePlace(_ fixture: String, _ position: String, _ message: String) throws {
        let url = Fixtures.url("hurl/errors/\(fixture)")
        let error = #expect(throws: ImportError.self) { try HurlImporter().importFile(at: url) }
        let text = error?.description ?? ""
        #expect(text.hasPrefix("\(url.path):\(position):"), "\(text)")
        #expect(text.contains(message), "\(text)")
    }

    /// Every cut and a seeded set of changed characters of the real files: an import or an
    /// `ImportError`, never a crash; a JSON body nested past the limit is refused where it goes too deep.
    @Test func damagedFilesAreImportedOrRefusedNeverACrash() throws {
        var generator = SplitMix64(seed: 35)
        for fixture in Self.files {
            let text = try String(contentsOf: Fixtures.url("hurl/\(fixture)"), encoding: .utf8)
            let characters = Array(text)
            var variants = stride(from: 0, to: characters.count, by: max(1, characters.count / 60)).map {
                String(characters[..<$0])
            }
            let replacements: [Character] = ["{", "}", "[", "]", "\"", "`", "\\", "\n", "#", ":", " "]
            for _ in 0..<60 {
                var changed = characters
                changed[Int.random(in: 0..<changed.count, using: &generator)] = replacements.randomElement(
                    using: &generator)!
                variants.append(String(changed))
            }
            for variant in variants {
                do {
                    _ = try HurlImporter().importText(variant, path: fixture)
                } catch is ImportError {
                }
            }
        }
        let deep =
            "POST http://localhost:8000/x\n" + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
            + "\n"
        let error = #expect(throws: ImportError.self) { try HurlImporter().importText(deep, path: "deep.hurl") }
        #expect(error?.description.contains("deep.hurl:2:129") == true, "\(String(describing: error))")
    }

    @Test func optionsBodiesAndTemplates() throws {
        let text = """
            # Create
            POST https://api.test/items?x={{newUuid}}
            [Options]
            retry: 5
            retry-interval: 250ms
            insecure: true
            variable: team=red
            {
              "id": {{id}},
              "at": "{{newDate}}"
            }
            HTTP 201
            Location: /items/1
            [Captures]
            token: jsonpath "$.token" redact
            [Asserts]
            jsonpath "$.tags" count == 2
            duration < 1000
            header "Content-Type" startsWith "application/json"

            GET https://api.test/items
            Authorization: Bearer {{token}}
            ```
            line one
            line two
            ```
            HTTP *
            """
        let result = try HurlImporter().importText(text, path: "t.hurl")
        let collection = try writtenAndReadBack(result.collection)
        let create = try collection.endpoint(named: "Create")
        #expect(create.query == [KeyValue("x", "{{uuid}}")])
        #expect(create.retry == CheckRetry(count: 5, interval: 0.25))
        #expect(create.body == .raw("{\n  \"id\": {{id}},\n  \"at\": \"{{now}}\"\n}"))
        #expect(create.headers == [KeyValue("Content-Type", "application/json")])
        #expect(create.captures == [Capture(name: "token", source: .jsonpath("$.token"), isSecret: true)])
        #expect(
            create.assertions.map(\.text) == [
                "status == 201", "header Location == \"/items/1\"", "duration < 1000",
                "header Content-Type startsWith \"application/json\"",
            ])
        #expect(create.description?.contains("[Options] insecure: true") == true)
        #expect(collection.variables == [KeyValue("team", "red")])
        let list = try collection.endpoint(named: "GET /items")
        // Each line of a multiline string ends with its newline, as Hurl sends it.
        #expect(list.body == .raw("line one\nline two\n"))
        #expect(list.requirements == [Requirement(endpoint: "Create")])
        #expect(list.assertions.isEmpty)
        #expect(result.warnings.contains { $0.contains("insecure (1)") })
        #expect(result.warnings.contains { $0.contains("id") && $0.contains("does not define") })
    }
}
