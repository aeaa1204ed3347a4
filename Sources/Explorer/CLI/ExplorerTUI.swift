import App
import ArgumentParser
import Curses
import Foundation
import GraphQLSupport
import History
import NetworkingCore
import Synchronization
import Workspace

/// Opens the explorer's full-screen UI on a collection file and runs it until the user quits.
enum ExplorerTUI {
    /// Loads the collection, the theme and the history, then runs the UI.
    ///
    /// - Parameters:
    ///   - collectionURL: the collection file.
    ///   - environment: the environment to start in (the collection's first when nil).
    ///   - themeName: the `--theme` value.
    ///   - validatesGraphQL: whether a GraphQL query is validated against its schema before
    ///     it is sent (`--no-validate` turns it off).
    /// - Throws: `ExitCode(2)` after one sentence on stderr when the collection cannot be
    ///   read or the environment does not exist; `ExitCode(1)` after one when there is no
    ///   terminal.
    @MainActor
    static func run(collectionURL: URL, environment: String?, themeName: String?, validatesGraphQL: Bool = true)
        async throws
    {
        let start = Start(collectionURL: collectionURL, themeName: themeName)
        let earlyScreen = try await start.firstFrameWhileReading()
        let (collection, notices) = try await start.admittedCollection(
            environment: environment, earlyScreen: earlyScreen)
        let handOver = TerminalHandOver()
        let watcher = start.watcher(handOver: handOver)
        defer { watcher.stop() }
        var shown = notices + start.watch(watcher)
        var state = await start.firstState(collection, environment: environment, notices: &shown)
        let screen: CursesScreen
        if let earlyScreen { screen = earlyScreen } else { screen = try await start.screen() }
        // The first frame with the collection, drawn while the history may still be read: its
        // rows (and what went wrong reading it) come with the next frame, the runtime's first.
        screen.draw(ExplorerProgram.render(state, size: screen.size))
        let program = await start.program(
            completing: &state, notices: shown, validatesGraphQL: validatesGraphQL, handOver: handOver)
        try await start.runUntilQuit(program, state: state, on: screen, handOver: handOver)
    }

    /// What a start has made so far, and its phases in the order `run` takes them.
    @MainActor
    private struct Start {
        let collectionURL: URL
        let processEnvironment = ProcessInfo.processInfo.environment
        /// What does not depend on the collection starts on another thread while the
        /// collection loads and the terminal is set up: the history (SQLite opens, migrates and
        /// reads the newest rows). The first frame does not wait for it. The HTTP client is
        /// not made here: the program makes it when a request first needs it (see
        /// `TransportPool`), so that its event loops do not take a core from the first frame.
        let backstage: Task<Backstage, Never>
        /// The configuration and the theme (1–1.5 ms, mostly parsing YAML), on another thread
        /// too, while the collection loads here.
        let looks: Task<(UserConfig, ThemeLoader.Result), Never>
        /// What the first frame says is being read when the collection is large, else `nil`.
        let reading: String?
        /// A large collection, being read on another thread.
        let loading: Task<Result<LoadedCollection, any Error>, Never>?
        /// Drafts a previous session left (a crash, a quit with unsaved edits).
        let draftStore: DraftStore

        init(collectionURL: URL, themeName: String?) {
            self.collectionURL = collectionURL
            let environment = processEnvironment
            backstage = Task.detached(priority: .userInitiated) { Backstage(collectionPath: collectionURL.path) }
            looks = Task.detached(priority: .userInitiated) {
                let config = UserConfig.load(environment: environment)
                return (config, ThemeLoader.load(name: themeName ?? config.theme, environment: environment))
            }
            reading = readsBehindFirstFrame(collectionURL)
            loading = reading.map { _ in
                Task.detached(priority: .userInitiated) {
                    Result { try CollectionLoader.loadReaching(from: collectionURL, keepsLater: true, patches: true) }
                }
            }
            draftStore = DraftStore(directories: XDGDirectories(environment: environment))
        }

        /// A large collection is read on another thread behind a first frame that says so (its
        /// YAML alone takes a tenth of a second per megabyte); a small one is read here, so that
        /// the first frame already lists it (on a third thread it gained nothing measurable,
        /// `scripts/bench-tui.py --launch-only`).
        ///
        /// - Returns: the screen already drawn on, when the collection is large.
        func firstFrameWhileReading() async throws -> CursesScreen? {
            guard let reading else { return nil }
            let screen = try await self.screen()
            var waiting = AppState(collection: nil, collectionPath: collectionURL.path)
            waiting.collectionIsReading = reading
            waiting.historyIsReading = true
            screen.draw(ExplorerProgram.render(waiting, size: screen.size))
            return screen
        }

