import Checks
import Dispatch
import Formats
import Foundation
import GraphQLSupport
import History
import Measure
import NetworkingCore
import Query
import Terminal
import Workspace

/// The explorer as a `TerminalProgram`: the reducer and view, plus the effects that reach the
/// network, the history store and the clipboard.
///
/// Every request goes through a `NetworkDispatcher` whose server provider is the environment it
/// was resolved in and whose callback queue is the runtime's (main) queue; bodies are decoded
/// and indexed off the main queue before they reach the state.
///
/// The runtime calls `perform` on one serial queue, in the order the reducer asked, so a
/// cancel always finds its send. What takes long (reading and searching bodies, history
/// reads, files, the editor) moves on to `work`; history writes go one after another on
/// `recording`, never on the main queue.
package final class ExplorerProgram: TerminalProgram, @unchecked Sendable {
    package typealias State = AppState
    package typealias Action = AppAction
    package typealias Effect = AppEffect

    private let transport: AsyncHTTPClientTransport
    /// What makes an environment's transport differ from the shared one: its `tls:` and `proxy:`.
    private struct TransportKey: Hashable {
        let tls: TLSSettings?
        let proxy: AsyncHTTPClientTransport.Configuration.Proxy?
        /// Its `resolve:` and `proxy_tunnel:`.
        var resolve: [String: String] = [:]
        var proxyTunnel = false
    }
    /// A transport per environment `tls:` and `proxy:` in use (the same settings otherwise), made once.
    private var transports: [TransportKey: AsyncHTTPClientTransport] = [:]
    private let limits: ResponseLimits
    let history: HistoryRecorder?
    let collectionPath: String?
    private let work = DispatchQueue(label: "explorer.work", qos: .userInitiated, attributes: .concurrent)
    let recording = DispatchQueue(label: "explorer.history-writes", qos: .utility)
    let webSocketSessions = WebSocketSessions()
    private let lock = NSLock()
    private var inFlight: [Int: ResponseFuture<Response<Data?>>] = [:]
    /// What a cancel stops besides a request in flight: the prerequisites sent before an
    /// exchange, and folder runs.
    private enum TaskKey: Hashable {
        case exchange(Int)
        case run(Int)
    }
    private var tasks: [TaskKey: Task<Void, Never>] = [:]
    /// Where OSC 52 clipboard sequences are written (the terminal); nil in tests.
    private let clipboardWriter: (@Sendable (String) -> Void)?
    /// Runs the user's editor on a file, the UI suspended meanwhile; nil when there is no
    /// terminal to hand over.
    private let externalEditor: (@Sendable (_ file: URL) -> ExternalEditor.Outcome)?
    /// Where unsaved drafts are kept; nil keeps none (tests).
    private let draftStore: DraftStore?
    /// Draft writes, one after another in the order they were asked for (the last one wins).
    private let draftWrites = DispatchQueue(label: "explorer.draft-writes", qos: .utility)
    /// Where each environment's cookies are kept between runs; nil keeps none (tests).
    private let cookieStore: CookieStore?
    /// The cookie jars of the environments used so far, by collection key and environment
    /// name (read from `cookieStore` once, saved after each response).
    private var cookieJars: [CookieJarKey: CookieJar] = [:]
    /// Where GraphQL schemas are kept between runs; nil keeps none (tests).
    private let schemaCache: GraphQLSchemaCache?
    /// Whether a GraphQL query is validated against its schema before it is sent.
    private let validatesGraphQL: Bool
    /// The schema sources, one per transport in use (`tls:` settings make their own).
    private var schemaSources: [ObjectIdentifier: GraphQLSchemaSource] = [:]
    /// The collection's `openapi:` document as last read: its path and modification date, and
    /// the contract (or why it cannot be read, told once).
    private var contract: (key: String, validation: ResponseValidation?)?
    /// Serves the session's mock (`O`); nil when this program cannot (tests).
    private let mockHost: (any MockHosting)?
    /// Why a collection read from its file may not be used (it reaches beyond its folder
    /// without the user's trust), or `nil` when it may: asked of every version read after the
    /// start, the explorer's own writes included (a write reads the file back, `git pull`'s
    /// changes with it).
    private let admission: @Sendable (LoadedCollection, URL) -> String?
    /// The last start or stop of the mock: each waits for the one before, so that a stop
    /// never overtakes the start it stops.
    private var mockWork: Task<Void, Never>?
    /// What the mock answered and the reducer has not been told yet: sent together, at most
    /// every `mockLogInterval`, so that a mock under load does not flood the main queue.
    private var mockLines: [MockLogLine] = []

    package init(
        transport: AsyncHTTPClientTransport = AsyncHTTPClientTransport(),
        limits: ResponseLimits = ResponseLimits(),
        history: HistoryRecorder?,
        collectionPath: String?,
        clipboardWriter: (@Sendable (String) -> Void)?,
        externalEditor: (@Sendable (URL) -> ExternalEditor.Outcome)? = nil,
        draftStore: DraftStore? = nil,
        cookieStore: CookieStore? = nil,
        schemaCache: GraphQLSchemaCache? = nil,
        validatesGraphQL: Bool = true,
        mockHost: (any MockHosting)? = nil,
        admission: @escaping @Sendable (LoadedCollection, URL) -> String? = { _, _ in nil }
    ) {
        self.mockHost = mockHost
        self.admission = admission
        self.cookieStore = cookieStore
        self.schemaCache = schemaCache
        self.validatesGraphQL = validatesGraphQL
        self.externalEditor = externalEditor
        self.draftStore = draftStore
        self.transport = transport
        self.limits = limits
        self.history = history
        self.collectionPath = collectionPath
        self.clipboardWriter = clipboardWriter
    }

    /// The stored exchanges the History list shows: the newest 500 of the collection (of
    /// every collection when nil), without bodies.
    package static func historyShown(collectionPath: String?) -> HistoryQuery {
        HistoryQuery(collectionPath: collectionPath, limit: 500)
    }

    package func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        AppReducer.reduce(&state, action)
    }

    package func view(_ state: AppState, size: Size) -> CellGrid {
        Self.render(state, size: size)
    }

    /// The screen a state shows, without a program: the explorer draws its first frame with it
    /// while the history is still being read.
    package static func render(_ state: AppState, size: Size) -> CellGrid {
        AppView.render(state, size: size)
    }

    /// Input with the time it happened: the runtime's boundary is where the clock is read.
    package func action(for event: InputEvent, in state: AppState) -> AppAction? {
        .input(event, at: Date())
    }

    package func shouldQuit(_ state: AppState) -> Bool { state.quitting }

    package func tickInterval(_ state: AppState) -> DispatchTimeInterval? {
        state.inFlightCount > 0 ? .milliseconds(100) : nil
    }

    package func perform(_ effect: AppEffect, send: @escaping @Sendable (AppAction) -> Void) {
        switch effect {
        case .send(let id, let plan):
            let captured = plan.captured()
            let prerequisites = plan.collection.prerequisites(of: plan.endpoint, captured: captured).map(\.endpoint)
            let prompts = plan.collection.unansweredPrompts(
                of: prerequisites + [plan.endpoint], in: plan.environment, answers: plan.answers, captured: captured)
            guard prompts.isEmpty else {
                send(.promptsNeeded(.exchange(id), prompts))
                return
            }
            guard prerequisites.isEmpty else {
                sendAfterPrerequisites(id, plan, send: send)
                return
            }
            resolveAndSend(id, plan, send: send)
        case .webSocket(let id, let command):
            performWebSocket(id, command, send: send)
        case .cancel(let id):
            let future = lock.withLock { inFlight.removeValue(forKey: id) }
            future?.cancel()
            lock.withLock { tasks.removeValue(forKey: .exchange(id)) }?.cancel()
        case .cancelRun(let id):
            lock.withLock { tasks.removeValue(forKey: .run(id)) }?.cancel()
        case .listVariables(let environment, let collectionKey):
            let captured = CaptureStore().variables(collection: collectionKey, environment: environment.name)
            send(.variablesListed(environment: environment.name, environment.shownVariables(captured: captured)))
        case .clearCapture(let name, let environment, let collectionKey):
            do {
                try CaptureStore().clear(name, collection: collectionKey, environment: environment.name)
            } catch {
                send(.message(sentence(describing: error), isError: true))
            }
            let captured = CaptureStore().variables(collection: collectionKey, environment: environment.name)
            send(.variablesListed(environment: environment.name, environment.shownVariables(captured: captured)))
        case .runFolder(let id, let plan):
            runFolder(id, plan, send: send)
        case .compareEnvironments(let first, let second):
            compareEnvironments(first, second, send: send)
        case .preview(let plan):
            var preview = plan.preview()
            preview.proxy = proxyNote(for: plan.environment, url: preview.urlText)
            send(.previewResolved(preview))
        case .resolveVariables(let environment, let key):
            send(.variablesResolved(key, environment.shownVariables()))
        case .copyAsCurl(let plan):
            do {
                let curl = try plan.curl()
                clipboardWriter?(OSC52.sequence(copying: curl.command))
                send(.showText(title: curl.title, lines: curl.shown))
            } catch {
                send(.message(sentence(describing: error), isError: true))
            }
        case .copyToClipboard(let text):
            clipboardWriter?(OSC52.sequence(copying: text))
        case .listCookies(let collection, let environment):
            let key = CookieJarKey(collection: collection, environment: environment)
            recording.async { self.listCookies(key, send: send) }
        case .deleteCookies(let collection, let environment, let only):
            let key = CookieJarKey(collection: collection, environment: environment)
            recording.async {
                let jar = self.cookieJar(key, send: send)
                jar?.remove { cookie in
                    only.map { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path } ?? true
                }
                if let jar, let cookieStore = self.cookieStore {
                    do {
                        try cookieStore.save(jar, collection: collection, environment: environment)
                    } catch {
                        send(.message("The cookies of \"\(environment)\" were not kept: \(error)", isError: true))
                    }
                }
                self.listCookies(key, send: send)
            }
        case .loadSchema(let plan, let refresh):
            loadSchema(plan, refresh: refresh, send: send)
        case .startMock(let request):
            startMock(request, send: send)
        case .stopMock:
            afterMockWork { host in await host?.stop() }
        case .listTokens(let collection, let environment):
            recording.async { self.listTokens(collection: collection, environment: environment, send: send) }
        case .dropTokens(let collection, let environment, let only):
            recording.async {
                do {
                    try OAuth2TokenStore(collection: collection, environment: environment).drop(only)
                } catch {
                    send(.message("The tokens of \"\(environment)\" were not dropped: \(error)", isError: true))
                }
                self.listTokens(collection: collection, environment: environment, send: send)
            }
        case .storeDrafts(let drafts, let collectionPath):
            guard let draftStore else { return }
            draftWrites.async {
                do {
                    try draftStore.save(drafts, collectionPath: collectionPath)
                } catch {
                    send(
                        .message(
                            "Drafts could not be kept in \(draftStore.folder.path): \(sentence(describing: error))",
                            isError: true))
                }
            }
        default:
            work.async { self.performSlowly(effect, send: send) }
        }
    }

    /// How much of a sent request's body an exchange keeps to show in its Request tab.
    static let exchangeRequestBodyBytes = 1 << 20

    /// The effects that read or write files or stores, off the effects queue.
    private func performSlowly(_ effect: AppEffect, send: @escaping @Sendable (AppAction) -> Void) {
        switch effect {
        case .send, .cancel, .preview, .copyAsCurl, .copyToClipboard, .storeDrafts, .resolveVariables,
            .listVariables, .clearCapture, .runFolder, .cancelRun, .listCookies, .deleteCookies,
            .listTokens, .dropTokens, .webSocket, .loadSchema, .compareEnvironments, .startMock, .stopMock:
            perform(effect, send: send)
        case .loadHistory(let collectionPath):
            guard let store = history?.store else { return }
            do {
                send(.historyLoaded(try store.summaries(matching: Self.historyShown(collectionPath: collectionPath))))
            } catch {
                send(.message("History could not be read: \(error)", isError: true))
            }
        case .openHistory(let id):
            guard let store = history?.store else { return }
            do {
                guard let entry = try store.entry(id: id) else { return }
                send(.historyOpened(entry, entry.status.map { ResponseSnapshot.make(entry: entry, status: $0) }))
            } catch {
                send(.message("History entry #\(id) could not be read: \(error)", isError: true))
            }
        case .compareHistory(let first, let second):
            guard let store = history?.store else { return }
            do {
                guard let a = try store.entry(id: first), let b = try store.entry(id: second) else { return }
                send(.comparisonReady(Comparison(a, b)))
            } catch {
                send(.message("History could not be read: \(error)", isError: true))
            }
        case .search(let id, let query, let document):
            send(.searchFinished(exchange: id, query: query, lines: document.linesMatching(query)))
        case .fold(let id, let depth, let document):
            send(.foldFinished(exchange: id, FoldedDocument(document, depth: depth)))
        case .filter(let id, let expression, let document):
            send(
                .filterFinished(
                    exchange: id, expression: expression,
                    Result { try JSONPath.filter(document, expression) }.mapError(JSONPath.failure)))
        case .editInEditor(let endpoint):
            guard let externalEditor else {
                send(.message("There is no terminal to run an editor in.", isError: true))
                return
            }
            send(edit(endpoint, with: externalEditor))
        case .changeCollection(let change, let collectionPath):
            let url = URL(fileURLWithPath: collectionPath)
            do {
                let written = try change.apply(to: url)
                if let refusal = admission(written, url) {
                    send(.collectionRefused(refusal))
                    return
                }
                send(.collectionReloaded(written.collection))
                // A saved draft is no draft any more (a rename keeps the edits of the renamed one).
                if case .put(let endpoint, let replacing) = change, replacing == nil || replacing == endpoint.id {
                    send(.endpointSaved(id: endpoint.id))
                }
                send(.message(change.doneMessage(file: url.lastPathComponent), isError: false))
            } catch {
                send(
                    .message(
                        "Could not change \(change.endpointID) in \(url.path): \(sentence(describing: error))",
                        isError: true))
            }
        case .saveBody(let bytes, let path):
            do {
                let wanted = BodyFile.absolute(
                    path, home: XDGDirectories().home.path, currentDirectory: FileManager.default.currentDirectoryPath)
                let written = try BodyFile.save(bytes, to: wanted)
                send(
                    .message(
                        written == wanted
                            ? "Saved \(bytes.count) bytes to \(written)"
                            : "\(wanted) exists; saved \(bytes.count) bytes to \(written)", isError: false))
            } catch {
                send(.message(sentence(describing: error), isError: true))
            }
        }
    }

    /// Edits an endpoint in the user's editor until its text reads, or the user gives up.
    ///
    /// The text lives in a private temporary folder. When it does not read, it is reopened
    /// with the error on top and the user's text below it, untouched; when the user then quits
    /// without saving, the file is kept and its path given, so no edit is ever lost.
    private func edit(_ endpoint: Endpoint, with editor: @Sendable (URL) -> ExternalEditor.Outcome) -> AppAction {
        let fileName = "explorer-" + String(endpoint.id.map { $0.isLetter || $0.isNumber ? $0 : "-" }) + ".yaml"
        // Short and unguessable, so the path fits on a line when it has to be shown.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "explorer-edit-" + String(UUID().uuidString.prefix(8)).lowercased())
        let file = folder.appendingPathComponent(fileName)
        var keep = false
        // The text may hold secrets: readable by the user alone, also when it is kept (an editor
        // that saves by writing a new file gives it the default mode, so the mode is set again).
        defer {
            if keep {
                try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            } else {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard
                FileManager.default.createFile(
                    atPath: file.path, contents: Data(try EndpointEditing.document(for: endpoint).utf8),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
        } catch {
            return .message("Could not prepare the file to edit: \(sentence(describing: error))", isError: true)
        }
        var failure: EndpointEditing.EditError?
        var failedText: String?
        for _ in 1...Self.editorRounds {
            let before = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            let outcome = editor(file)
            let after = (try? String(contentsOf: file, encoding: .utf8)) ?? before
            if case .failed(let reason) = outcome {
                keep = after != before || failure != nil
                return .message(
                    "The editor failed: \(reason). The endpoint is unchanged"
                        + (keep ? "; your text is kept in \(file.path)." : "."), isError: true)
            }
            guard after != before else {
                guard let failure else { return .message("Not changed.", isError: false) }
                keep = true
                return Self.setAside(file, error: failure)
            }
            let text = EndpointEditing.withoutNote(after)
            switch EndpointEditing.read(text, original: endpoint, file: fileName) {
            case .success(let edited):
                return .endpointEdited(edited)
            case .failure(let error):
                failure = error
                // The same text saved again: the user is not fixing it here.
                guard text != failedText,
                    (try? Data(EndpointEditing.noted(text, error: error).utf8).write(to: file)) != nil
                else {
                    keep = true
                    return Self.setAside(file, error: error)
                }
                failedText = text
            }
        }
        keep = true
        return Self.setAside(file, error: failure ?? .noEndpoint(file: fileName))
    }

    /// What the user sees when an edit that does not read is set aside: a panel, not the
    /// status line, so the path of the kept text is never cut off. The error's line numbers
    /// are those of the kept file (its note included).
    private static func setAside(_ file: URL, error: EndpointEditing.EditError) -> AppAction {
        .showText(
            title: "The edit was not applied",
            lines: [
                "Your text is kept in", "  " + file.path, "", error.reason, "",
                "The endpoint is unchanged. E edits it again from the collection.",
            ])
    }

    /// How many times an edit that does not read is reopened before it is set aside.
    static let editorRounds = 10

    private func resolveAndSend(_ id: Int, _ plan: RequestPlan, send: @escaping @Sendable (AppAction) -> Void) {
        let resolved: ResolvedRequest
        do {
            resolved = try plan.resolve()
        } catch {
            if let prompt = UnansweredPrompt(stoppedAt: error) {
                send(.promptsNeeded(.exchange(id), [prompt]))
            } else {
                send(.resolveFailed(exchange: id, sentence(describing: error)))
            }
            return
        }
        var preview = RequestPreview(resolved, key: nil, bodyLimit: Self.exchangeRequestBodyBytes)
        preview.proxy = proxyNote(for: resolved.environment, url: resolved.url)
        send(.resolved(exchange: id, preview))
        if resolved.endpoint.isWebSocket(resolvedURL: resolved.url) { return openWebSocket(id, resolved, send: send) }
        guard case .ready(let validation) = knownValidation(for: plan.collection, send: send) else {
            // The document is named by URL and not fetched yet: the request waits for it (once
            // per session), and a cancel meanwhile stops it before it goes out.
            let task = Task { [weak self] in
                let validation = await self?.responseValidation(for: plan.collection, send: send)
                guard let self, !Task.isCancelled else { return }
                _ = lock.withLock { tasks.removeValue(forKey: .exchange(id)) }
                sendChecked(id, resolved, validation: validation.flatMap { $0 }, send: send)
            }
            lock.withLock { tasks[.exchange(id)] = task }
            return
        }
        sendChecked(id, resolved, validation: validation, send: send)
    }

    /// Sends a resolved request whose response is checked against `validation`.
    private func sendChecked(
        _ id: Int, _ resolved: ResolvedRequest, validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        if validatesGraphQL, resolved.graphQLDocument != nil {
            return validateAndSend(id, resolved, validation: validation, send: send)
        }
        sendRequest(id, resolved, validation: validation, send: send)
    }

    /// What checks a response against the collection's `openapi:` document, when it is known
    /// without waiting: `nil` inside when the collection names none or it does not read.
    private enum KnownValidation {
        case ready(ResponseValidation?)
        /// The document is named by URL and not fetched yet.
        case fetching
    }

    /// What checks every response against the collection's `openapi:` document: a file is read
    /// again when it changed, a URL is fetched once per session; a document that cannot be read
    /// is told once, as an error.
    private func knownValidation(for collection: APICollection, send: @escaping @Sendable (AppAction) -> Void)
        -> KnownValidation
    {
        guard let location = OpenAPILocation(collection) else { return .ready(nil) }
        let key = Self.contractKey(location)
        if let known = lock.withLock({ contract }), known.key == key { return .ready(known.validation) }
        guard case .file = location else { return .fetching }
        var validation: ResponseValidation?
        do {
            let loaded = try ResponseContract.loading(for: collection) {
                send(.message("openapi: \($0)", isError: false))
            }
            validation = loaded.map { ResponseValidation($0, everyResponse: true) }
        } catch {
            send(.message("Responses are not checked against openapi: \(error)", isError: true))
        }
        lock.withLock { contract = (key, validation) }
        return .ready(validation)
    }

    /// What checks every response against the collection's `openapi:` document, fetching a
    /// document named by URL the first time.
    private func responseValidation(for collection: APICollection, send: @escaping @Sendable (AppAction) -> Void) async
        -> ResponseValidation?
    {
        if case .ready(let validation) = knownValidation(for: collection, send: send) { return validation }
        guard let location = OpenAPILocation(collection) else { return nil }
        var validation: ResponseValidation?
        do {
            let loaded = try await ResponseContract.linked(for: collection) {
                send(.message("openapi: \($0)", isError: false))
            }
            validation = loaded.map { ResponseValidation($0, everyResponse: true) }
        } catch {
            send(.message("Responses are not checked against openapi: \(error)", isError: true))
        }
        lock.withLock { contract = (Self.contractKey(location), validation) }
        return validation
    }

    /// What the contract read last is kept under: a file's path and modification date, a URL.
    private static func contractKey(_ location: OpenAPILocation) -> String {
        switch location {
        case .remote(let url): return url.absoluteString
        case .file(let file):
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
                .map { "\($0.timeIntervalSince1970)" } ?? "-"
            return file.path + "@" + modified
        }
    }

    // MARK: - The session's mock

    /// How long answered requests gather before the reducer is told of them.
    static let mockLogInterval = DispatchTimeInterval.milliseconds(50)

    /// Starts the mock through the host; its answers are told in batches.
    private func startMock(_ request: MockRequest, send: @escaping @Sendable (AppAction) -> Void) {
        afterMockWork { host in
            guard let host else {
                send(.mockFailed("this explorer cannot serve a mock; run explorer mock in another terminal."))
                return
            }
            do {
                let started = try await host.start(request) { [weak self] line in self?.mockAnswered(line, send: send) }
                send(.mockStarted(started))
            } catch {
                send(.mockFailed(sentence(describing: error)))
            }
        }
    }

    /// Runs `work` after the mock's previous start or stop has finished.
    private func afterMockWork(_ work: @escaping @Sendable ((any MockHosting)?) async -> Void) {
        let host = mockHost
        lock.withLock {
            let previous = mockWork
            mockWork = Task {
                await previous?.value
                await work(host)
            }
        }
    }

    /// One answered request: the first of a batch schedules the batch's delivery.
    private func mockAnswered(_ text: String, send: @escaping @Sendable (AppAction) -> Void) {
        let line = MockLogLine(at: Date(), text: text)
        let first = lock.withLock {
            mockLines.append(line)
            return mockLines.count == 1
        }
        guard first else { return }
        work.asyncAfter(deadline: .now() + Self.mockLogInterval) {
            let lines = self.lock.withLock {
                defer { self.mockLines.removeAll() }
                return self.mockLines
            }
            send(.mockAnswered(lines))
        }
    }

    // MARK: - GraphQL schemas

    /// The schema source for an environment's transport.
    private func schemaSource(for environment: Environment) throws -> GraphQLSchemaSource {
        let transport = try self.transport(for: environment)
        return lock.withLock {
            if let made = schemaSources[ObjectIdentifier(transport)] { return made }
            let made = GraphQLSchemaSource(cache: schemaCache, transport: transport)
            schemaSources[ObjectIdentifier(transport)] = made
            return made
        }
    }

    /// Validates a GraphQL request against its schema (cached, else fetched) and sends it when
    /// it is valid, or when no schema can be had (with a warning); a document with problems
    /// is not sent, and the problems, at the file's lines and columns, say why.
    private func validateAndSend(
        _ id: Int, _ resolved: ResolvedRequest, validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        let source: GraphQLSchemaSource
        do {
            source = try schemaSource(for: resolved.environment)
        } catch {
            return sendRequest(id, resolved, validation: validation, send: send)
        }
        let task = Task { [weak self] in
            let verdict = await source.validate(resolved)
            guard let self, !Task.isCancelled else { return }
            _ = lock.withLock { tasks.removeValue(forKey: .exchange(id)) }
            switch verdict {
            case .invalid(let problems, let schema):
                send(.resolveFailed(exchange: id, Self.invalidGraphQLText(problems, schema: schema)))
                return
            case .unchecked(let sentence):
                send(.message("\(sentence) Sent without validation.", isError: false))
            case .notGraphQL, .valid:
                break
            }
            sendRequest(id, resolved, validation: validation, send: send)
        }
        lock.withLock { tasks[.exchange(id)] = task }
    }

    /// Why a GraphQL request was not sent: the first problems at `file:line:column`.
    static func invalidGraphQLText(_ problems: [GraphQLProblem], schema: LoadedGraphQLSchema) -> String {
        let shown = problems.prefix(3).map(\.description).joined(separator: "; ")
        let more = problems.count > 3 ? " (and \(problems.count - 3) more)" : ""
        return
            "Not sent: the GraphQL query does not validate: \(shown)\(more) (the schema of \(schema.key.shownURL): Q browses it, r there fetches it again)"
    }

    /// Loads the schema of a plan's GraphQL URL for the browser, off the main queue.
    private func loadSchema(_ plan: RequestPlan, refresh: Bool, send: @escaping @Sendable (AppAction) -> Void) {
        let endpointID = plan.endpoint.id
        let environment = plan.environment.name
        let resolved: ResolvedRequest
        let source: GraphQLSchemaSource
        do {
            resolved = try plan.resolve()
            source = try schemaSource(for: plan.environment)
        } catch {
            send(
                .schemaLoaded(
                    endpointID: endpointID, environment: environment,
                    SchemaOutlineLoad(url: "", problem: sentence(describing: error))))
            return
        }
        guard let key = resolved.graphQLSchemaKey else {
            send(
                .schemaLoaded(
                    endpointID: endpointID, environment: environment,
                    SchemaOutlineLoad(url: resolved.url, problem: "\(endpointID) is not a GraphQL endpoint.")))
            return
        }
        Task {
            let load: SchemaOutlineLoad
            do {
                let schema = try await source.schema(for: key, headers: resolved.introspectionHeaders, refresh: refresh)
                load = SchemaOutlineLoad(
                    url: key.shownURL, fetchedAt: schema.fetchedAt, fromCache: schema.fromCache,
                    outline: GraphQLSchemaOutline(schema: schema.schema))
            } catch {
                load = SchemaOutlineLoad(url: key.shownURL, problem: "\(error)")
            }
            send(.schemaLoaded(endpointID: endpointID, environment: environment, load))
        }
    }

    // MARK: - Sequences

    /// A sequence runner whose responses are checked against the collection's `openapi:`
    /// document (fetched first when it is named by URL).
    private func runner(
        for collection: APICollection, _ environment: Environment, answers: PromptAnswers,
        send: @escaping @Sendable (AppAction) -> Void
    ) async -> SequenceRunner<HistoryEntry> {
        let validation = await responseValidation(for: collection, send: send)
        return runner(collection, environment, answers: answers, validation: validation, send: send)
    }

    /// A sequence runner over this program's transport, limits and history: what `requires:`
    /// and folder runs send through, with `explorer run`'s rules.
    private func runner(
        _ collection: APICollection, _ environment: Environment, answers: PromptAnswers,
        validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) -> SequenceRunner<HistoryEntry> {
        // A proxy: that cannot be used fails each request, rather than sending it around the proxy.
        let chosen = Result { try self.transport(for: environment) }
        let transport = (try? chosen.get()) ?? self.transport
        let options = limits.transferOptions
        let path = collectionPath
        var resolver = RequestResolver()
        resolver.prompter = answers
        var check: SequenceRunner<HistoryEntry>.Check?
        if validatesGraphQL, let source = try? schemaSource(for: environment) {
            check = { resolved in
                guard case .invalid(let problems, let schema) = await source.validate(resolved) else { return nil }
                return ExplorerProgram.invalidGraphQLText(problems, schema: schema)
            }
        }
        return SequenceRunner<HistoryEntry>(
            collection: collection, environment: environment, store: CaptureStore(), resolver: resolver, check: check,
            validation: validation
        ) { [weak self] resolved in
            if case .failure(let error) = chosen, !(error is TLSSettings.Failure) {
                var entry = HistoryEntry(sending: resolved, startedAt: Date(), collectionPath: path)
                entry.fail(String(describing: error), started: entry.startedAt)
                return SentExchange(response: nil, failure: String(describing: error), record: entry)
            }
            let jar = self?.cookieJar(for: resolved, send: send)
            let keepCookies = self?.savingCookies(jar, of: resolved, send: send)
            let entry = await HistoryEntry.sending(
                resolved, through: transport, options: options, collectionPath: path, cookieJar: jar)
            keepCookies?()
            return SentExchange(response: entry.checkedResponse, failure: entry.transportError, record: entry)
        }
    }

    /// Sends one endpoint in two environments, one after the other (so that neither's timing
    /// carries the other's load), records both, and shows the comparison: `explorer compare`
    /// in the TUI, with the collection's `compare:` rules.
    private func compareEnvironments(
        _ first: RequestPlan, _ second: RequestPlan, send: @escaping @Sendable (AppAction) -> Void
    ) {
        Task { [weak self] in
            guard let self else { return }
            var sides: [ComparedExchange] = []
            var secrets: [String] = []
            for plan in [first, second] {
                let runner = await runner(for: plan.collection, plan.environment, answers: plan.answers, send: send)
                guard let step = await runner.run(plan.endpoint, withPrerequisites: false).last else { return }
                if let problem = step.resolveError {
                    send(.message("Not compared: \(plan.environment.name): \(problem)", isError: true))
                    return
                }
                record(step)
                secrets += step.secrets
                guard let entry = step.exchange?.record else { return }
                sides.append(
                    ComparedExchange(
                        environment: plan.environment.name, method: entry.method, url: entry.url, status: entry.status,
                        reason: entry.reason, headers: entry.responseHeaders, body: entry.responseBody ?? Data(),
                        milliseconds: entry.timings.totalMilliseconds, failure: entry.transportError))
            }
            guard !Task.isCancelled, sides.count == 2 else { return }
            let comparison = ResponseComparison(sides[0], sides[1], rules: first.collection.compareRules)
            let masker = SecretMasker(secretValues: secrets)
            let shown = Comparison(endpoint: first.endpoint.id, comparison, mask: { masker.mask($0) })
            // After both exchanges are written (the queue is serial), so the History pane lists them.
            recording.async { send(.environmentsCompared(shown, matches: comparison.matches)) }
        }
    }

    /// Records a step's exchange in the history, off the main queue, secrets masked.
    private func record(_ step: SequenceStep<HistoryEntry>) {
        guard let entry = step.historyEntry, let history else { return }
        let secrets = step.secrets
        recording.async { _ = history.record(entry, secrets: secrets) }
    }

    /// Sends what the endpoint `requires:` first (as `explorer send` does), then the endpoint
    /// itself as every TUI send goes; when a prerequisite fails, the endpoint is not sent.
    private func sendAfterPrerequisites(_ id: Int, _ plan: RequestPlan, send: @escaping @Sendable (AppAction) -> Void) {
        let task = Task { [weak self] in
            guard
                let runner = await self?.runner(
                    for: plan.collection, plan.environment, answers: plan.answers, send: send)
            else { return }
            let steps = await runner.sendPrerequisites(of: plan.endpoint) { step in
                self?.record(step)
                send(
                    .message(
                        "Sent \(step.endpoint.id) first (\(step.prerequisiteReason ?? "required")): \(step.statusText)",
                        isError: step.outcome != .passed))
            }
            guard let self, !Task.isCancelled else { return }
            _ = lock.withLock { tasks.removeValue(forKey: .exchange(id)) }
            if let prompt = steps.last?.unansweredPrompt {
                send(.promptsNeeded(.exchange(id), [prompt]))
                return
            }
            if let failed = steps.last(where: { $0.outcome != .passed }) {
                send(
                    .resolveFailed(
                        exchange: id,
                        "\(failed.endpoint.id) did not succeed (\(failed.statusText)), so \(plan.endpoint.id) was not sent."
                    ))
                return
            }
            resolveAndSend(id, plan, send: send)
        }
        lock.withLock { tasks[.exchange(id)] = task }
    }

    /// Runs endpoints one after another through the sequence runner, reporting each result
    /// and then the summary `explorer run` prints.
    private func runFolder(_ id: Int, _ plan: RunPlan, send: @escaping @Sendable (AppAction) -> Void) {
        // Every prompt of the run is asked before its first request goes out.
        let captured = CaptureStore().variables(
            collection: plan.collection.storeKey, environment: plan.environment.name)
        let sent = plan.endpoints.flatMap {
            plan.collection.prerequisites(of: $0, captured: captured).map(\.endpoint) + [$0]
        }
        let prompts = plan.collection.unansweredPrompts(
            of: sent, in: plan.environment, answers: plan.answers, captured: captured)
        guard prompts.isEmpty else {
            send(.promptsNeeded(.run(id, plan), prompts))
            return
        }
        let task = Task { [weak self] in
            guard
                let runner = await self?.runner(
                    for: plan.collection, plan.environment, answers: plan.answers, send: send)
            else { return }
            let started = Date()
            var results: [RunResult] = []
            for endpoint in plan.endpoints where !Task.isCancelled {
                await runner.run(endpoint) { step in
                    self?.record(step)
                    let entry = step.exchange?.record
                    let result = RunResult(
                        step: step, iteration: 1, status: entry?.status,
                        milliseconds: entry?.timings.totalMilliseconds ?? 0)
                    results.append(result)
                    send(.runStepped(run: id, result))
                }
            }
            _ = self?.lock.withLock { self?.tasks.removeValue(forKey: .run(id)) }
            send(
                .runFinished(
                    run: id,
                    RunSummary(
                        collection: plan.collection.name, environment: plan.environment.name, results: results,
                        seconds: Date().timeIntervalSince(started), startedAt: started)))
        }
        lock.withLock { tasks[.run(id)] = task }
    }

    private func sendRequest(
        _ id: Int, _ resolved: ResolvedRequest, validation: ResponseValidation?,
        send: @escaping @Sendable (AppAction) -> Void
    ) {
        let started = Date()
        // The body streams in on its own serial queue: the first lines are shown from the first
        // chunk, and a slow screen never holds more than the transport's buffer.
        let queue = DispatchQueue(label: "explorer.response-\(id)", qos: .userInitiated)
        let jar = cookieJar(for: resolved, send: send)
        let transport: AsyncHTTPClientTransport
        do {
            transport = try self.transport(for: resolved.environment)
        } catch {
            // A proxy: that cannot be used is a sentence that starts with the setting's file:line:column.
            send(
                .resolveFailed(
                    exchange: id,
                    error is TLSSettings.Failure
                        ? "The environment \"\(resolved.environment.name)\" cannot be used: \(sentence(describing: error))"
                        : String(describing: error)))
            return
        }
        let dispatcher = resolved.dispatcher(
            transport: transport, callbackQueue: queue, cookieJar: jar, prompt: Self.oauth2Prompt(send: send))
        let keepCookies = savingCookies(jar, of: resolved, send: send)
        let environment = resolved.environment
        let collectionPath = self.collectionPath
        let history = self.history
        let limits = self.limits
        let secrets = resolved.masker.secretValues
        let live = LiveBodySlot()
        let future = dispatcher.streamingFuture(
            from: resolved.request, options: limits.transferOptions,
            head: { head in
                live.body = LiveBody(head: head, started: started)
                send(.progress(exchange: id, bytes: 0, head: head))
            },
            chunk: { [work] chunk in
                guard let body = live.body, body.append(chunk, at: Date()) else { return }
                send(.progress(exchange: id, bytes: body.byteCount))
                guard !live.laying else { return }
                live.laying = true
                let frame = body.frame(isComplete: false)
                work.async {
                    send(.streamed(exchange: id, frame.snapshot()))
                    queue.async { live.laying = false }
                }
            })
        lock.withLock { inFlight[id] = future }
        future
            .response { [work, recording] response in
                // The indexes built as the bytes arrived: the complete body takes no second pass.
                let frame = live.body?.frame(isComplete: true)
                work.async {
                    var complete = response
                    complete.body = frame?.data
                    send(
                        .received(
                            exchange: id,
                            ResponseSnapshot.make(
                                complete, document: frame?.document, followsRedirects: resolved.followsRedirects)))
                    let report = Self.check(
                        complete, of: resolved, validation: validation, send: { send(.checked(exchange: id, $0)) })
                    let captured = report?.captured.filter(\.isSecret).map(\.value) ?? []
                    var entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: collectionPath)
                    entry.fill(complete)
                    entry.checks = report
                    recording.async { [entry] in
                        keepCookies()
                        // The jar's cookies for the URL, those the answer set included, are credentials too.
                        let cookies = jar?.cookieValues(for: entry.url) ?? []
                        if let historyID = history?.record(entry, secrets: secrets + captured + cookies) {
                            send(.recorded(exchange: id, historyID: historyID))
                        }
                    }
                }
            }
            .error { [recording] error in
                if let transportError = error as? TransportError, transportError == .cancelled { return }
                var entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: collectionPath)
                if let body = live.body {
                    // Stopped after the head (a limit, the deadline, a cut): what arrived stays.
                    send(.streamed(exchange: id, body.snapshot(isComplete: false)))
                    entry.fill(
                        status: body.head.status, headers: body.head.headers, body: body.body,
                        httpVersion: body.head.httpVersion,
                        timings: ResponseTimings(
                            started: started, headReceived: body.headReceived, finished: Date(),
                            bytesReceived: body.byteCount))
                }
                send(.failed(exchange: id, TransportFailure(error, limits: limits)))
                entry.fail(sentence(describing: error), started: started)
                // Off the main queue: a busy database can make a write wait for seconds.
                recording.async { [entry] in
                    keepCookies()
                    if let historyID = history?.record(
                        entry, secrets: secrets + (jar?.cookieValues(for: entry.url) ?? []))
                    {
                        send(.recorded(exchange: id, historyID: historyID))
                    }
                }
            }
            .completion { [weak self] in
                withExtendedLifetime(environment) {}
                self?.lock.withLock { _ = self?.inFlight.removeValue(forKey: id) }
            }
            .send()
    }

    /// Runs the endpoint's assertions and captures on a complete response, and the check
    /// against the collection's OpenAPI document; keeps what it captured in the state folder
    /// for the next requests, and reports the result.
    ///
    /// - Returns: the report, for the history (`nil` when nothing was checked).
    private static func check(
        _ response: Response<Data?>, of resolved: ResolvedRequest, validation: ResponseValidation?,
        send: (CheckReport) -> Void
    ) -> CheckReport? {
        let endpoint = resolved.endpoint
        let facts = CheckedResponse(
            status: response.statusCode.code, headers: response.headers, body: response.body ?? Data(),
            durationMilliseconds: (response.timings.total ?? 0) * 1000)
        var schema = validation?.check(resolved, response: facts)
        if var found = schema, found.violations.contains(where: { $0.kind == .body }),
            let tree = try? JSONValue(parsing: facts.body)
        {
            // Where the Schema tab's Enter shows each place in the Body tab.
            for violation in found.violations where violation.kind == .body {
                found.bodyLines[violation.instancePointer] = JSONPrettyPrinter.line(
                    of: violation.instancePointer, in: tree)
            }
            schema = found
        }
        guard endpoint.hasChecks || schema != nil else { return nil }
        let report = endpoint.check(
            facts, secretNames: resolved.environment.secrets, expand: resolved.expand, schema: schema)
        send(report)
        guard !report.captured.isEmpty else { return report }
        let now = Date()
        var values: [String: CapturedVariable] = [:]
        for capture in report.captured {
            values[capture.name] = CapturedVariable(
                value: capture.value, endpoint: endpoint.id, capturedAt: now, isSecret: capture.isSecret,
                origin: CapturedVariable.origin(of: resolved.baseURL))
        }
        try? CaptureStore().store(values, collection: resolved.collectionKey, environment: resolved.environment.name)
        return report
    }

    // MARK: - OAuth2 tokens

    /// Sends an environment's OAuth2 tokens (kept in the state folder) to the Tokens panel.
    private func listTokens(collection: String, environment: String, send: @escaping @Sendable (AppAction) -> Void) {
        do {
            let tokens = try OAuth2TokenStore(collection: collection, environment: environment).tokens()
                .map { ListedToken(key: $0.key, token: $0.value) }.sorted { $0.key < $1.key }
            send(.tokensListed(environment: environment, tokens, problem: nil))
        } catch {
            send(.tokensListed(environment: environment, [], problem: String(describing: error)))
        }
    }

    /// Shows what the user has to do for an interactive OAuth2 grant, opening the browser when
    /// there is one.
    static func oauth2Prompt(send: @escaping @Sendable (AppAction) -> Void) -> @Sendable (OAuth2Prompt) -> Void {
        { prompt in
            // The sentence holds the whole URL (the overlay wraps it), for a terminal without a browser.
            send(
                .showText(
                    title: "OAuth2 sign-in",
                    lines: [
                        prompt.instructions(opened: Browser.open(prompt.url)), "",
                        "The request is sent once the sign-in completes; Esc closes this note.",
                    ]))
        }
    }

    // MARK: - TLS and proxy

    /// The transport of an environment: the shared one, or one with its `tls:` settings and
    /// its `proxy:` (templates expanded now, with the environment's overrides).
    ///
    /// - Throws: `TLSSettings.Failure` when a file of its `tls:` does not read;
    ///   `ResolveError` when its `proxy:` does not expand to a usable proxy.
    func transport(for environment: Environment) throws -> AsyncHTTPClientTransport {
        let file = collectionPath.map { URL(fileURLWithPath: $0) }
        let key = TransportKey(
            tls: environment.tlsSettings(collectionFile: file), proxy: try environment.proxyChoice(),
            resolve: environment.resolvedAddresses, proxyTunnel: environment.proxyTunnel)
        guard key.tls != nil || key.proxy != nil || !key.resolve.isEmpty || key.proxyTunnel else { return transport }
        if let made = lock.withLock({ transports[key] }) { return made }
        var configuration = transport.configuration
        if let settings = key.tls { try configuration.apply(settings) }
        if let proxy = key.proxy { configuration.proxy = proxy }
        configuration.resolve = key.resolve
        configuration.proxyTunnel = key.proxyTunnel
        let made = AsyncHTTPClientTransport(configuration: configuration)
        return lock.withLock {
            if let existing = transports[key] { return existing }
            transports[key] = made
            return made
        }
    }

    /// Which proxy a request to `url` goes through, as the Request pane says it; `nil` when it
    /// goes directly or the environment's `proxy:` cannot be used (sending says why).
    func proxyNote(for environment: Environment, url: String) -> String? {
        guard let url = URL(string: url), let transport = try? transport(for: environment),
            let proxy = try? transport.proxy(for: url)
        else { return nil }
        return "via proxy \(proxy) (\(proxy.source))"
    }

    // MARK: - Cookies

    /// A collection's environment, the key of its cookie jar.
    private struct CookieJarKey: Hashable {
        let collection: String
        let environment: String
    }

    /// The cookie jar of the environment a request is sent in; `nil` when cookies are not
    /// kept (no store, `cookies: false`).
    func cookieJar(for resolved: ResolvedRequest, send: @escaping @Sendable (AppAction) -> Void) -> CookieJar? {
        guard resolved.environment.keepsCookies else { return nil }
        return cookieJar(
            CookieJarKey(collection: resolved.collectionKey, environment: resolved.environment.name), send: send)
    }

    /// Sends what an environment's jar holds to the Cookies panel.
    private func listCookies(_ key: CookieJarKey, send: @escaping @Sendable (AppAction) -> Void) {
        guard let cookieStore else {
            send(.cookiesListed(environment: key.environment, [], problem: "Cookies are not kept in this session."))
            return
        }
        do {
            // Read from the file when this session has not used the jar yet: nothing is cached
            // (nor a file moved) for a panel only looked at.
            let jar = lock.withLock { cookieJars[key] }
            let cookies =
                try jar?.cookies() ?? cookieStore.cookies(collection: key.collection, environment: key.environment)
            send(.cookiesListed(environment: key.environment, cookies, problem: nil))
        } catch {
            send(.cookiesListed(environment: key.environment, [], problem: String(describing: error)))
        }
    }

    /// The cookie jar of an environment: read from the state folder the first time; `nil`
    /// when there is no store (tests).
    private func cookieJar(_ key: CookieJarKey, send: @escaping @Sendable (AppAction) -> Void) -> CookieJar? {
        guard let cookieStore else { return nil }
        if let jar = lock.withLock({ cookieJars[key] }) { return jar }
        let jar: CookieJar
        do {
            jar = try cookieStore.jar(collection: key.collection, environment: key.environment)
        } catch {
            // The unreadable file stays as it is; this session's cookies live in memory.
            send(.message("\(error) Cookies are kept for this session only.", isError: true))
            jar = CookieJar()
        }
        return lock.withLock {
            if let existing = cookieJars[key] { return existing }
            cookieJars[key] = jar
            return jar
        }
    }

    /// What keeps a jar in the state folder once a response is in (on `recording`).
    private func savingCookies(
        _ jar: CookieJar?, of resolved: ResolvedRequest, send: @escaping @Sendable (AppAction) -> Void
    ) -> @Sendable () -> Void {
        guard let jar, let cookieStore else { return {} }
        return cookieStore.saving(jar, collection: resolved.collectionKey, environment: resolved.environment.name) {
            send(.message($0, isError: true))
        }
    }

    /// Closes the HTTP client; call once the runtime has returned.
    package func shutdown() async {
        afterMockWork { host in await host?.stop() }
        await lock.withLock { mockWork }?.value
        try? await transport.shutdown()
        for extra in lock.withLock({ Array(transports.values) }) { try? await extra.shutdown() }
    }
}

/// The OSC 52 escape sequence that asks the terminal to put text on the clipboard.
enum OSC52 {
    static func sequence(copying text: String) -> String {
        "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
    }
}
