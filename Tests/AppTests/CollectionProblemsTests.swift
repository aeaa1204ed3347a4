import Foundation
import Testing

@testable import App
@testable import Terminal
@testable import Workspace

/// The collection's problems stay on screen until the file is fixed: the count in the title
/// bar, the first on a line of its own, every one (whole, with its did-you-mean) with `!`.
@Suite struct CollectionProblemsTests {
    static let typo = tuiCollectionYAML.replacingOccurrences(
        of: "query: { page: \"1\" }", with: "qurey: { page: \"1\" }")

    @Test func aTypoInTheFileStaysVisibleAfterOtherKeys() throws {
        var state = try tuiState(width: 120, height: 30)
        #expect(!screenText(state).contains("problem"))
        let edited = try CollectionLoader.parse(Self.typo, file: "shop.yaml")
        tuiReduce(&state, .collectionReloaded(edited))
        #expect(screenText(state).contains("Reloaded shop.yaml with 1 problem (! lists them)"))
        tuiPress(&state, .char("j"), .char("k"))
        let text = screenText(state)
        #expect(text.contains("⚠ 1 problem"))
        let line =
            Self.typo.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("qurey") }! + 1
        #expect(
            text.contains(
                #"shop.yaml:\#(line):5: warning: unknown key "qurey" in endpoint "List posts" is ignored; did you mean "query"?"#
            ))
        // Fixed on disk: the problem goes.
        tuiReduce(&state, .collectionReloaded(try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")))
        #expect(!screenText(state).contains("problem"))
    }

    @Test func aReloadErrorStaysWhileTheLastGoodCollectionIsInUse() throws {
        var state = try tuiState(width: 120, height: 30)
        let error =
            "shop.yaml:31:5: endpoint \"List posts\" has no \"path\", which is required; did you mean \"path\" for \"paht\" (line 31)?"
        tuiReduce(&state, .collectionFailed(error))
        tuiPress(&state, .char("j"), .char("j"))
        let text = screenText(state)
        #expect(text.contains("⚠ 1 problem"))
        #expect(text.contains("has no \"path\", which is required; did you mean"))
        #expect(text.contains("List posts"), "the last good collection stays on screen")
        tuiPress(&state, .char("!"))
        let panel = screenText(state)
        #expect(panel.contains("Problems in shop.yaml (the last version that loaded is in use)"))
        #expect(panel.contains("(line 31)?"), "the whole error, wrapped, not cut")
        tuiPress(&state, KeyPress(.escape))
        tuiReduce(&state, .collectionReloaded(try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")))
        #expect(!screenText(state).contains("problem"))
        #expect(state.message == "Reloaded shop.yaml")
    }

    /// A version read while the TUI runs that reaches beyond the folder without trust is not
    /// used: the last trusted one stays, and why is on screen until a usable version is read.
    @Test func aReloadRefusedByTrustKeepsTheLastTrustedVersionAndSaysWhy() throws {
        var state = try tuiState(width: 120, height: 30)
        let before = state.collection?.endpoints
        let refusal =
            "/w/shop.yaml was found, not named, and reaches beyond its folder: it reads the environment variable SECRET_TOKEN. "
            + "Nothing was sent: read the collection, then run explorer trust /w/shop.yaml (or open it with --collection)."
        tuiReduce(&state, .collectionRefused(refusal))
        #expect(state.collection?.endpoints == before, "nothing of the refused version is used")
        #expect(
            state.message
                == "shop.yaml changed to reach beyond its folder and is not trusted for that; the last trusted version stays in use (! shows why)"
        )
        #expect(state.messageIsError)
        tuiPress(&state, .char("!"))
        #expect(screenText(state).contains("reads the environment variable"))
        tuiPress(&state, KeyPress(.escape))
        tuiReduce(&state, .collectionReloaded(try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")))
        #expect(!screenText(state).contains("problem"))
    }

    @Test func theProblemsPanelWrapsAndScrollsEveryProblemAt40x12() throws {
        let many = (1...12).map { "      - name: Extra \($0)\n        path: /x\n        hedaers: {}\n" }.joined()
        let collection = try CollectionLoader.parse(tuiCollectionYAML + "\n" + many, file: "shop.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/shop.yaml")
        state.size = Size(width: 40, height: 12)
        tuiReduce(&state, .input(.tick, at: tuiNow))
        #expect(state.problems.count == 12)
        tuiPress(&state, .char("!"))
        var seen = screenText(state)
        for _ in 0..<80 {
            tuiPress(&state, KeyPress(.down))
            seen += screenText(state)
        }
        for index in 1...12 {
            #expect(seen.contains("endpoint \"Extra \(index)\""), "problem \(index) is reachable")
        }
        #expect(screenText(state).contains("did you mean"))
        tuiPress(&state, .char("!"))
        if case .problems = state.overlay { Issue.record("! closes the panel") }
    }
}
