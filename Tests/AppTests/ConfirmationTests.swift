import Foundation
import Testing

@testable import App
@testable import Demo
@testable import Terminal
@testable import Workspace

/// The explorer's five confirmations, opened as a user opens them.
enum AskedConfirmation: String, CaseIterable, CustomTestStringConvertible {
    /// Enter on an endpoint in the protected environment.
    case send
    /// `=`, then the protected environment in the picker.
    case compare
    /// `S` on an edited endpoint.
    case save
    /// `x` on an endpoint.
    case delete
    /// The drafts the last session left, offered at the start.
    case restoreDrafts

    var testDescription: String { rawValue }

    /// A state with this confirmation open.
    func opened() throws -> AppState {
        var state = try tuiState(environment: self == .send ? "production" : nil)
        switch self {
        case .send:
            tuiPress(&state, KeyPress(.enter))
        case .compare:
            tuiPress(&state, .char("="), .char("3"))
        case .save:
            tuiPress(&state, KeyPress(.down), KeyPress(.down), .char("i"), KeyPress(.end))
            tuiType(&state, "?page=2")
            tuiPress(&state, KeyPress(.enter), .char("S"))
        case .delete:
            tuiPress(&state, KeyPress(.down), KeyPress(.down), .char("x"))
        case .restoreDrafts:
            state.offerDrafts([Endpoint(name: "Draft", folderPath: ["Users"], method: .post, path: "/users/draft")])
        }
        return state
    }

    /// The key that runs the deed: `y`, but for the drafts, whose deed is discarding them, `n`.
    var confirmingKey: Character { self == .restoreDrafts ? "n" : "y" }
    /// The key of the safe answer.
    var cancellingKey: Character { self == .restoreDrafts ? "y" : "n" }
}

/// What a state shows after an answer, to compare the answers of two keys.
private struct Outcome: Equatable {
    var effects: String
    var message: String?
    var drafts: [String]
    var exchanges: Int
    var overlayOpen: Bool

    init(_ state: AppState, _ effects: [AppEffect]) {
        self.effects = String(describing: effects)
        message = state.message
        drafts = state.drafts.keys.sorted()
        exchanges = state.exchanges.count
        overlayOpen = state.overlay != nil
    }
}

/// One confirmation, answered in one place: a confirming key runs the deed, a cancelling key,
/// Esc and Enter give the safe answer in every dialog, any other key leaves the question open.
@Suite struct ConfirmationTests {
    private func answered(_ asked: AskedConfirmation, _ key: KeyPress) throws -> (AppState, [AppEffect]) {
        var state = try asked.opened()
        #expect(state.confirmation != nil, "\(asked) did not ask")
        let effects = tuiPress(&state, key)
        return (state, effects)
    }

    // MARK: - Every confirmation is one kind of thing

    @Test(arguments: AskedConfirmation.allCases)
    func everyConfirmationIsTheOneModel(asked: AskedConfirmation) throws {
        let state = try asked.opened()
        let confirmation = try #require(state.confirmation)
        guard case .confirmation = state.overlay else {
            Issue.record("the confirmation is not the overlay")
            return
        }
        #expect(confirmation.answer(to: .char(asked.confirmingKey)) == .confirm)
        #expect(confirmation.answer(to: .char(asked.cancellingKey)) == .cancel)
    }

    // MARK: - Confirming

    @Test(arguments: AskedConfirmation.allCases)
    func theConfirmingKeyRunsTheDeedTheQuestionNames(asked: AskedConfirmation) throws {
        for key in [asked.confirmingKey, Character(asked.confirmingKey.uppercased())] {
            let (state, effects) = try answered(asked, .char(key))
            #expect(state.overlay == nil)
            switch asked {
            case .send:
                guard case .send(_, let plan)? = effects.first else {
                    Issue.record("y did not send: \(effects)")
                    continue
                }
                #expect(plan.environment.name == "production" && plan.endpoint.id == "List posts")
            case .compare:
                guard case .compareEnvironments(let first, let second)? = effects.first else {
                    Issue.record("y did not compare: \(effects)")
                    continue
                }
                #expect(first.environment.name == "local" && second.environment.name == "production")
            case .save:
                guard case .changeCollection(.put(let endpoint, replacing: "Users/Get user"), _)? = effects.first else {
                    Issue.record("y did not save: \(effects)")
                    continue
                }
                #expect(endpoint.query == [KeyValue("page", "2")])
            case .delete:
                guard case .changeCollection(.delete(id: "Users/Get user"), _)? = effects.first else {
                    Issue.record("y did not delete: \(effects)")
                    continue
                }
            case .restoreDrafts:
                guard case .storeDrafts(let drafts, _)? = effects.first else {
                    Issue.record("n did not discard the drafts: \(effects)")
                    continue
                }
                #expect(drafts.isEmpty, "discarding empties the drafts file")
                #expect(state.drafts.isEmpty)
            }
        }
    }