        /// The collection, read and admitted by the trust rule, with the notices the start
        /// shows (its warnings, the configuration's and the theme's problems, drafts that did
        /// not read).
        ///
        /// - Throws: `ExitCode(2)` after one sentence on stderr when it cannot be read, is
        ///   refused, or has no environment `environment`.
        func admittedCollection(environment: String?, earlyScreen: CursesScreen?) async throws
            -> (APICollection, [String])
        {
            let url = collectionURL
            let loaded = await loading?.value ?? Result { try CollectionLoader.loadReaching(from: url, patches: true) }
            // What stops the start is said on stderr, after the screen (if any) has ended.
            func stop(_ sentence: String) async throws -> Never {
                earlyScreen?.end()
                printError(sentence)
                throw ExitCode(2)
            }
            let collection: APICollection
            let reach: CollectionReach
            switch loaded {
            case .success(let read): (collection, reach) = read
            case .failure(let error): try await stop(sentence(describing: error))
            }
            // The collection's warnings are the state's problems (shown until the file is fixed).
            var notices: [String] = []
            // A collection found in a folder that reaches beyond it sends nothing until trusted:
            // said with what it would read and where it would send.
            switch CollectionLocation.admission(
                of: collection, reaching: reach, at: url, trust: CollectionTrust(environment: processEnvironment))
            {
            case .admitted(let problem): if let problem { notices.append(problem) }
            case .refused(let refusal): try await stop(refusal)
            }
            if let environment, collection.environment(named: environment) == nil {
                let names = collection.environments.map(\.name).joined(separator: ", ")
                try await stop("There is no environment \"\(environment)\" in \(url.path); it has \(names).")
            }
            let (config, theme) = await looks.value
            notices.append(contentsOf: config.problems)
            if let problem = theme.problem { notices.append(problem.description) }
            return (collection, notices)
        }

        /// Why a version of the collection read after the start may not be used, or `nil`:
        /// every version is admitted as the first was, so a `git pull` that adds a command, a
        /// file outside the folder or an environment variable asks again.
        var admission: @Sendable (LoadedCollection, URL) -> String? {
            let processEnvironment = processEnvironment
            return { loaded, url in
                let trust = CollectionTrust(environment: processEnvironment)
                guard
                    case .refused(let refusal) = CollectionLocation.admission(
                        of: loaded.collection, reaching: loaded.reach, at: url, trust: trust)
                else { return nil }
                return refusal
            }
        }

        /// What shows edits saved to the collection on disk at once, keeping the selection
        /// (reloads arrive on the main queue, after the runtime exists).
        func watcher(handOver: TerminalHandOver) -> CollectionWatcher {
            let admission = self.admission
            let url = collectionURL
            return CollectionWatcher(url: url) { result, read in
                MainActor.assumeIsolated {
                    switch result {
                    case .success(let loaded):
                        if let refusal = admission(loaded, url) {
                            handOver.runtime?.send(.collectionRefused(refusal, read: read))
                        } else {
                            handOver.runtime?.send(.collectionReloaded(loaded.collection, read: read))
                        }
                    case .failure(let error):
                        handOver.runtime?.send(.collectionFailed(sentence(describing: error), read: read))
                    }
                }
            }
        }

        /// Starts the watcher before the screen, so that, when it cannot, the user is told at
        /// start that edits on disk will not show.
        ///
        /// - Returns: that notice, if any.
        func watch(_ watcher: CollectionWatcher) -> [String] {
            startWatching(watcher, collectionURL: collectionURL).map { [$0] } ?? []
        }

        /// The state of the first frame: the collection, the user's settings, the notices, the
        /// drafts a previous session left offered back; the history still being read.
        func firstState(_ collection: APICollection, environment: String?, notices: inout [String]) async -> AppState {
            let (config, _) = await looks.value
            let (leftDrafts, draftProblem) = draftStore.load(collectionPath: collectionURL.path)
            if let draftProblem { notices.append(draftProblem) }
            var state = AppState(collection: collection, collectionPath: collectionURL.path, environment: environment)
            state.keymap = config.keymap
            state.exchangeLimit = config.exchangesInMemory
            state.timeZone = .current
            state.saveFolder =
                XDGDirectories(environment: processEnvironment).downloadDirectory(environment: processEnvironment)?
                .path ?? FileManager.default.currentDirectoryPath
            state.historyIsReading = true
            show(notices, in: &state)
            state.offerDrafts(leftDrafts)
            return state
        }

        /// The terminal's screen in the user's theme.
        func screen() async throws -> CursesScreen {
            let (_, theme) = await looks.value
            return try makeScreen(theme: theme, environment: processEnvironment)
        }

        /// The program, once the history is up; the history's rows and notices go into `state`,
        /// after the start's `notices`.
        func program(
            completing state: inout AppState, notices: [String], validatesGraphQL: Bool, handOver: TerminalHandOver
        ) async -> ExplorerProgram {
            let started = await backstage.value
            let (config, _) = await looks.value
            let history = started.history
            state.history = started.historyRows
            state.historyIsReading = false
            show(notices + started.historyNotices.drain(), in: &state)
            let processEnvironment = processEnvironment
            return ExplorerProgram(
                limits: config.limits,
                history: history,
                collectionPath: collectionURL.path,
                clipboardWriter: { sequence in
                    // To the terminal itself, as the screen is, even when stdout is redirected.
                    try? (FileHandle(forWritingAtPath: "/dev/tty") ?? FileHandle.standardOutput).write(
                        contentsOf: Data(sequence.utf8))
                },
                externalEditor: { file in
                    // Effects run off the main queue; the terminal is handed over on the main queue.
                    DispatchQueue.main.sync {
                        MainActor.assumeIsolated {
                            handOver.run { ExternalEditor.run(on: file, environment: processEnvironment) }
                        }
                    }
                },
                draftStore: draftStore,
                cookieStore: CookieStore(environment: processEnvironment),
                schemaCache: GraphQLSchemaCache(environment: processEnvironment),
                validatesGraphQL: validatesGraphQL,
                mockHost: SessionMockHost(history: history.store),
                admission: admission)
        }

