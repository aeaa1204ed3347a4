import Foundation
import Testing

@testable import Checks

/// `explorer run --data FILE`: CSV as RFC 4180 writes it (and the mistakes people make), JSON
/// as an array of objects, and the one-line sentences for what cannot be used.
@Suite struct RunDataTests {
    private func records(_ text: String) throws -> [[String]] {
        try CSVRecord.records(in: text).map(\.fields)
    }

    private func parse(_ text: String, path: String = "data.csv") throws -> DataFile {
        try DataFile.parse(Data(text.utf8), path: path)
    }

    private func failure(_ text: String, path: String = "data.csv") -> String? {
        do {
            _ = try DataFile.parse(Data(text.utf8), path: path)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func fieldsAreSplitAtCommasAndRecordsAtLineBreaksOfEveryKind() throws {
        #expect(try records("a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]])
        #expect(try records("a,b\n1,2") == [["a", "b"], ["1", "2"]], "no line break at the end")
        #expect(try records("a,b\r1,2\r") == [["a", "b"], ["1", "2"]], "a lone CR ends a record too")
        #expect(try records("a,,\n") == [["a", "", ""]], "empty fields")
        #expect(try records("a\n\n\nb\n") == [["a"], ["b"]], "blank lines are skipped")
    }

    @Test func quotedFieldsHoldCommasLineBreaksAndDoubledQuotes() throws {
        #expect(try records("\"a,b\",c\n") == [["a,b", "c"]])
        #expect(try records("\"say \"\"hi\"\"\",x\n") == [["say \"hi\"", "x"]])
        #expect(try records("\"two\r\nlines\",x\r\ny,z\r\n") == [["two\r\nlines", "x"], ["y", "z"]])
        #expect(try records("\"\",\"\"\n") == [["", ""]], "quoted empty fields")
        #expect(try records("ab\"c,d\n") == [["ab\"c", "d"]], "a quote inside an unquoted field is kept")
        let lines = try CSVRecord.records(in: "h\n\"1\n2\"\nx\n").map(\.line)
        #expect(lines == [1, 2, 4], "a record's line is where it starts")
    }

    @Test func anUnclosedQuoteIsNamedAtTheLineAndColumnWhereItOpens() {
        #expect(
            failure("id,name\n1,ada\n2,\"bob\n3,eve\n")
                == "data.csv:3:3: the quoted field that starts here never closes: "
                + "close it with a \" (and double each quote inside it: \"\").")
        #expect(
            failure("id\n\"1\"x\n")?.hasPrefix("data.csv:2:4: text follows the closing quote of a quoted field") == true
        )
    }

    @Test func aHeaderNamesTheColumnsAndEveryRowHasOneFieldPerColumn() throws {
        let file = try parse("\u{FEFF}id, name \r\n1,\"Ada, Countess\"\r\n2,Bob\r\n")
        #expect(file.columns == ["id", "name"], "a BOM and spaces around a name are dropped")
        #expect(file.rows.map(\.values) == [["id": "1", "name": "Ada, Countess"], ["id": "2", "name": "Bob"]])
        #expect(file.rows.map(\.line) == [2, 3])
        #expect(file.rows[1].place == "row 2 (line 3)")
        #expect(failure("id,name\n1\n")?.hasPrefix("data.csv:2: this row has 1 field where the header has 2") == true)
        #expect(failure("id,id\n1,2\n")?.contains("the header names \"id\" twice (columns 1 and 2)") == true)
        #expect(failure("id,\n1,2\n")?.contains("column 2 of the header has no name") == true)
        #expect(failure("id\n")?.contains("the file has a header but no rows") == true)
        #expect(failure("")?.contains("the file is empty") == true)
    }

    @Test func jsonIsAnArrayOfObjectsWhoseOtherValuesAreTheirJSONText() throws {
        let file = try parse(
            #"[{"id": 1.50, "name": "Ada", "admin": true}, {"id": 2, "tags": ["a", 1], "note": null}]"#,
            path: "rows.json")
        #expect(file.columns == ["id", "name", "admin", "tags", "note"])
        #expect(file.rows[0].values == ["id": "1.50", "name": "Ada", "admin": "true"])
        #expect(file.rows[1].values == ["id": "2", "tags": #"["a",1]"#, "note": "null"])
        #expect(file.rows[1].place == "row 2")
        #expect(
            failure(#"{"id": 1}"#, path: "rows.json")
                == "rows.json:1: the JSON is an object, not an array of objects: "
                + #"write an array of objects, one per iteration: [{"id": 1}, {"id": 2}]."#)
        #expect(
            failure(#"[{"id": 1}, 2]"#, path: "rows.json")?.hasPrefix(
                "rows.json: element 2 of the array is a number, not an object") == true)
        #expect(failure("[\n{\"id\": 1,}\n]", path: "rows.json")?.hasPrefix("rows.json:2:") == true)
        #expect(failure("[]", path: "rows.json")?.contains("the array is empty") == true)
    }

    @Test func theFormatIsTheExtensionsElseTheContents() throws {
        #expect(try parse("[{\"a\": \"1\"}]", path: "rows").rows.count == 1)
        #expect(try parse("a\n1\n", path: "rows.txt").rows.count == 1)
        #expect(
            failure("a: 1\n", path: "rows.yaml")
                == "rows.yaml: a .yaml file is neither CSV nor JSON: name it .csv (a header row, then one row per "
                + "iteration) or .json (an array of objects).")
        let binary = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01])
        #expect(throws: DataFileError.self) { try DataFile.parse(binary, path: "rows.bin") }
    }

    @Test func aFileOverTheSizeLimitIsRefusedNamingTheVariable() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("data-\(UUID().uuidString).csv")
        try Data("id\n1\n2\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: Never.self) { try DataFile.read(at: url.path, environment: [:]) }
        do {
            _ = try DataFile.read(at: url.path, environment: ["EXPLORER_MAX_DATA_SIZE": "4"])
            Issue.record("read over the limit")
        } catch {
            #expect(error.description.hasSuffix("over the limit of 4 bytes: set EXPLORER_MAX_DATA_SIZE=7 to read it."))
        }
    }

    @Test func aColumnNoTemplateNamesIsUnused() throws {
        let file = try parse("id,name,label,extra\n1,a,b,c\n")
        let collection = """
            endpoints:
              - { name: A, path: "/users/{{id}}", headers: { X: "{{base64 name}}", Y: "{{prompt \\"label\\"}}" } }
            """
        #expect(file.unusedColumns(in: collection) == ["extra"])
    }
}
