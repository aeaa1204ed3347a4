import Dispatch
import Foundation
import GraphQLSupport
import History
import NetworkingCore
import Query
import Terminal
import Workspace

/// The explorer as a `TerminalProgram`: the reducer and view, and a router that hands each
/// effect to the service of its concern (`Services/`), each owning its state and its lock.
///
/// The runtime calls `perform` on one serial queue, in the order the reducer asked, so a
/// cancel always finds its send. What is quick runs there; what reads or writes files or
/// stores moves on to `work`; history rows, cookie jars and tokens are written one after
/// another on `recording`, never on the main queue.
package final class ExplorerProgram: TerminalProgram {
    package typealias State = AppState
    package typealias Action = AppAction
    package typealias Effect = AppEffect

    /// The HTTP clients: the shared one and those environments' settings make.
    package let transports: TransportPool
    /// Sends exchanges, opens WebSockets.
    package let sending: ExchangeSending
    /// Prerequisites, folder runs, comparisons.
    let sequences: SequenceRuns
    /// What a cancel stops.
    let tasks: ExchangeTasks
    let cookies: CookieJars
    let schemas: GraphQLSchemas
    let mock: SessionMockControl
    let history: SessionHistory
    let files: UserFiles
    let drafts: DraftWrites
    let clipboard: Clipboard
    /// The user's editor; `nil` when there is no terminal to hand over.
    let editor: EditorSession?
    private let work = DispatchQueue(label: "explorer.work", qos: .userInitiated, attributes: .concurrent)
    private let recording = DispatchQueue(label: "explorer.history-writes", qos: .utility)

    /// - Parameters:
    ///   - transport: the shared HTTP client (the program shuts it down); `nil`: one with the
    ///     default settings, made when a request first needs it.
    ///   - limits: the bounds of a response.
    ///   - history: where exchanges are recorded; `nil` records none.
    ///   - collectionPath: the collection file (relative `tls:` paths, history rows).
    ///   - clipboardWriter: where OSC 52 sequences are written (the terminal); `nil` in tests.
    ///   - externalEditor: runs the user's editor on a file, the UI suspended meanwhile.
    ///   - draftStore: where unsaved drafts are kept; `nil` keeps none.
    ///   - cookieStore: where cookie jars are kept between runs; `nil` keeps none.
    ///   - schemaCache: where GraphQL schemas are kept between runs; `nil` keeps none.
    ///   - validatesGraphQL: whether a GraphQL query is validated against its schema first.
    ///   - mockHost: serves the session's mock (`O`); `nil` when this program cannot.
    ///   - admission: why a version of the collection read after the start may not be used.
    package init(
        transport: AsyncHTTPClientTransport? = nil,
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
        transports =
            transport.map { TransportPool(shared: $0, collectionPath: collectionPath) }
            ?? TransportPool(collectionPath: collectionPath)
        tasks = ExchangeTasks()
        cookies = CookieJars(store: cookieStore)
        schemas = GraphQLSchemas(cache: schemaCache, validates: validatesGraphQL, transports: transports)
        sending = ExchangeSending(
            transports: transports, cookies: cookies, contracts: ContractCache(), schemas: schemas, tasks: tasks,
            history: history, collectionPath: collectionPath, limits: limits, work: work, recording: recording)
        sequences = SequenceRuns(sending: sending)
        mock = SessionMockControl(host: mockHost, queue: work)
        self.history = SessionHistory(recorder: history)
        files = UserFiles(admission: admission)
        drafts = DraftWrites(store: draftStore)
        clipboard = Clipboard(writer: clipboardWriter)
        editor = externalEditor.map(EditorSession.init(editor:))
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
        // Exchanges
        case .send(let id, let plan):
            let captured = plan.captured()
            let prerequisites = plan.collection.prerequisites(of: plan.endpoint, captured: captured).map(\.endpoint)
            let prompts = plan.collection.unansweredPrompts(
                of: prerequisites + [plan.endpoint], in: plan.environment, answers: plan.answers, captured: captured)
            if !prompts.isEmpty {
                send(.promptsNeeded(.exchange(id), prompts))
            } else if !prerequisites.isEmpty {
                sequences.sendAfterPrerequisites(id, plan, send: send)
            } else {
                sending.resolveAndSend(id, plan, send: send)
            }
        case .webSocket(let id, let command):
            // An open bidirectional gRPC call takes the WebSocket's message line and Esc.
            if sending.isOpenGRPCCall(id) {
                sending.performGRPC(id, command, send: send)
            } else {
                sending.performWebSocket(id, command, send: send)
            }
        case .cancel(let id):
            tasks.cancelExchange(id)
        case .cancelRun(let id):
            tasks.cancelRun(id)
        case .runFolder(let id, let plan):
            sequences.runFolder(id, plan, send: send)
        case .compareEnvironments(let first, let second):
            sequences.compareEnvironments(first, second, send: send)
        case .preview(let plan):
            var preview = plan.preview()
            preview.proxy = transports.proxyNote(for: plan.environment, url: preview.urlText)
            send(.previewResolved(preview))
        // Variables
        case .listVariables(let environment, let collectionKey):
            send(Self.variablesListed(environment, collectionKey: collectionKey))
        case .clearCapture(let name, let environment, let collectionKey):
            do {
                try CaptureStore().clear(name, collection: collectionKey, environment: environment.name)
            } catch {
                send(.message(sentence(describing: error), isError: true))
            }
            send(Self.variablesListed(environment, collectionKey: collectionKey))
        case .resolveVariables(let environment, let key):
            send(.variablesResolved(key, environment.shownVariables()))
        // The clipboard
        case .copyAsCurl(let plan):
            do {
                let curl = try plan.curl()
                clipboard.copy(curl.command)
                send(.showText(title: curl.title, lines: curl.shown))
            } catch {
                send(.message(sentence(describing: error), isError: true))
            }
        case .copyToClipboard(let text):
            clipboard.copy(text)
        // Cookies and tokens, after the writes before them
        case .listCookies(let collection, let environment):
            let key = CookieJars.Key(collection: collection, environment: environment)
            recording.async { send(self.cookiesListed(key)) }
        case .deleteCookies(let collection, let environment, let only):
            let key = CookieJars.Key(collection: collection, environment: environment)
            recording.async {
                self.cookies.delete(key, only: only, report: ExchangeSending.error(send))
                send(self.cookiesListed(key))
            }
        case .listTokens(let collection, let environment):
            recording.async { send(OAuth2Tokens.listed(collection: collection, environment: environment)) }
        case .dropTokens(let collection, let environment, let only):
            recording.async {
                if let problem = OAuth2Tokens.drop(collection: collection, environment: environment, only: only) {
                    send(.message(problem, isError: true))
                }
                send(OAuth2Tokens.listed(collection: collection, environment: environment))
            }
        // GraphQL schemas
        case .loadSchema(let plan, let refresh):
            loadSchema(plan, refresh: refresh, send: send)
        case .listGRPCMethods(let plan):
            sending.listGRPCMethods(plan, send: send)
        // The session's mock
        case .startMock(let request):
            mock.start(request, send: send)
        case .stopMock:
            mock.stop()
        case .resetMock:
            mock.reset(send: send)
        case .storeDrafts(let endpoints, let collectionPath):
            drafts.save(endpoints, collectionPath: collectionPath, report: ExchangeSending.error(send))
        // Files and stores, off the effects queue
        case .loadHistory, .openHistory, .compareHistory, .search, .fold, .filter, .editInEditor, .changeCollection,
            .saveBody:
            work.async { self.performSlowly(effect, send: send) }
        }
    }

    /// The effects that read or write files or stores, or search bodies, on `work`.
    private func performSlowly(_ effect: AppEffect, send: @escaping @Sendable (AppAction) -> Void) {
        switch effect {
        case .loadHistory(let collectionPath):
            if let action = history.listed(collectionPath: collectionPath) { send(action) }
        case .openHistory(let id):
            if let action = history.opened(id) { send(action) }
        case .compareHistory(let first, let second):
            if let action = history.compared(first, second) { send(action) }
        case .search(let id, let query, let document):
            send(.searchFinished(exchange: id, query: query, lines: document.linesMatching(query)))
        case .fold(let id, let depth, let document):
            send(.foldFinished(exchange: id, FoldedDocument(document, depth: depth)))
        case .filter(let id, let expression, let document):
            let filtered = Result { try JSONPath.filter(document, expression) }.mapError(JSONPath.failure)
            send(.filterFinished(exchange: id, expression: expression, filtered))
        case .editInEditor(let endpoint):
            guard let editor else {
                send(.message("There is no terminal to run an editor in.", isError: true))
                return
            }
            send(editor.edit(endpoint))
        case .changeCollection(let change, let collectionPath):
            for action in files.apply(change, collectionPath: collectionPath) { send(action) }
        case .saveBody(let bytes, let path):
            send(files.saveBody(bytes, to: path))
        default:
            perform(effect, send: send)
        }
    }

    /// An environment's variables as the Variables panel lists them, captured ones included.
    private static func variablesListed(_ environment: Environment, collectionKey: String) -> AppAction {
        let captured = CaptureStore().variables(collection: collectionKey, environment: environment.name)
        return .variablesListed(environment: environment.name, environment.shownVariables(captured: captured))
    }

    /// What the Cookies panel lists for an environment's jar.
    private func cookiesListed(_ key: CookieJars.Key) -> AppAction {
        do {
            return .cookiesListed(environment: key.environment, try cookies.cookies(key), problem: nil)
        } catch let unkept as CookieJars.Unkept {
            return .cookiesListed(environment: key.environment, [], problem: unkept.description)
        } catch {
            return .cookiesListed(environment: key.environment, [], problem: String(describing: error))
        }
    }

    /// Loads the schema of a plan's GraphQL URL for the browser, off the main queue.
    private func loadSchema(_ plan: RequestPlan, refresh: Bool, send: @escaping @Sendable (AppAction) -> Void) {
        let endpointID = plan.endpoint.id
        let environment = plan.environment.name
        let resolved: ResolvedRequest
        do {
            resolved = try plan.resolve()
        } catch {
            let load = SchemaOutlineLoad(url: "", problem: sentence(describing: error))
            send(.schemaLoaded(endpointID: endpointID, environment: environment, load))
            return
        }
        Task { [schemas] in
            let load = await schemas.outline(of: resolved, refresh: refresh)
            send(.schemaLoaded(endpointID: endpointID, environment: environment, load))
        }
    }

    /// Stops the mock and closes the HTTP clients; call once the runtime has returned.
    package func shutdown() async {
        await mock.shutdown()
        await transports.shutdown()
    }
}