        /// Runs the UI until the user quits, then closes what the program opened.
        func runUntilQuit(
            _ program: ExplorerProgram, state: AppState, on screen: CursesScreen, handOver: TerminalHandOver
        ) async throws {
            let runtime = Runtime(program: program, state: state)
            handOver.runtime = runtime
            // The first request's code is run once, off this thread, when the screen is complete
            // and the user reads it (see `NetworkWarmUp`).
            var warmUp: Task<Void, Never>?
            runtime.afterFirstFrame = { warmUp = Task.detached(priority: .utility) { await NetworkWarmUp.run() } }
            await runtime.run(on: screen)
            warmUp?.cancel()
            await warmUp?.value
            await program.shutdown()
        }
    }

    /// Collection files at least this large are read behind a first frame that says so.
    static let readBehindFrameBytes = 256 * 1024

    /// What the first frame says is being read ("api.yaml, 895 KB") when the collection is
    /// large enough to be read behind it, else `nil`.
    ///
    /// The size comes from `stat(2)`: `FileManager`'s attributes build a dictionary of values of
    /// a dozen types, whose first casts searched the binary's conformance records for 0.2–0.4 ms
    /// of every start (`perf record`, release).
    static func readsBehindFirstFrame(_ url: URL) -> String? {
        var status = stat()
        guard stat(url.path, &status) == 0, Int(status.st_size) >= readBehindFrameBytes else { return nil }
        return "\(url.lastPathComponent), \(Int(status.st_size) / 1024) KB"
    }

    /// The terminal's screen, or a sentence on stderr when there is no terminal to use.
    ///
    /// - Throws: `ExitCode(1)` after the sentence.
    private static func makeScreen(theme: ThemeLoader.Result, environment: [String: String]) throws -> CursesScreen {
        do {
            return try CursesScreen(
                theme: theme.theme, monochromeTheme: ThemeLoader.builtin("monochrome"), environment: environment)
        } catch {
            printError(
                "The explorer could not use this terminal: \(error). "
                    + "Run it in a terminal (TERM=\(environment["TERM"] ?? "unset")).")
            throw ExitCode(1)
        }
    }

    /// Puts the start-up notices in the message line, every one (each is something the user
    /// must know), as an error; leaves the message alone when there is none.
    private static func show(_ notices: [String], in state: inout AppState) {
        guard !notices.isEmpty else { return }
        state.message = notices.joined(separator: " ")
        state.messageIsError = true
    }

    /// Starts watching the collection file.
    ///
    /// - Returns: the notice to show when the watcher could not start (edits made on disk
    ///   will then not show until the explorer is restarted), or `nil`.
    static func startWatching(_ watcher: CollectionWatcher, collectionURL: URL) -> String? {
        do {
            try watcher.start()
            return nil
        } catch {
            return
                "Changes to \(collectionURL.path) on disk will not show until you restart the explorer: "
                + sentence(describing: error)
        }
    }
}

/// What the UI needs that does not depend on the collection, made off the main thread.
private struct Backstage: Sendable {
    /// The history, whose notices (it could not be opened, it was recovered) go to
    /// `historyNotices`.
    let history: HistoryRecorder
    let historyNotices = NoticeBox()
    /// The rows the History pane shows first (none when the history is off or unreadable).
    let historyRows: [HistorySummary]

    /// - Parameter collectionPath: the collection whose exchanges History lists first.
    init(collectionPath: String) {
        let notices = historyNotices
        history = HistoryRecorder(report: { notices.append($0) })
        historyRows =
            (try? history.store?.summaries(matching: SessionHistory.shown(collectionPath: collectionPath)))
            ?? []
    }
}

/// Collects messages reported from any thread (history notices) until the UI shows them.
final class NoticeBox: Sendable {
    private let notices = Mutex<[String]>([])

    func append(_ notice: String) { notices.withLock { $0.append(notice) } }

    func drain() -> [String] {
        notices.withLock { notices in
            defer { notices.removeAll() }
            return notices
        }
    }
}

/// Lets an effect hand the terminal to another program through the runtime, which exists only
/// after the program that needs it.
@MainActor
final class TerminalHandOver: Sendable {
    var runtime: Runtime<ExplorerProgram>?

    nonisolated init() {}

    func run<T>(_ body: () -> T) -> T {
        runtime?.handOverTerminal(body) ?? body()
    }
}
