import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import App
@testable import History
@testable import Terminal
@testable import Workspace

/// The fixes for the bugs that lost work or data, and the reducer's purity: saved bodies,
/// `$EDITOR` edits, re-sending to an environment that is gone, bounded exchanges, and a
/// preview resolved once per change rather than once per frame.
@Suite struct AppDataSafetyTests {
    private func temporaryFolder() throws -> URL { try TemporaryFolder().url }

    // MARK: - Saving a body

    @Test func savingABodyNeverReplacesAFile() throws {
        let folder = try temporaryFolder()
        let wanted = folder.appendingPathComponent("body.json").path
        try Data("earlier session".utf8).write(to: URL(fileURLWithPath: wanted))

        let first = try BodyFile.save(Data("one".utf8), to: wanted)
        let second = try BodyFile.save(Data("two".utf8), to: wanted)

        #expect(first == folder.appendingPathComponent("body-2.json").path)
        #expect(second == folder.appendingPathComponent("body-3.json").path)
        #expect(try String(contentsOfFile: wanted, encoding: .utf8) == "earlier session")
        #expect(try String(contentsOfFile: first, encoding: .utf8) == "one")
        #expect(try String(contentsOfFile: second, encoding: .utf8) == "two")
    }

    @Test func aBodyThatCannotBeSavedSaysWhereAndWhy() throws {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("no-such-folder/body.json").path
        #expect {
            try BodyFile.save(Data("x".utf8), to: path)
        } throws: { error in
            let text = String(describing: error)
            return text.hasPrefix("Could not save the body to \(path): ") && text.contains("No such file or directory")
        }
    }

    @Test func aSavePathWithATildeOrRelativeIsResolved() {
        #expect(BodyFile.absolute("~/b.json", home: "/home/ada", currentDirectory: "/w") == "/home/ada/b.json")
        #expect(BodyFile.absolute("out/b.json", home: "/home/ada", currentDirectory: "/w") == "/w/out/b.json")
        #expect(BodyFile.absolute("/tmp/../tmp/b.json", home: "/home/ada", currentDirectory: "/w") == "/tmp/b.json")
    }

    @Test func savingABodyAsksForThePathProposingANameOfItsOwnInTheSaveFolder() throws {
        var state = try tuiState()
        state.saveFolder = "/home/ada/Downloads"
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: #"{"a":1}"#, contentType: "application/json"))
        #expect(tuiPress(&state, .char("s")).isEmpty, "nothing is written before the path is confirmed")
        guard case .savePath? = state.input?.purpose else {
            Issue.record("no path prompt")
            return
        }
        // The endpoint and the time of the key press (UTC) name it: two sessions never share a name.
        #expect(state.input?.text == "/home/ada/Downloads/explorer-List-posts-20260509T061320Z.json")
        #expect(screenText(state).contains("Save body to:"))

        let effects = tuiPress(&state, KeyPress(.enter))
        guard case .saveBody(let bytes, let path)? = effects.first else {
            Issue.record("expected a save, got \(effects)")
            return
        }
        #expect(bytes == Data(#"{"a":1}"#.utf8))
        #expect(path == "/home/ada/Downloads/explorer-List-posts-20260509T061320Z.json")
    }

    @Test func escapeAtTheSavePromptSavesNothing() throws {
        var state = try tuiState()
        tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "x", contentType: "text/plain"))
        tuiPress(&state, .char("s"))
        #expect(tuiPress(&state, KeyPress(.escape)).isEmpty)
        #expect(state.input == nil)
    }

    @Test func theSaveEffectReportsTheFreeNameItUsed() async throws {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("b.txt").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        let program = ExplorerProgram(history: nil, collectionPath: nil, clipboardWriter: nil)
        let reported = Collected<AppAction>()
        program.perform(.saveBody(Data("new".utf8), path: path), send: { reported.append($0) })
        #expect(await reported.wait { if case .message = $0 { return true } else { return false } })
        guard case .message(let text, let isError)? = reported.all.first else { return }
        #expect(!isError)
        #expect(text == "\(path) exists; saved 3 bytes to \(folder.appendingPathComponent("b-2.txt").path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        await program.shutdown()
    }

    // MARK: - Editing in $EDITOR

    /// A shell script as `$EDITOR`: each run appends its file's first line to `log` and
    /// replaces the file with the next of `replies` (or leaves it when the reply is `-`).
    private func scriptedEditor(_ replies: [String], in folder: URL, failing: Bool = false) throws -> (
        environment: [String: String], log: URL
    ) {
        let log = folder.appendingPathComponent("editor.log")
        var script =
            "#!/bin/sh\nrun=$(cat \"\(folder.path)/run\" 2>/dev/null || echo 0)\nrun=$((run + 1))\necho $run > \"\(folder.path)/run\"\n"
        script += "head -n 1 \"$1\" >> \"\(log.path)\"\ncp \"$1\" \"\(folder.path)/seen-$run\"\n"
        for (index, reply) in replies.enumerated() where reply != "-" {
            let replyFile = folder.appendingPathComponent("reply-\(index + 1)")
            try Data(reply.utf8).write(to: replyFile)
            script += "[ $run = \(index + 1) ] && cp \"\(replyFile.path)\" \"$1\"\n"
        }
        script += failing ? "exit 3\n" : "exit 0\n"
        let file = folder.appendingPathComponent("editor.sh")
        try Data(script.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        return (["EDITOR": file.path, "PATH": "/usr/bin:/bin"], log)
    }

    private func edit(_ endpoint: Endpoint, environment: [String: String]) async -> AppAction? {
        let program = ExplorerProgram(
            history: nil, collectionPath: nil, clipboardWriter: nil,
            externalEditor: { ExternalEditor.run(on: $0, environment: environment) })
        let reported = Collected<AppAction>()
        program.perform(.editInEditor(endpoint), send: { reported.append($0) })
        _ = await reported.wait { _ in true }
        await program.shutdown()
        return reported.all.first
    }

    private var getUser: Endpoint { Endpoint(name: "Get user", folderPath: ["Users"], path: "/users/{{user_id}}") }

    @Test func anEditThatDoesNotParseReopensWithTheErrorOnTopAndTheTextKept() async throws {
        let folder = try temporaryFolder()
        let broken = "name: Get user\nmethod: GET\npath: /users/7\nquery: [oops\n"
        let (environment, _) = try scriptedEditor([broken], in: folder)
        // Run 1 writes broken YAML; run 2 sees the note and quits without saving, so the
        // program ends with the text kept. The next test fixes it on the second run instead.
        let action = await edit(getUser, environment: environment)
        let seen = try String(contentsOf: folder.appendingPathComponent("seen-2"), encoding: .utf8)
        #expect(seen.hasPrefix(EndpointEditing.notePrefix + "The edit was not applied: explorer-Users-Get-user.yaml:"))
        #expect(seen.hasSuffix(broken), "the user's text is below the note, as they left it")
        // Set aside in a panel, so the path is never cut off by the width of the status line.
        guard case .showText(let title, let lines)? = action else {
            Issue.record("expected a panel, got \(String(describing: action))")
            return
        }
        #expect(title == "The edit was not applied")
        #expect(lines.first == "Your text is kept in")
        let kept = lines[1].trimmingCharacters(in: .whitespaces)
        #expect(try String(contentsOfFile: kept, encoding: .utf8).hasSuffix(broken))
        // The loader's line, counted in the kept file (note included), at or after the unclosed list.
        let keptLines = try String(contentsOfFile: kept, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let brokenLine = try #require(keptLines.firstIndex { $0.hasPrefix("query: [oops") }) + 1
        let reported = try #require(lines[3].split(separator: ":").dropFirst().first.flatMap { Int($0) })
        #expect(lines[3].hasPrefix("explorer-Users-Get-user.yaml:"))
        // (A list left open is reported where the text ends, one past its last line.)
        #expect(
            reported >= brokenLine && reported <= keptLines.count + 1,
            "line \(reported) of \(keptLines.count), the list opens on \(brokenLine)")
    }

    @Test func anEditFixedAfterTheErrorIsApplied() async throws {
        let folder = try temporaryFolder()
        let (environment, log) = try scriptedEditor(
            ["name: Get user\npath: [\n", "name: Get user\nmethod: DELETE\npath: /users/7\n"], in: folder)
        let action = await edit(getUser, environment: environment)
        guard case .endpointEdited(let edited)? = action else {
            Issue.record(
                "expected an edit, got \(String(describing: action)); the editor saw \((try? String(contentsOf: log, encoding: .utf8)) ?? "nothing")"
            )
            return
        }
        #expect(edited.method == .delete)
        #expect(edited.path == "/users/7")
        #expect(edited.id == "Users/Get user")
        let firstLines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(firstLines.count == 2)
        #expect(firstLines[1].hasPrefix(EndpointEditing.notePrefix))
    }

    @Test func theNoteCountsItsOwnLinesInTheLineNumbersItGives() throws {
        let text = "name: a\npath: /a\nheaders: 5\n"
        guard case .failure(let error) = EndpointEditing.read(text, original: getUser, file: "e.yaml") else {
            Issue.record("the text read")
            return
        }
        let reopened = EndpointEditing.noted(text, error: error)
        // The note gives the line of the file as it is now shown, note included.
        let shown = reopened.split(separator: "\n", omittingEmptySubsequences: false)
        let noteLines = shown.prefix { $0.hasPrefix(EndpointEditing.notePrefix) }.count
        let reported = try #require(
            error.reason.components(separatedBy: "e.yaml:").dropFirst().first?.split(separator: ":").first.flatMap {
                Int($0)
            })
        #expect(
            shown.indices.contains(reported - 1) && shown[reported - 1].hasPrefix("headers:"),
            "\(error.reason) in \(shown)")
        guard case .failure(let again) = EndpointEditing.read(reopened, original: getUser, file: "e.yaml") else {
            return
        }
        #expect(
            EndpointEditing.noted(reopened, error: again) == reopened,
            "a second round replaces the note, it does not stack")
        #expect(noteLines >= 2)
        #expect(EndpointEditing.withoutNote(reopened) == text)
    }

    @Test func aFailingEditorIsReportedAsAFailureNotAsNoChange() async throws {
        let folder = try temporaryFolder()
        let (environment, _) = try scriptedEditor(["-"], in: folder, failing: true)
        let action = await edit(getUser, environment: environment)
        guard case .message(let text, let isError)? = action else {
            Issue.record("expected a message")
            return
        }
        #expect(isError)
        #expect(text.contains("exited with status 3"))
        #expect(text != "Not changed.")
    }

    @Test func anEditorThatDoesNotExistIsNamed() {
        let outcome = ExternalEditor.run(
            on: URL(fileURLWithPath: "/tmp/x.yaml"),
            environment: ["EDITOR": "no-such-editor-here", "PATH": "/usr/bin:/bin"])
        #expect(outcome == .failed("no-such-editor-here was not found (set VISUAL or EDITOR)"))
    }

    // MARK: - Re-sending history

    private func summary(id: Int64, endpoint: String, environment: String) -> HistorySummary {
        HistorySummary(
            id: id, startedAt: tuiNow, environment: environment, endpoint: endpoint, method: "GET",
            url: "https://gone.example.com/users/1", status: 200, reason: "OK", responseBodySize: 0,
            contentType: nil, totalMilliseconds: 10, transportError: nil)
    }

    @Test func resendingAnEntryWhoseEnvironmentIsGoneAsksWhichEnvironment() throws {
        var state = try tuiState()
        tuiReduce(&state, .historyLoaded([summary(id: 9, endpoint: "Users/Get user", environment: "qa")]))
        state.focus = .history
        #expect(tuiPress(&state, .char("r")).isEmpty, "nothing is sent to another environment silently")
        guard case .environmentPicker? = state.overlay else {
            Issue.record("no picker")
            return
        }
        #expect(screenText(state).contains("Re-send #9 in which environment?"))

        let effects = tuiPress(&state, .char("2"))
        guard case .send(_, let plan)? = effects.first else {
            Issue.record("expected a send, got \(effects)")
            return
        }
        #expect(plan.environment.name == "staging")
        #expect(plan.endpoint.id == "Users/Get user")
        #expect(state.activeEnvironmentValue?.name == "local", "choosing for a re-send does not switch the environment")
    }

    @Test func escapeAtTheResendPickerSendsNothing() throws {
        var state = try tuiState()
        tuiReduce(&state, .historyLoaded([summary(id: 9, endpoint: "Users/Get user", environment: "qa")]))
        state.focus = .history
        tuiPress(&state, .char("r"))
        #expect(tuiPress(&state, KeyPress(.escape)).isEmpty)
        #expect(state.resendPending == nil)
        #expect(state.message == "Not sent.")
    }

    // MARK: - Bounded memory

    @Test func exchangesKeptInMemoryAreBounded() throws {
        var state = try tuiState()
        state.exchangeLimit = 3
        var ids: [Int] = []
        for _ in 0..<10 {
            let effects = tuiPress(&state, KeyPress(.enter))
            guard case .send(let id, _)? = effects.first else {
                Issue.record("no send")
                return
            }
            tuiReduce(
                &state,
                .received(exchange: id, tuiResponse(status: 200, reason: "OK", body: "x", contentType: "text/plain")))
            ids.append(id)
        }
        #expect(state.exchanges.count == 3)
        #expect(Set(state.exchanges.keys) == Set(ids.suffix(3)))
        #expect(state.shown?.id == ids.last)
    }

    @Test func exchangesInFlightAreNeverForgotten() throws {
        var state = try tuiState()
        state.exchangeLimit = 1
        var ids: [Int] = []
        for _ in 0..<4 {
            guard case .send(let id, _)? = tuiPress(&state, KeyPress(.enter)).first else {
                Issue.record("no send")
                return
            }
            ids.append(id)
        }
        #expect(Set(state.exchanges.keys) == Set(ids))
    }

    // MARK: - Purity

    @Test func theReducerTakesTheTimeFromTheInput() throws {
        var state = try tuiState()
        let later = tuiNow.addingTimeInterval(3600)
        let effects = tuiReduce(&state, .input(.key(KeyPress(.enter)), at: later))
        guard case .send(let id, _)? = effects.first else {
            Issue.record("no send")
            return
        }
        #expect(state.exchanges[id]?.startedAt == later)
        #expect(state.now == later)
    }

    @Test func thePreviewIsResolvedOncePerChangeNotPerFrame() throws {
        var state = try tuiState()
        // Ticks (a spinner at 10 per second) ask for nothing.
        for second in 1...20 {
            #expect(
                AppReducer.reduce(&state, .input(.tick, at: tuiNow.addingTimeInterval(Double(second) / 10))).isEmpty)
        }
        // Moving to another endpoint asks once; the view then only reads the state.
        tuiPress(&state, KeyPress(.down))
        #expect(state.selectedEndpoint == nil, "on the Users folder")
        let effects = AppReducer.reduce(&state, .input(.key(KeyPress(.down)), at: tuiNow))
        let previews = effects.filter { if case .preview = $0 { return true } else { return false } }
        #expect(previews.count == 1)
        #expect(state.preview == nil, "until the effect answers, nothing stale is shown")
        guard case .preview(let plan)? = previews.first else { return }
        tuiReduce(&state, .previewResolved(plan.preview()))
        #expect(state.preview?.urlText == "http://127.0.0.1:8080/v1/users/1")
        #expect(screenText(state).contains("GET http://127.0.0.1:8080/v1/users/1"))
        // Switching the environment asks again, for the new one.
        let switched =
            AppReducer.reduce(&state, .input(.key(.char("e")), at: tuiNow))
            + AppReducer.reduce(&state, .input(.key(.char("2")), at: tuiNow))
        #expect(
            switched.contains {
                if case .preview(let plan) = $0 { return plan.environment.name == "staging" } else { return false }
            })
    }

    @Test func aPreviewOfAnEarlierSelectionIsNotShown() throws {
        var state = try tuiState()
        tuiPress(&state, KeyPress(.down))
        let stale = AppReducer.reduce(&state, .input(.key(KeyPress(.down)), at: tuiNow))
        tuiPress(&state, KeyPress(.down))
        guard case .preview(let plan)? = stale.first else {
            Issue.record("no preview asked")
            return
        }
        tuiReduce(&state, .previewResolved(plan.preview()))
        #expect(state.preview?.key == state.previewKey)
        #expect(state.preview?.method == .post, "the answer for Get user arrived late and was dropped")
    }

    @Test func secretsAreMaskedInThePreview() throws {
        var state = try tuiState(environment: "production")
        state.focus = .request
        let text = screenText(state)
        #expect(!text.contains("s3cret-prod-token"))
        #expect(text.contains("Authorization"))
    }
}
