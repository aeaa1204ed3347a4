import Foundation
import TestSupport
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// The request pane's editors: Query and Headers tables, the Body editor, completion.
@Suite struct RequestEditorTests {
    /// The state with `Users/Get user` selected, the request pane focused on `tab`.
    private func editing(_ tab: RequestTab, endpoint downs: Int = 2, width: Int = 80, height: Int = 24) throws
        -> AppState
    {
        var state = try tuiState(width: width, height: height)
        for _ in 0..<downs { tuiPress(&state, KeyPress(.down)) }
        state.focus = .request
        while state.compose.editor.tab != tab { tuiPress(&state, .char("]")) }
        return state
    }

    @Test func tabsCycleWithBracketsAndArrowsInTheRequestPane() throws {
        var state = try editing(.preview)
        tuiPress(&state, KeyPress(.right))
        #expect(state.compose.editor.tab == .query)
        tuiPress(&state, .char("["), .char("["))
        #expect(state.compose.editor.tab == .body)
        #expect(state.responseTab == .body, "the response tabs did not move")
    }

    @Test func addingAHeaderMakesADraftAndTabCompletesItsName() throws {
        var state = try editing(.headers)
        #expect(screenText(state).contains("No headers. a adds one."))
        tuiPress(&state, .char("a"))
        #expect(state.input?.purpose == .row(.headers, endpointID: "Users/Get user", index: nil))
        tuiType(&state, "x-req")
        tuiPress(&state, KeyPress(.tab))
        #expect(state.input?.text == "X-Request-ID: ")
        tuiType(&state, "{{us")
        tuiPress(&state, KeyPress(.tab))
        #expect(state.input?.text == "X-Request-ID: {{user_id}}")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.drafts["Users/Get user"]?.headers == [KeyValue("X-Request-ID", "{{user_id}}")])
        let text = screenText(state)
        #expect(text.contains("X-Request-ID"))
        #expect(text.contains("→ 1"), "the variable's value beside it")
    }

    @Test func severalCompletionsExtendToTheirCommonStartAndAreListed() throws {
        var state = try editing(.headers)
        tuiPress(&state, .char("a"))
        tuiType(&state, "acc")
        tuiPress(&state, KeyPress(.tab))
        #expect(state.input?.text == "Accept")
        #expect(state.message?.contains("Accept-Encoding") == true)
    }

    @Test func secretsAreMaskedBesideTheirVariable() throws {
        var state = try editing(.headers)
        tuiPress(&state, .char("e"), .char("3"))
        #expect(state.activeEnvironmentValue?.name == "production")
        tuiPress(&state, .char("a"))
        tuiType(&state, "X-Token: {{token}}")
        tuiPress(&state, KeyPress(.enter))
        let text = screenText(state)
        #expect(text.contains("→ ••••••"))
        #expect(!text.contains("s3cret-prod-token"))
    }

    @Test func editingTogglingAndDeletingQueryRows() throws {
        var state = try editing(.query, endpoint: 0)
        #expect(state.selectedEndpoint?.query == [KeyValue("page", "1")])
        tuiPress(&state, KeyPress(.enter))
        #expect(state.input?.text == "page=1")
        tuiPress(&state, .ctrl("u"))
        tuiType(&state, "page=2")
        tuiPress(&state, KeyPress(.enter), .char("a"))
        tuiType(&state, "sort=desc")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.selectedEndpoint?.query == [KeyValue("page", "2"), KeyValue("sort", "desc")])

