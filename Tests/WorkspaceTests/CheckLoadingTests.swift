import Foundation
import Testing

@testable import Query
@testable import Workspace

/// `capture:`, `assert:`, `retry:` and `requires:` in a collection file: read as the issue
/// writes them, written back the same, and every mistake reported at its line and column.
@Suite struct CheckLoadingTests {
    static let sequenceYAML = #"""
        name: Auth
        environments:
          - name: local
            base_url: http://127.0.0.1:8080
        endpoints:
          - name: Login
            method: POST
            path: /login
            json: { user: "{{user}}", password: "{{password}}" }
            capture:
              token: $.token                       # shorthand for { jsonpath: $.token }
              request_id: { header: X-Request-Id }
              order: { regex: "order-(\\d+)", from: body }   # first group
              code: { status: true }
              session: { cookie: session, secret: true }
            assert:
              - status == 200
              - header Content-Type contains json
              - jsonpath $.token exists
              - jsonpath $.roles[*] includes "admin"
              - duration < 500                    # ms
              - bytes <= 10000
            retry: { count: 10, interval: 500ms }  # send again until every assert passes
          - name: Me
            path: /me
            headers: { Authorization: "Bearer {{token}}" }
            requires: [Login]                      # sent first when a variable it captures is missing
          - name: Orders
            path: /orders
            requires:
              - { endpoint: Login, max_age: 50s }
        """#

    @Test func readsTheIssueExample() throws {
        let collection = try CollectionLoader.parse(Self.sequenceYAML, file: "auth.yaml")
        #expect(collection.warnings.isEmpty)
        let login = try collection.endpoint(named: "Login")
        #expect(login.captures.map(\.name) == ["token", "request_id", "order", "code", "session"])
        #expect(
            login.captures.map(\.source) == [
                .jsonpath("$.token"), .header("X-Request-Id"), .regex(#"order-(\d+)"#, inHeaders: false), .status,
                .cookie("session"),
            ])
        #expect(login.captures.map(\.isSecret) == [false, false, false, false, true])
        #expect(
            login.assertions.map(\.text) == [
                "status == 200", "header Content-Type contains json", "jsonpath $.token exists",
                #"jsonpath $.roles[*] includes "admin""#, "duration < 500", "bytes <= 10000",
            ])
        #expect(login.retry == CheckRetry(count: 10, interval: 0.5))
        #expect(try collection.endpoint(named: "Me").requirements == [Requirement(endpoint: "Login")])
        #expect(try collection.endpoint(named: "Orders").requirements == [Requirement(endpoint: "Login", maxAge: 50)])
    }

    @Test func writingAndReadingBackKeepsEveryCheck() throws {
        let collection = try CollectionLoader.parse(Self.sequenceYAML, file: "auth.yaml")
        let again = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: "again.yaml")
        #expect(again == collection)
    }

    @Test func theSchemaAssertionAndTheLinkedDocumentSurviveAWriteAndARead() throws {
        let yaml = """
            name: Pets
            openapi: specs/pets.yaml
            validate: true
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: Show pet
                path: /pets/1
                operation: showPet
                assert:
                  - status == 200
                  - schema
            """
        let collection = try CollectionLoader.parse(yaml, file: "pets.yaml")
        #expect(collection.endpoints[0].assertions.map(\.query) == [.status, .schema])
        let again = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: "again.yaml")
        #expect(again == collection)
        #expect(again.openAPI == "specs/pets.yaml" && again.validatesResponses)
    }

    @Test func aDocumentLinkedByAnImportIsAddedUnderTheNameKeepingTheRestAsWritten() throws {
        let text =
            "# my pets\nname: Pets\n# servers\nenvironments: [{ name: local, base_url: \"http://127.0.0.1:1\" }]\nendpoints: []\n"
        var source = CollectionSource(text)
        let added = source.addTopLevel("openapi", "specs/pet store.yaml")
        #expect(added)
        #expect(
            source.text
                == "# my pets\nname: Pets\nopenapi: specs/pet store.yaml\n# servers\nenvironments: [{ name: local, base_url: \"http://127.0.0.1:1\" }]\nendpoints: []\n"
        )
        let twice = source.addTopLevel("openapi", "other.yaml")
        #expect(!twice, "a key there already is not added twice")
        var quoted = CollectionSource(text)
        let quotedAdded = quoted.addTopLevel("openapi", "a: b.yaml")
        #expect(quotedAdded)
        #expect(try CollectionLoader.parse(quoted.text).openAPI == "a: b.yaml")
    }

    private func error(in endpointLines: String) -> String {
        let yaml = """
            name: Bad
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints:
              - name: Login
                path: /login
            \(endpointLines)
            """
        do {
            _ = try CollectionLoader.parse(yaml, file: "bad.yaml")
            return "(loaded)"
        } catch {
            return String(describing: error)
        }
    }

    @Test(arguments: [
        (
            "    assert:\n      - statuz == 200",
            #"bad.yaml:7:9: in the assert of endpoint "Login", "statuz" is not a query (one of status, header NAME, jsonpath EXPR, xpath EXPR, body, regex RE, duration, bytes, cookie NAME, grpc_status, or schema alone). Did you mean "status"?"#
        ),
        (
            "    assert:\n      - jsonpath $.token existz",
            #"bad.yaml:7:26: in the assert of endpoint "Login", "existz" is not a predicate"#
        ),
        (
            "    assert:\n      - \"status == \"",
            #"bad.yaml:7:20: in the assert of endpoint "Login", == needs a value after it"#
        ),
        (
            "    assert: status == 200",
            #"bad.yaml:6:13: "assert" must be a list of assertions (- status == 200)."#
        ),
        (
            "    capture:\n      token: token",
            #"bad.yaml:7:14: in the capture of endpoint "Login", token: "token" is not a JSONPath"#
        ),
        (
            "    capture:\n      id: { headr: X-Id }",
            #"bad.yaml:7:13: in the capture of endpoint "Login", id: "headr" is not a capture key (jsonpath, xpath, header, regex with from, status, cookie, body, secret). Did you mean "header"?"#
        ),
        (
            "    capture:\n      id: { header: X-Id, status: true }",
            #"bad.yaml:7:11: in the capture of endpoint "Login", id must say where its value is read with exactly one of"#
        ),
        (
            "    capture:\n      id: { regex: \"([a-z\" }",
            #"bad.yaml:7:21: in the capture of endpoint "Login", id: "([a-z" is not a valid regular expression."#
        ),
        (
            "    assert:\n      - xpath //book/following-sibling::x exists",
            #"bad.yaml:7:22: in the assert of endpoint "Login", the XPath "//book/following-sibling::x" is not valid: following-sibling:: is not in the XPath subset"#
        ),
        (
            "    capture:\n      title: { xpath: \"//title[\" }",
            #"bad.yaml:7:24: in the capture of endpoint "Login", title: the XPath "//title[" is not valid"#
        ),
        (
            "    retry: { count: 10, intervall: 1s }",
            #"bad.yaml:6:25: in the retry of endpoint "Login", "intervall" is not a retry key (count, interval). Did you mean "interval"?"#
        ),
        (
            "    retry: { count: 10, interval: soon }",
            #"bad.yaml:6:35: in the retry of endpoint "Login", interval must be a duration up to 1h"#
        ),
        (
            "    requires: [Logn]",
            #"bad.yaml:6:16: the endpoint "Login" requires "Logn", which the collection does not have. Did you mean "Login"?"#
        ),
        (
            "    requires: [Me]\n  - name: Me\n    path: /me\n    requires: [Login]",
            #"bad.yaml:9:16: endpoints require each other in a cycle (Login -> Me -> Login); remove one of these requires."#
        ),
        (
            "    requires: [Login]",
            #"bad.yaml:6:16: endpoints require each other in a cycle (Login -> Login)"#
        ),
    ])
    func mistakesAreCollectionErrorsAtTheirLineAndColumn(_ lines: String, _ message: String) {
        let described = error(in: lines)
        #expect(described.hasPrefix(message), "\(described)")
    }
}
