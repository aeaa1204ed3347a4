import App
import ArgumentParser
import Curses
import Foundation
import GraphQLSupport
import History
import NetworkingCore
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
        // What does not depend on the collection starts on another thread while the collection
        // loads and the terminal is set up: the history (SQLite opens, migrates and reads the
        // newest rows) and the HTTP client (its event loops). The first frame does not wait for
        // them. A small collection loads here (on a third thread it gained nothing measurable,
        // `scripts/bench-tui.py --launch-only`); a large one on another thread, below.
        let backstage = Task.detached(priority: .userInitiated) { Backstage(collectionPath: collectionURL.path) }
        // The configuration and the theme (1–1.5 ms, mostly parsing YAML) load on another
        // thread too, while the collection loads here.
        let processEnvironment = ProcessInfo.processInfo.environment
        let looks = Task.detached(priority: .userInitiated) {
            let config = UserConfig.load(environment: processEnvironment)
            return (config, ThemeLoader.load(name: themeName ?? config.theme, environment: processEnvironment))
        }
        // A large collection is read on another thread behind a first frame that says so (its
        // YAML alone takes a tenth of a second per megabyte); a small one is read here, so that
        // the first frame already lists it.
        let reading = readsBehindFirstFrame(collectionURL)
        let loading = reading.map { _ in
            Task.detached(priority: .userInitiated) {
                Result { try CollectionLoader.loadReaching(from: collectionURL) }
            }
        }
        var earlyScreen: CursesScreen?
        if let reading {
            let (_, theme) = await looks.value
            let screen = try await makeScreen(theme: theme, environment: processEnvironment, backstage: backstage)
            var waiting = AppState(collection: nil, collectionPath: collectionURL.path)
            waiting.collectionIsReading = reading
            waiting.historyIsReading = true
            screen.draw(ExplorerProgram.render(waiting, size: screen.size))
            earlyScreen = screen
        }
        let loaded = await loading?.value ?? Result { try CollectionLoader.loadReaching(from: collectionURL) }
        // What stops the start is said on stderr, after the screen (if any) has ended.
        func stop(_ sentence: String) async throws -> Never {
            earlyScreen?.end()
            printError(sentence)
            if earlyScreen != nil { try? await backstage.value.transport.shutdown() }
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
            of: collection, reaching: reach, at: collectionURL, trust: CollectionTrust(environment: processEnvironment))
        {
        case .admitted(let problem): if let problem { notices.append(problem) }
        case .refused(let refusal): try await stop(refusal)
        }
        if let environment, collection.environment(named: environment) == nil {
            try await stop(
                "There is no environment \"\(environment)\" in \(collectionURL.path); it has \(collection.environments.map(\.name).joined(separator: ", "))."
            )
        }
        let (config, theme) = await looks.value
        notices.append(contentsOf: config.problems)
        if let problem = theme.problem { notices.append(problem.description) }
        // Drafts a previous session left (a crash, a quit with unsaved edits) are offered back.
        let draftStore = DraftStore(directories: XDGDirectories(environment: processEnvironment))
        let (leftDrafts, draftProblem) = draftStore.load(collectionPath: collectionURL.path)
        if let draftProblem { notices.append(draftProblem) }

        let handOver = TerminalHandOver()
        // Edits saved to the collection on disk show at once, keeping the selection. The
        // watcher starts before the screen so that, when it cannot, the user is told at start
        // that edits on disk will not show (reloads arrive on the main queue, after the
        // runtime below exists).
        // Every version read after the start is admitted as the first was: a `git pull` that
        // adds a command, a file outside the folder or an environment variable asks again.
        let admission: @Sendable (LoadedCollection, URL) -> String? = { loaded, url in
            let trust = CollectionTrust(environment: processEnvironment)
            guard
                case .refused(let refusal) = CollectionLocation.admission(
                    of: loaded.collection, reaching: loaded.reach, at: url, trust: trust)
            else {
                return nil
            }
            return refusal
        }
        let watcher = CollectionWatcher(url: collectionURL) { result in
            MainActor.assumeIsolated {
                switch result {
                case .success(let loaded):
                    if let refusal = admission(loaded, collectionURL) {
                        handOver.runtime?.send(.collectionRefused(refusal))
                    } else {
                        handOver.runtime?.send(.collectionReloaded(loaded.collection))
                    }
                case .failure(let error): handOver.runtime?.send(.collectionFailed(sentence(describing: error)))
                }
            }
        }
        if let notice = Self.startWatching(watcher, collectionURL: collectionURL) { notices.append(notice) }
        defer { watcher.stop() }
        var state = AppState(collection: collection, collectionPath: collectionURL.path, environment: environment)
        state.keymap = config.keymap
        state.exchangeLimit = config.exchangesInMemory
        state.timeZone = .current
        state.saveFolder =
            XDGDirectories(environment: processEnvironment).downloadDirectory(environment: processEnvironment)?.path
            ?? FileManager.default.currentDirectoryPath
        state.historyIsReading = true
        Self.show(notices, in: &state)
        state.offerDrafts(leftDrafts)
        let screen: CursesScreen
        if let earlyScreen {
            screen = earlyScreen
        } else {
            screen = try await makeScreen(theme: theme, environment: processEnvironment, backstage: backstage)
        }
        // The first frame with the collection, drawn while the history may still be read: its
        // rows (and what went wrong reading it) come with the next frame, the runtime's first.
        screen.draw(ExplorerProgram.render(state, size: screen.size))

        let started = await backstage.value
        let history = started.history
        state.history = started.historyRows
        state.historyIsReading = false
        Self.show(notices + started.historyNotices.drain(), in: &state)
        let program = ExplorerProgram(
            transport: started.transport,
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

    /// Collection files at least this large are read behind a first frame that says so.
    static let readBehindFrameBytes = 256 * 1024

    /// What the first frame says is being read ("api.yaml, 895 KB") when the collection is
    /// large enough to be read behind it, else `nil`.
    static func readsBehindFirstFrame(_ url: URL) -> String? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
            size >= readBehindFrameBytes
        else { return nil }
        return "\(url.lastPathComponent), \(size / 1024) KB"
    }

    /// The terminal's screen, or a sentence on stderr when there is no terminal to use.
    ///
    /// - Throws: `ExitCode(1)` after the sentence.
    private static func makeScreen(
        theme: ThemeLoader.Result, environment: [String: String], backstage: Task<Backstage, Never>
    ) async throws -> CursesScreen {
        do {
            return try CursesScreen(
                theme: theme.theme, monochromeTheme: ThemeLoader.builtin("monochrome"), environment: environment)
        } catch {
            try? await backstage.value.transport.shutdown()
            printError(
                "The explorer could not use this terminal: \(error). Run it in a terminal (TERM=\(environment["TERM"] ?? "unset"))."
            )
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
                "Changes to \(collectionURL.path) on disk will not show until you restart the explorer: \(sentence(describing: error))"
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
    /// The HTTP client every request of the session goes through.
    let transport = AsyncHTTPClientTransport()

    /// - Parameter collectionPath: the collection whose exchanges History lists first.
    init(collectionPath: String) {
        let notices = historyNotices
        history = HistoryRecorder(report: { notices.append($0) })
        historyRows =
            (try? history.store?.summaries(matching: ExplorerProgram.historyShown(collectionPath: collectionPath)))
            ?? []
    }
}

/// Collects messages reported from any thread (history notices) until the UI shows them.
final class NoticeBox: @unchecked Sendable {
    private let lock = NSLock()
    private var notices: [String] = []

    func append(_ notice: String) { lock.withLock { notices.append(notice) } }

    func drain() -> [String] {
        lock.withLock {
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