        tuiPress(&state, KeyPress(.up), .char(" "))
        #expect(state.selectedEndpoint?.query == [KeyValue("sort", "desc")], "off: not sent")
        #expect(state.selectedEndpoint?.disabled.query == [KeyValue("page", "2")], "but kept in the draft")
        #expect(state.tableRows(.query, of: state.selectedEndpoint!).map(\.isEnabled) == [true, false])
        #expect(state.compose.editor.rows.selected == 1, "the selection follows the row to the end")
        tuiPress(&state, .char(" "))
        #expect(
            state.selectedEndpoint?.query == [KeyValue("sort", "desc"), KeyValue("page", "2")],
            "on again, after the rows that are on")
        #expect(state.selectedEndpoint?.disabled.isEmpty == true)
        tuiPress(&state, .ctrl("z"))
        #expect(
            state.selectedEndpoint?.disabled.query == [KeyValue("page", "2")],
            "switching is an edit: Ctrl-Z takes it back")
        tuiPress(&state, .ctrl("y"))

        tuiPress(&state, KeyPress(.down), .char("x"))
        #expect(state.selectedEndpoint?.query == [KeyValue("sort", "desc")])
        #expect(state.overlay == nil, "x in a table deletes the row, not the endpoint")
        tuiPress(&state, .ctrl("z"))
        #expect(state.selectedEndpoint?.query == [KeyValue("sort", "desc"), KeyValue("page", "2")])
    }

    @Test func aSwitchedOffPartKeepsItsFileNameAndTypeAndIsNeverSent() throws {
        var endpoint = Endpoint(
            name: "Upload", method: .post, path: "/upload",
            body: .multipart([
                MultipartField(
                    name: "report", value: "q3.csv", isFile: true, filename: "report.csv", contentType: "text/csv"),
                MultipartField(name: "note", value: "hi"),
            ]))
        endpoint = endpoint.switchingOff(.multipart, at: 0)
        #expect(endpoint.body == .multipart([MultipartField(name: "note", value: "hi")]))
        #expect(endpoint.disabledRows(.multipart) == [KeyValue("report", "@q3.csv")])
        let back = endpoint.switchingOn(.multipart, at: 0)
        #expect(
            back.body
                == .multipart([
                    MultipartField(name: "note", value: "hi"),
                    MultipartField(
                        name: "report", value: "q3.csv", isFile: true, filename: "report.csv", contentType: "text/csv"),
                ]))
        #expect(back.disabled.isEmpty)
        #expect(
            endpoint.switchingOn(.multipart, at: 0, deleting: true).body
                == .multipart([MultipartField(name: "note", value: "hi")]))
    }

    @Test func aRowWithoutANameIsRefused() throws {
        var state = try editing(.query, endpoint: 0)
        tuiPress(&state, .char("a"))
        tuiType(&state, "=3")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.messageIsError)
        #expect(state.drafts.isEmpty)
    }

    @Test func theJSONBodyIsValidatedAsYouTypeWithLineAndColumn() throws {
        var state = try editing(.body, endpoint: 3)
        #expect(state.selectedEndpoint?.id == "Users/Create user")
        tuiPress(&state, KeyPress(.enter))
        #expect(state.compose.editor.bodyText?.text == "{\n  \"name\": \"Ada\"\n}")
        // Break it: remove the closing quote of "Ada".
        tuiPress(&state, KeyPress(.down), KeyPress(.end), KeyPress(.backspace))
        let failure = try #require(state.compose.editor.bodyError)
        #expect(failure.line == 2)
        #expect(screenText(state).contains("✗ line 2, column"))
        #expect(state.drafts.isEmpty, "the draft keeps the last JSON that parsed")
        tuiType(&state, "\", \"age\": 36")
        #expect(state.compose.editor.bodyError == nil)
        #expect(
            state.drafts["Users/Create user"]?.body
                == .json(.object([(key: "name", value: .string("Ada")), (key: "age", value: .number("36"))])))
        tuiPress(&state, KeyPress(.escape))
        #expect(state.compose.editor.bodyText == nil)
    }

    @Test func typingInTheBodyEditorIsNotTakenByCommands() throws {
        var state = try editing(.body, endpoint: 3)
        tuiPress(&state, KeyPress(.enter), KeyPress(.down), KeyPress(.end))
        tuiType(&state, ", \"q\": 1")
        #expect(!state.quitting)
        #expect(state.compose.editor.bodyText?.lines[1] == "  \"name\": \"Ada\", \"q\": 1")
    }

    @Test func ctrlZInTheBodyEditorUndoesAndShowsTheText() throws {
        var state = try editing(.body, endpoint: 3)
        tuiPress(&state, KeyPress(.enter), KeyPress(.down), KeyPress(.end))
        tuiType(&state, ", \"a\": 1")
        #expect(state.drafts["Users/Create user"] != nil)
        for _ in 0..<8 { tuiPress(&state, .ctrl("z")) }
        #expect(state.drafts.isEmpty)
        #expect(state.compose.editor.bodyText?.text == "{\n  \"name\": \"Ada\"\n}")
    }

    @Test func aWordTypedInTheBodyEditorIsOneUndoStep() throws {
        var state = try editing(.body, endpoint: 3)
        tuiPress(&state, .char("m"), .char("m"), .char("m"))
        #expect(BodyMode(state.selectedEndpoint?.body) == .raw)
        tuiPress(&state, KeyPress(.enter), .ctrl("a"), .ctrl("k"))
        let start = state.compose.undo.count
        tuiType(&state, "hello big world")
        #expect(state.selectedEndpoint?.body == .raw("hello big world"))
        #expect(state.compose.undo.count == start + 3, "three words, three steps")
        tuiPress(&state, .ctrl("z"))
        #expect(state.compose.editor.bodyText?.text == "hello big ")
        tuiPress(&state, KeyPress(.left))
        tuiType(&state, "x")
        tuiPress(&state, KeyPress(.end))
        tuiType(&state, "y")
        #expect(state.compose.editor.bodyText?.text == "hello bigx y")
        tuiPress(&state, .ctrl("z"))
        #expect(state.compose.editor.bodyText?.text == "hello bigx ", "moving the cursor starts a new step")
        tuiPress(&state, .ctrl("z"), .ctrl("z"))
        #expect(state.compose.editor.bodyText?.text == "hello ")
    }

    @Test func bodyModesCycleAndKeepWhatTheyCan() throws {
        var state = try editing(.body, endpoint: 3)
        tuiPress(&state, .char("m"))
        #expect(BodyMode(state.selectedEndpoint?.body) == .form)
        tuiPress(&state, .char("a"))
        tuiType(&state, "name=Ada")
        tuiPress(&state, KeyPress(.enter), .char("m"))
        #expect(state.selectedEndpoint?.body == .multipart([MultipartField(name: "name", value: "Ada")]))
        tuiPress(&state, .char("a"))
        tuiType(&state, "avatar=@./ada.png")
        tuiPress(&state, KeyPress(.enter))
        #expect(
            state.selectedEndpoint?.body
                == .multipart([
                    MultipartField(name: "name", value: "Ada"),
                    MultipartField(name: "avatar", value: "./ada.png", isFile: true),
                ]))
        #expect(screenText(state).contains("file ./ada.png"))
        tuiPress(&state, .char("m"))
        #expect(BodyMode(state.selectedEndpoint?.body) == .raw)
        tuiPress(&state, KeyPress(.enter))
        tuiType(&state, "hello {{user_id}}")
        tuiPress(&state, KeyPress(.escape))
        #expect(state.selectedEndpoint?.body == .raw("hello {{user_id}}"))
        tuiPress(&state, .char("m"))
        #expect(state.selectedEndpoint?.body == nil)
    }

    @Test func tabInTheBodyEditorCompletesAVariable() throws {
        var state = try editing(.body, endpoint: 3)
        tuiPress(&state, .char("m"), .char("m"), .char("m"))
        #expect(BodyMode(state.selectedEndpoint?.body) == .raw)
        tuiPress(&state, KeyPress(.enter))
        tuiType(&state, "id={{user")
        tuiPress(&state, KeyPress(.tab))
        #expect(state.compose.editor.bodyText?.text == "id={{user_id}}")
    }

    @Test func snapshots() throws {
        var headers = try editing(.headers)
        tuiPress(&headers, .char("a"))
        tuiType(&headers, "Accept: application/json")
        tuiPress(&headers, KeyPress(.enter), .char("a"))
        tuiType(&headers, "X-User: {{user_id}}")
        tuiPress(&headers, KeyPress(.enter))
        assertSnapshot(tuiScreen(headers), named: "editor-headers-80x24")

        var query = try editing(.query, endpoint: 0, width: 40, height: 12)
        tuiPress(&query, .char("a"))
        tuiType(&query, "sort=desc")
        tuiPress(&query, KeyPress(.enter), .char(" "))
        assertSnapshot(tuiScreen(query), named: "editor-query-40x12")
        var narrowHeaders = try editing(.headers, width: 40, height: 12)
        tuiPress(&narrowHeaders, .char("a"))
        tuiType(&narrowHeaders, "X-User: {{user_id}}")
        tuiPress(&narrowHeaders, KeyPress(.enter))
        assertSnapshot(tuiScreen(narrowHeaders), named: "editor-headers-40x12")

        var body = try editing(.body, endpoint: 3)
        tuiPress(&body, KeyPress(.enter), KeyPress(.down), KeyPress(.end), KeyPress(.backspace))
        assertSnapshot(tuiScreen(body), named: "editor-body-json-error-80x24")
        var narrowBody = try editing(.body, endpoint: 3, width: 40, height: 12)
        tuiPress(&narrowBody, KeyPress(.enter))
        assertSnapshot(tuiScreen(narrowBody), named: "editor-body-json-40x12")

        var multipart = try editing(.body, endpoint: 3)
        tuiPress(&multipart, .char("m"), .char("m"), .char("a"))
        tuiType(&multipart, "avatar=@./ada.png")
        tuiPress(&multipart, KeyPress(.enter))
        assertSnapshot(tuiScreen(multipart), named: "editor-body-multipart-80x24")
        var narrowMultipart = try editing(.body, endpoint: 3, width: 40, height: 12)
        tuiPress(&narrowMultipart, .char("m"), .char("m"), .char("a"))
        tuiType(&narrowMultipart, "avatar=@./ada.png")
        tuiPress(&narrowMultipart, KeyPress(.enter))
        assertSnapshot(tuiScreen(narrowMultipart), named: "editor-body-multipart-40x12")
        var form = try editing(.body, endpoint: 3)
        tuiPress(&form, .char("m"), .char("a"))
        tuiType(&form, "name={{user_id}}")
        tuiPress(&form, KeyPress(.enter))
        assertSnapshot(tuiScreen(form), named: "editor-body-form-80x24")
        var raw = try editing(.body, endpoint: 3, width: 40, height: 12)
        tuiPress(&raw, .char("m"), .char("m"), .char("m"), KeyPress(.enter))
        tuiType(&raw, "id={{user_id}}")
        assertSnapshot(tuiScreen(raw), named: "editor-body-raw-40x12")
        var query80 = try editing(.query, endpoint: 0)
        tuiPress(&query80, .char(" "))
        assertSnapshot(tuiScreen(query80), named: "editor-query-80x24")
    }
}

