import Foundation
import Testing

@testable import Formats
@testable import Workspace

/// Folder-level variables of Postman and Insomnia: a collection has no folder scope, so their
/// values are written into the requests inside the folder, the innermost folder's winning.
@Suite struct FolderVariablesImportTests {
    @Test func postmanFolderVariablesReachTheRequestsInsideTheFolderOnly() throws {
        let result = try PostmanImporter().importData(
            Data(
                """
                {"info": {"name": "folders", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                 "variable": [{"key": "base", "value": "http://127.0.0.1:8080"}, {"key": "user", "value": "everyone"}],
                 "item": [
                   {"name": "top", "request": {"method": "GET", "url": "{{base}}/users/{{user}}"}},
                   {"name": "Ada", "variable": [{"key": "user", "value": "ada"}, {"key": "off", "value": "x", "disabled": true}],
                    "item": [
                      {"name": "get", "request": {"method": "GET", "url": "{{base}}/users/{{user}}?off={{off}}",
                                                   "header": [{"key": "X-User", "value": "{{user}}"}]}},
                      {"name": "Grace", "variable": [{"key": "user", "value": "grace"}, {"key": "lang", "value": "{{user}}-en"}],
                       "item": [{"name": "post", "request": {"method": "POST", "url": "{{base}}/users/{{user}}",
                                 "body": {"mode": "raw", "raw": "{\\"lang\\": \\"{{lang}}\\"}"}}}]}
                    ]}
                 ]}
                """.utf8))
        #expect(!result.warnings.contains { $0.contains("folder") }, "\(result.warnings)")
        let collection = try writtenAndReadBack(result.collection)
        #expect(collection.endpoints.map(\.path) == ["/users/{{user}}", "/users/ada", "/users/grace"])
        let get = try collection.endpoint(named: "Ada/get")
        #expect(get.headers.map(\.value) == ["ada"])
        // A disabled folder variable is not one.
        #expect(get.query == [KeyValue("off", "{{off}}")])
        let post = try collection.endpoint(named: "Ada/Grace/post")
        #expect(post.body == .raw("{\"lang\": \"grace-en\"}"))
        // Outside the folders the collection's value still applies.
        let top = try RequestResolver().resolve(try collection.endpoint(named: "top"), in: collection)
        #expect(top.url == "http://127.0.0.1:8080/users/everyone")
    }

    @Test func insomniaFolderEnvironmentsWinInsideTheirFolder() throws {
        let result = try InsomniaImporter().importData(
            Data(
                """
                {"_type": "export", "__export_format": 4, "resources": [
                  {"_id": "wrk_1", "_type": "workspace", "name": "folders"},
                  {"_id": "env_1", "parentId": "wrk_1", "_type": "environment", "name": "Base", "data": {"base": "http://127.0.0.1:8080", "team": "all"}},
                  {"_id": "fld_1", "parentId": "wrk_1", "_type": "request_group", "name": "Core", "environment": {"team": "core", "page": 2}, "metaSortKey": 1},
                  {"_id": "req_1", "parentId": "fld_1", "_type": "request", "name": "members", "method": "GET",
                   "url": "{{ _.base }}/teams/{{ _.team }}", "parameters": [{"name": "page", "value": "{{ _.page }}"}], "metaSortKey": 1},
                  {"_id": "req_2", "parentId": "wrk_1", "_type": "request", "name": "all", "method": "GET", "url": "{{ _.base }}/teams/{{ _.team }}", "metaSortKey": 2}]}
                """.utf8))
        #expect(!result.warnings.contains { $0.contains("folder") }, "\(result.warnings)")
        let collection = try writtenAndReadBack(result.collection)
        let members = try RequestResolver().resolve(try collection.endpoint(named: "Core/members"), in: collection)
        #expect(members.url == "http://127.0.0.1:8080/teams/core?page=2")
        let all = try RequestResolver().resolve(try collection.endpoint(named: "all"), in: collection)
        #expect(all.url == "http://127.0.0.1:8080/teams/all")
    }
}
