import Contract
import Foundation
import Mock
import NetworkingCore
import Testing

/// Requests checked against their operation before the mock answers: parameters and bodies,
/// the answer to one that breaks them (the documented 400/422, else a 422 problem listing the
/// violations), and the log line that says why.
@Suite struct MockRequestValidationTests {
    typealias Server = MockServerTests

    /// A document of its own: a query parameter of each kind, a header, a body, a documented 400.
    static let reports = #"""
        {"openapi": "3.1.0", "info": {"title": "Reports", "version": "1"}, "paths": {
          "/reports/{year}": {
            "parameters": [{"name": "year", "in": "path", "required": true,
                            "schema": {"type": "integer", "minimum": 2000}}],
            "get": {"operationId": "listReports", "parameters": [
                {"name": "startDate", "in": "query", "required": true, "schema": {"type": "string", "format": "date"}},
                {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"enum": ["a", "b"]}}},
                {"name": "ids", "in": "query", "style": "form", "explode": false,
                 "schema": {"type": "array", "items": {"type": "integer"}}},
                {"name": "draft", "in": "query", "schema": {"type": "boolean"}},
                {"name": "X-Page", "in": "header", "schema": {"type": "integer", "maximum": 9}},
                {"name": "session", "in": "cookie", "schema": {"type": "string", "minLength": 3}}],
              "responses": {"200": {"description": "The reports", "content": {"application/json": {
                "example": {"reports": []}}}}}},
            "post": {"operationId": "addReport",
              "requestBody": {"required": true, "content": {
                "application/json": {"schema": {"type": "object", "required": ["title"],
                  "properties": {"title": {"type": "string"}, "pages": {"type": "integer"}}}},
                "application/x-www-form-urlencoded": {"schema": {"type": "object", "required": ["title"],
                  "properties": {"title": {"type": "string"}, "pages": {"type": "integer"}}}}}},
              "responses": {"201": {"description": "Added", "content": {"application/json": {
                  "example": {"id": 1}}}},
                "400": {"description": "Refused", "content": {"application/json": {
                  "example": {"error": "bad report"}}}}}}}}}
        """#

    static func reportsContract() throws -> OpenAPIContract {
        try OpenAPIContract(document: JSONValue(parsing: reports))
    }

    static func json(_ text: String) -> (headers: HTTPHeaders, body: Data) {
        (["Content-Type": "application/json"], Data(text.utf8))
    }

    // MARK: - Over HTTP

    @Test func aPathParameterOfTheWrongTypeIsAProblemListingTheViolation() async throws {
        let log = LogLines()
        let plan = MockPlan(endpoints: [], contract: try Server.demoContract())
        try await Server.withMock(plan, log: log) { (server: MockServer) async throws in
            let answer = try await Server.send("GET", "/v1/users/abc", to: server)
            // getUser declares no 400 or 422: the mock's own problem.
            #expect(answer.status == 422)
            #expect(answer.headers["Content-Type"] == "application/problem+json")
            #expect(answer.json?["title"]?.stringValue == "The request does not match the document")
            #expect(answer.json?["status"]?.intValue == 422)
            let violation = try #require(answer.json?["violations"]?[0])
            #expect(violation["in"]?.stringValue == "path")
            #expect(violation["name"]?.stringValue == "id")
            #expect(violation["pointer"]?.stringValue == "")
            #expect(violation["message"]?.stringValue == #""abc" is not of type integer"#)
            #expect(violation["schema"]?.stringValue == "#/components/parameters/id/schema/type")
            #expect(answer.json?["detail"]?.stringValue?.contains("declares no 400 or 422") == true)
            let tooLarge = try await Server.send("GET", "/v1/users/1000001", to: server)
            #expect(tooLarge.status == 422)
            // A valid request is answered as before.
            #expect(try await Server.send("GET", "/v1/users/7", to: server).status == 200)
        }
        #expect(
            log.lines.first
                == #"mock       GET /v1/users/abc → 422 (request refused: path id: "abc" is not of type integer)"#)
    }

    @Test func queryHeaderAndCookieParametersAreParsedAndChecked() async throws {
        let plan = MockPlan(endpoints: [], contract: try Self.reportsContract())
        try await Server.withMock(plan) { (server: MockServer) async throws in
            func status(_ path: String, _ headers: HTTPHeaders = [:]) async throws -> Int {
                try await Server.send("GET", path, to: server, headers: headers).status
            }
            #expect(try await status("/reports/2024?startDate=2024-01-31") == 200)
            #expect(
                try await status(
                    "/reports/2024?startDate=2024-01-31&tags=a&tags=b&ids=1,2,3&draft=true",
                    ["X-Page": "3", "Cookie": "other=1; session=abcd"]) == 200)
            let missing = try await Server.send("GET", "/reports/2024", to: server)
            #expect(missing.status == 422)
            #expect(
                missing.json?["violations"]?[0]?["message"]?.stringValue
                    == "the required query parameter startDate is missing")
            let notADate = try await Server.send("GET", "/reports/2024?startDate=not-a-date", to: server)
            #expect(notADate.status == 422)
            #expect(notADate.json?["violations"]?[0]?["message"]?.stringValue == #""not-a-date" is not a valid date"#)
            #expect(try await status("/reports/1999?startDate=2024-01-31") == 422)
            #expect(try await status("/reports/2024?startDate=2024-01-31&tags=a&tags=c") == 422)
            let badItem = try await Server.send("GET", "/reports/2024?startDate=2024-01-31&ids=1,x", to: server)
            #expect(badItem.json?["violations"]?[0]?["pointer"]?.stringValue == "/1")
            #expect(try await status("/reports/2024?startDate=2024-01-31&draft=maybe") == 422)
            #expect(try await status("/reports/2024?startDate=2024-01-31&startDate=2024-02-01") == 422)
            #expect(try await status("/reports/2024?startDate=2024-01-31", ["X-Page": "10"]) == 422)
            #expect(try await status("/reports/2024?startDate=2024-01-31", ["Cookie": "session=ab"]) == 422)
        }
    }

    @Test func bodiesAreCheckedAndTheDocumented400IsTheAnswer() async throws {
        let log = LogLines()
        let plan = MockPlan(endpoints: [], contract: try Self.reportsContract())
        try await Server.withMock(plan, log: log) { (server: MockServer) async throws in
            func post(_ headers: HTTPHeaders, _ body: String?) async throws -> MockServerTests.Answer {
                try await Server.send(
                    "POST", "/reports/2024", to: server, headers: headers, body: body.map { Data($0.utf8) })
            }
            let json: HTTPHeaders = ["Content-Type": "application/json"]
            let created = try await post(json, #"{"title": "Q1", "pages": 3}"#)
            #expect(created.status == 201)
            #expect(created.json?["id"]?.intValue == 1)
            // Every refusal is the operation's own 400, with its example.
            for (headers, body) in [
                (json, #"{"pages": "three"}"#), (json, "not json"), ([:], nil),
                (["Content-Type": "text/plain"], "Q1"),
                (["Content-Type": "application/x-www-form-urlencoded"], "title=Q1&pages=many"),
            ] as [(HTTPHeaders, String?)] {
                let refused = try await post(headers, body)
                #expect(refused.status == 400, "\(headers) \(body ?? "")")
                #expect(refused.json?["error"]?.stringValue == "bad report")
            }
            #expect(
                try await post(["Content-Type": "application/x-www-form-urlencoded"], "title=Q1&pages=3").status == 201)
        }
        let lines = log.lines
        #expect(lines.count == 7)
        #expect(
            lines.contains {
                $0.hasPrefix("mock       POST /reports/2024 → 400 (400 example, request refused: body")
                    && $0.hasSuffix("(and 1 more))")
            }, "\(lines)")
        #expect(
            lines.contains(
                "mock       POST /reports/2024 → 400 (400 example, request refused: body: the request has no body; the operation requires one (application/json, application/x-www-form-urlencoded))"
            ), "\(lines)")
    }

    /// The demo's POST /users declares 400 and 422: a body that breaks the schema is answered
    /// with the 422, a missing one with the 400.
    @Test func theDocumented422AnswersABodyThatBreaksTheSchema() async throws {
        let plan = MockPlan(endpoints: [], contract: try Server.demoContract())
        try await Server.withMock(plan) { (server: MockServer) async throws in
            let (headers, body) = Self.json(#"{"name": "Ada", "email": 7}"#)
            let invalid = try await Server.send("POST", "/v1/users", to: server, headers: headers, body: body)
            #expect(invalid.status == 422)
            #expect(invalid.json?["title"]?.stringValue == "Your request is not valid")
            let missing = try await Server.send("POST", "/v1/users", to: server)
            #expect(missing.status == 400)
            let badEmail = Self.json(#"{"name": "Ada", "email": "not an email"}"#)
            #expect(
                try await Server.send("POST", "/v1/users", to: server, headers: badEmail.headers, body: badEmail.body)
                    .status == 422)
            let valid = Self.json(#"{"name": "Ada", "email": "ada@example.com", "role": "admin"}"#)
            #expect(
                try await Server.send("POST", "/v1/users", to: server, headers: valid.headers, body: valid.body)
                    .status == 201)
        }
    }

    @Test func validationCanBeTurnedOffAndPreferCodeSkipsIt() async throws {
        let plan = MockPlan(endpoints: [], contract: try Server.demoContract())
        let server = try await MockServer.start(plan: plan, port: 0, validatesRequests: false)
        let unchecked = try await Server.send("GET", "/v1/users/abc", to: server)
        let noBody = try await Server.send("POST", "/v1/users", to: server)
        await server.stop()
        #expect(unchecked.status == 200)
        #expect(noBody.status == 201)
        try await Server.withMock(plan) { (server: MockServer) async throws in
            let chosen = try await Server.send("GET", "/v1/users/abc", to: server, headers: ["Prefer": "code=404"])
            #expect(chosen.status == 404)
            // Credentials are looked for before the request is checked.
            #expect(try await Server.send("GET", "/v1/me?x=1", to: server).status == 401)
        }
    }

    // MARK: - The rules alone

    @Test func parameterStylesAreParsedAsTheDocumentSays() throws {
        let document = try JSONValue(
            parsing: #"""
                {"openapi": "3.0.3", "info": {"title": "Styles", "version": "1"}, "paths": {
                  "/items/{ids}/{point}": {"get": {"parameters": [
                    {"name": "ids", "in": "path", "required": true,
                     "schema": {"type": "array", "items": {"type": "integer"}}},
                    {"name": "point", "in": "path", "required": true, "style": "label",
                     "schema": {"type": "object", "properties": {"x": {"type": "integer"}}}},
                    {"name": "filter", "in": "query", "style": "deepObject",
                     "schema": {"type": "object", "properties": {"min": {"type": "number"}}}},
                    {"name": "names", "in": "query", "style": "pipeDelimited", "explode": false,
                     "schema": {"type": "array", "items": {"type": "string", "maxLength": 3}}},
                    {"name": "maybe", "in": "query", "schema": {"type": "integer", "nullable": true}},
                    {"name": "X-Ids", "in": "header", "schema": {"type": "array", "items": {"type": "integer"}}}],
                  "responses": {"200": {"description": "ok"}}}}}}
                """#)
        let contract = try OpenAPIContract(document: document)
        let operation = try #require(contract.operations.first)
        let rules = MockRequestRules(contract: contract)
        func violations(_ path: String, _ query: String = "", headers: [String: String] = [:]) -> [String] {
            let request = MockIncomingRequest(
                path: path, query: MockIncomingRequest.pairs(query), headers: headers, body: nil)
            return rules.violations(of: request, operation: operation).map(\.description)
        }
        #expect(violations("/items/1,2,3/.x,4") == [])
        #expect(violations("/items/1,x/.x,4") == [#"path ids /1: "x" is not of type integer"#])
        #expect(violations("/items/1/.x,four") == [#"path point /x: "four" is not of type integer"#])
        #expect(violations("/items/1/.x,4", "filter%5Bmin%5D=2.5&names=ab|cd") == [])
        #expect(
            violations("/items/1/.x,4", "filter[min]=low").first?.hasPrefix(#"query filter /min: "low" is not of type"#)
                == true)
        #expect(
            violations("/items/1/.x,4", "names=ab|long") == [#"query names /1: "long" is longer than 3 characters"#])
        #expect(violations("/items/1/.x,4", "maybe=null") == [])
        #expect(violations("/items/1/.x,4", "maybe=1.5").count == 1)
        #expect(violations("/items/1/.x,4", headers: ["x-ids": "1, x"]).count == 1)
        #expect(violations("/items/1/.x,4", headers: ["x-ids": "1,2"]) == [])
    }

    @Test func integersOutsideTheirInt32OrInt64FormatAreRefused() async throws {
        let document = #"""
            {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"}, "paths": {"/pets": {
              "get": {"parameters": [{"name": "limit", "in": "query",
                  "schema": {"type": "integer", "format": "int32"}}],
                "responses": {"200": {"description": "Pets", "content": {"application/json": {"example": []}}}}},
              "post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object",
                  "properties": {"id": {"type": "integer", "format": "int64"},
                    "tags": {"type": "array", "items": {"type": "integer", "format": "int32"}}}}}}},
                "responses": {"201": {"description": "Added"}}}}}}
            """#
        let plan = MockPlan(endpoints: [], contract: try OpenAPIContract(document: JSONValue(parsing: document)))
        try await Server.withMock(plan) { (server: MockServer) async throws in
            let query = try await Server.send("GET", "/pets?limit=-2147483649", to: server)
            #expect(query.status == 422)
            #expect(query.json?["violations"]?[0]?["message"]?.stringValue == "-2147483649 does not fit an int32")
            #expect(try await Server.send("GET", "/pets?limit=-2147483648", to: server).status == 200)
            let body = try await Server.send(
                "POST", "/pets", to: server, headers: ["Content-Type": "application/json"],
                body: Data(#"{"id": 9223372036854775808, "tags": [1, 4294967296]}"#.utf8))
            #expect(body.status == 422)
            #expect(
                body.json?["violations"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } == ["/id", "/tags/1"])
            let fits = try await Server.send(
                "POST", "/pets", to: server, headers: ["Content-Type": "application/json"],
                body: Data(#"{"id": 9223372036854775807, "tags": [2147483647]}"#.utf8))
            #expect(fits.status == 201)
        }
    }
}