/// The Terminal widgets behind the editors.
@Suite struct EditorWidgetTests {
    @Test func textEditorStateEditsAcrossLines() {
        var editor = TextEditorState("ab\ncd")
        editor.moveTo(line: 0, column: 1)
        editor.handle(KeyPress(.enter))
        #expect(editor.lines == ["a", "b", "cd"])
        editor.handle(KeyPress(.backspace))
        #expect(editor.text == "ab\ncd")
        editor.handle(KeyPress(.end))
        editor.handle(KeyPress(.delete))
        #expect(editor.lines == ["abcd"])
        editor.handle(KeyPress(.end))
        editor.insert("x\r\ny\tz")
        #expect(editor.lines == ["abcdx", "y  z"])
        #expect(editor.line == 1 && editor.column == 4)
    }

    @Test func newLinesKeepTheIndent() {
        var editor = TextEditorState("{\n  \"a\": 1")
        editor.moveTo(line: 1, column: 9)
        editor.handle(KeyPress(.enter))
        #expect(editor.lines[2] == "  ")
    }

    @Test func tableAndEditorSnapshots() {
        var grid = CellGrid(size: Size(width: 40, height: 6))
        let rows = [
            TableView.Row([["✓"], ["Accept"], ["application/json"], []]),
            TableView.Row([["○"], ["X-Old"], ["1"], []], isEnabled: false),
        ]
        TableView(
            headers: ["", "Name", "Value", "Resolved"], widths: [1, 10, 14], rows: rows, state: ListState(selected: 1)
        )
        .render(into: &grid, area: Rect(x: 0, y: 0, width: 40, height: 3))
        var editor = TextEditorState("{\n  \"name\": \"Ada\"\n}")
        editor.moveTo(line: 1, column: 4)
        TextEditor(state: editor, markedLine: 2).render(into: &grid, area: Rect(x: 0, y: 3, width: 40, height: 3))
        assertSnapshot(grid, named: "widget-table-editor-40x6")
        #expect(grid.cursor == Point(x: 7, y: 4))
    }
}