    // MARK: - Cancelling

    @Test(arguments: AskedConfirmation.allCases)
    func theCancellingKeyAndEscGiveTheSafeAnswer(asked: AskedConfirmation) throws {
        for key in [.char(asked.cancellingKey), .char(Character(asked.cancellingKey.uppercased())), KeyPress(.escape)] {
            let (state, effects) = try answered(asked, key)
            #expect(state.overlay == nil, "\(key) left \(asked) open")
            #expect(state.exchanges.count == (asked == .save ? 1 : 0), "nothing sent but the edit's own send")
            switch asked {
            case .send, .compare:
                #expect(effects.isEmpty, "\(key) in \(asked) did \(effects)")
                #expect(state.message == "Not sent.")
            case .save:
                #expect(effects.isEmpty, "\(key) in \(asked) did \(effects)")
                #expect(state.message == "Not saved; the edit stays in this session.")
                #expect(state.drafts["Users/Get user"] != nil)
            case .delete:
                #expect(effects.isEmpty, "\(key) in \(asked) did \(effects)")
                #expect(state.message == "Not deleted.")
                #expect(state.endpoint(withID: "Users/Get user") != nil)
            case .restoreDrafts:
                #expect(state.drafts["Users/Draft"] != nil, "the drafts are taken back")
                #expect(state.selectedEndpoint?.id == "Users/Draft")
                guard case .storeDrafts(let kept, _)? = effects.first, effects.count == 1 else {
                    Issue.record("\(key) in \(asked) did \(effects)")
                    continue
                }
                #expect(kept.map(\.id) == ["Users/Draft"], "the drafts file keeps them")
            }
        }
    }

    @Test(arguments: AskedConfirmation.allCases.filter { $0 != .restoreDrafts })
    func qCancelsWhereItAlwaysHas(asked: AskedConfirmation) throws {
        let (byQ, qEffects) = try answered(asked, .char("q"))
        let (byN, nEffects) = try answered(asked, .char("n"))
        #expect(Outcome(byQ, qEffects) == Outcome(byN, nEffects))
    }

    // MARK: - Enter

    @Test(arguments: AskedConfirmation.allCases)
    func enterInAConfirmationDoesTheSameInEveryDialog(asked: AskedConfirmation) throws {
        let (byEnter, enterEffects) = try answered(asked, KeyPress(.enter))
        let (byEsc, escEffects) = try answered(asked, KeyPress(.escape))
        #expect(Outcome(byEnter, enterEffects) == Outcome(byEsc, escEffects), "Enter is the safe answer, as Esc")
        #expect(try asked.opened().confirmation?.answer(to: KeyPress(.enter)) == Confirmation.enterAnswer)
    }

    @Test func enterNeverSendsToAProtectedEnvironmentEvenPressedTwice() throws {
        var state = try tuiState(environment: "production")
        let effects = tuiPress(&state, KeyPress(.enter), KeyPress(.enter))
        #expect(effects.isEmpty)
        #expect(state.exchanges.isEmpty)
        #expect(state.message == "Not sent.")
    }

    @Test(arguments: AskedConfirmation.allCases)
    func theDialogSaysWhatEnterDoes(asked: AskedConfirmation) throws {
        let state = try asked.opened()
        let confirmation = try #require(state.confirmation)
        let cancelHint = try #require(confirmation.hints.first { $0.label == confirmation.cancelLabel })
        #expect(cancelHint.key == "\(asked.cancellingKey)/Esc/Enter")
        #expect(screenText(state).contains("\(cancelHint.key) \(confirmation.cancelLabel)"))
        let confirmHint = try #require(confirmation.hints.first { $0.label == confirmation.confirmLabel })
        #expect(confirmHint.key == "\(asked.confirmingKey)")
    }

    // MARK: - Other keys

    @Test(arguments: AskedConfirmation.allCases)
    func otherKeysLeaveTheQuestionOpenAndDoNothing(asked: AskedConfirmation) throws {
        var state = try asked.opened()
        let asking = try #require(state.confirmation)
        let others: [KeyPress] = [
            .char("x"), .char("?"), .char(" "), .char("1"), KeyPress(.down), KeyPress(.tab), .ctrl("p"),
        ]
        for key in others {
            #expect(tuiPress(&state, key).isEmpty, "\(key) did something in \(asked)")
            #expect(state.confirmation == asking, "\(key) changed \(asked)")
        }
    }

    // MARK: - The model

    @Test func theModelAnswersFromItsKeysAloneAndEscAndEnterCancel() {
        let confirmation = Confirmation(
            title: "Title", question: [["Do it?"]], destructive: false, confirmKeys: ["a", "A"], confirmLabel: "do",
            cancelKeys: ["b"], cancelLabel: "don't", onConfirm: .say("done"), onCancel: .say("not done"))
        #expect(confirmation.answer(to: .char("a")) == .confirm)
        #expect(confirmation.answer(to: .char("A")) == .confirm)
        #expect(confirmation.answer(to: .char("b")) == .cancel)
        #expect(confirmation.answer(to: KeyPress(.escape)) == .cancel)
        #expect(confirmation.answer(to: KeyPress(.enter)) == .cancel)
        #expect(confirmation.answer(to: .char("y")) == nil, "y is only a key of the confirmations that name it")
        #expect(confirmation.answer(to: .char("q")) == nil)
        #expect(confirmation.deed(for: .confirm) == .say("done"))
        #expect(confirmation.deed(for: .cancel) == .say("not done"))
        #expect(confirmation.hints == [KeyHint(key: "a", label: "do"), KeyHint(key: "b/Esc/Enter", label: "don't")])
    }

    @Test func theHintOfYComesFirst() throws {
        let drafts = try AskedConfirmation.restoreDrafts.opened()
        #expect(
            drafts.confirmation?.hints == [
                KeyHint(key: "y/Esc/Enter", label: "restore them"), KeyHint(key: "n", label: "discard them"),
            ])
        let send = try AskedConfirmation.send.opened()
        #expect(
            send.confirmation?.hints == [
                KeyHint(key: "y", label: "send"), KeyHint(key: "n/Esc/Enter", label: "keep it unsent"),
            ])
    }

    @Test func closingTheConfirmationLeavesOtherOverlaysAlone() throws {
        var state = try tuiState()
        state.overlay = .help(offset: 0)
        state.confirmation = nil
        guard case .help? = state.overlay else {
            Issue.record("setting no confirmation closed the help")
            return
        }
    }
}

/// What docs/tui.md says of the screen, checked against the screen.
@Suite struct TUIDocsTests {
    private static let tuiDoc = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // AppTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("docs/tui.md")

    @Test func theFilterCountTheDocsQuoteIsTheOneTheDemoShows() throws {
        let environments = DemoEnvironment.names.enumerated().map { DemoEnvironment(name: $1, port: 41_000 + $0) }
        let collection = try CollectionLoader.parse(DemoCollection.yaml(for: environments), file: "demo.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/demo.yaml", environment: nil)
        state.size = Size(width: 100, height: 30)
        tuiReduce(&state, .input(.tick, at: tuiNow))
        tuiPress(&state, .char("/"))
        tuiType(&state, "Get user")
        tuiPress(&state, KeyPress(.enter))
        let screen = screenText(state)
        let count = try #require(screen.firstMatch(of: /(\d+) of (\d+)/), "no count in:\n\(screen)")
        let doc = try String(contentsOf: Self.tuiDoc, encoding: .utf8)
        #expect(doc.contains("(the title counts `\(count.output.1) of \(count.output.2)`)"))
    }

    @Test func theDocsSayWhatEnterDoesInAConfirmation() throws {
        let doc = try String(contentsOf: Self.tuiDoc, encoding: .utf8)
        let words = doc.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("`Esc` and `Enter` give the safe answer"))
        for asked in [AskedConfirmation.send, .restoreDrafts] {
            let hints = try #require(asked.opened().confirmation?.hints)
            let shown = hints.map { "\($0.key) \($0.label)" }.joined(separator: " ")
            #expect(words.contains("`\(shown)`"), "the docs quote the dialog of \(asked) as it is")
        }
    }
}
