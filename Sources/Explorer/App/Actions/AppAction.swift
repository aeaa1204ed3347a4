import Checks
import Foundation
import History
import NetworkingCore
import Query
import Terminal
import Workspace

/// Everything that can change the explorer's state: input, and what effects report back.
///
/// The reducer reads no clock and no process environment: the time comes in with each input,
/// and whatever needs files, the environment or the clock (resolving a request) is an effect
/// whose result comes back as an action.
package enum AppAction: Sendable {
    /// A key, mouse event, paste, resize or tick, and when it happened.
    case input(InputEvent, at: Date)
    /// The collection file was read again (an edit on disk, or the explorer's own write read
    /// back). `read` is the read's `CollectionReadOrder` number (0: not numbered): a read older
    /// than the last one shown is dropped, as are `collectionFailed` and `collectionRefused`'s.
    case collectionReloaded(APICollection, read: UInt64 = 0)
    case collectionFailed(String, read: UInt64 = 0)
    /// The collection file was read again and now reaches beyond its folder (a command, a file
    /// outside it, an environment variable) without the user's trust: why, and what to do.
    case collectionRefused(String, read: UInt64 = 0)
    case historyLoaded([HistorySummary])
    /// A stored exchange was read for showing; its response is prepared off the main queue.
    case historyOpened(HistoryEntry, ResponseSnapshot?)
    /// Two stored exchanges were compared.
    case comparisonReady(Comparison)
    /// One endpoint was sent in two environments (both recorded) and the answers compared;
    /// `matches` says whether they count as the same.
    case environmentsCompared(Comparison, matches: Bool)
    /// Body bytes arrived; the head comes with the first update, before any body byte.
    case progress(exchange: Int, bytes: Int, head: ResponseHead? = nil)
    case received(exchange: Int, ResponseSnapshot)
    /// What has arrived of a body still streaming (or kept when it stopped early).
    case streamed(exchange: Int, ResponseSnapshot)
    /// The request of an exchange was resolved and is about to go out: what it shows.
    case resolved(exchange: Int, RequestPreview)
    /// The request of an exchange could not be resolved (an undefined variable, a missing
    /// file): nothing was sent.
    case resolveFailed(exchange: Int, String)
    /// The request pane's preview of the selected endpoint was resolved.
    case previewResolved(RequestPreview)
    /// A text to show in an overlay (the curl command of an endpoint).
    case showText(title: String, lines: [String])
    case failed(exchange: Int, TransportFailure)
    case recorded(exchange: Int, historyID: Int64)
    /// The WebSocket of an exchange is open: messages can be sent on it.
    case webSocketOpened(exchange: Int)
    /// The endpoint's assertions and captures were run on a received response.
    case checked(exchange: Int, CheckReport)
    case message(String, isError: Bool)
    /// The cookie jar of an environment was read or changed (a sentence when it does not read).
    case cookiesListed(environment: String, [Cookie], problem: String?)
    /// The OAuth2 tokens of an environment were read or changed.
    case tokensListed(environment: String, [ListedToken], problem: String?)
    /// The GraphQL schema of an endpoint's URL in an environment was loaded for the browser.
    case schemaLoaded(endpointID: String, environment: String, SchemaOutlineLoad)
    /// The methods of an environment's gRPC server were found (for `Ctrl-N`), or why not.
    case grpcMethodsListed(environment: String, GRPCMethodsLoad)
    /// A search of a large body finished off the main queue.
    case searchFinished(exchange: Int, query: String, lines: [Int])
    /// Folding a large body to a depth finished off the main queue.
    case foldFinished(exchange: Int, FoldedDocument)
    /// A JSONPath filter of a large body finished off the main queue.
    case filterFinished(exchange: Int, expression: String, Result<BodyDocument, JSONPath.Failure>)
    /// The user's editor returned an edited endpoint.
    case endpointEdited(Endpoint)
    /// An edited endpoint was written to the collection file.
    case endpointSaved(id: String)
    /// The active environment's variables were resolved for the editors (secrets masked).
    case variablesResolved(VariablesKey, [Environment.ShownVariable])
    /// The variables view's list was read: the environment's variables, captured ones with
    /// the endpoint and time they came from.
    case variablesListed(environment: String, [Environment.ShownVariable])
    /// An endpoint of a folder run finished (a prerequisite it required too).
    case runStepped(run: Int, RunResult)
    /// A folder run finished (or was stopped): what the CLI's `explorer run` prints.
    case runFinished(run: Int, RunSummary)
    /// A send or a run needs answers to `{{prompt "Label"}}` before anything goes out.
    case promptsNeeded(PromptTarget, [UnansweredPrompt])
    /// The session's mock listens.
    case mockStarted(MockStarted)
    /// The session's mock could not start: why, as a sentence.
    case mockFailed(String)
    /// The session's mock answered these requests.
    case mockAnswered([MockLogLine])
    /// The session's mock forgot its changes: how many resources it keeps now (`nil`: no mock served).
    case mockStateReset(Int?)
}

/// Work the reducer asks the runtime to do; the results come back as actions.
package enum AppEffect: Sendable {
    /// Resolve a request and send it as exchange `id`.
    case send(exchange: Int, RequestPlan)
    /// Resolve the selected endpoint for the request pane (nothing is sent).
    case preview(RequestPlan)
    /// Resolve a request and put it on the clipboard as a curl command.
    case copyAsCurl(RequestPlan)
    /// Cancel exchange `id` (the transport closes its connection).
    case cancel(exchange: Int)
    /// Send a message, a ping or a close on the WebSocket of exchange `id`.
    case webSocket(exchange: Int, WebSocketCommand)
    /// Reload the newest history entries.
    /// `collectionPath` keeps it to that collection's exchanges; nil lists every collection's.
    case loadHistory(collectionPath: String?)
    /// Read one stored exchange to show it.
    case openHistory(id: Int64)
    /// Read two stored exchanges and compare them.
    case compareHistory(Int64, Int64)
    /// Send one endpoint in two environments, one after the other, and compare the answers.
    case compareEnvironments(RequestPlan, RequestPlan)
    /// Put text on the clipboard with OSC 52.
    case copyToClipboard(String)
    /// Write a body to a new file at `path` (a free name beside it when that file exists).
    case saveBody(Data, path: String)
    /// Search a large body for the lines holding `query`.
    case search(exchange: Int, query: String, BodyDocument)
    /// Fold a large JSON body to a depth.
    case fold(exchange: Int, depth: Int, BodyDocument)
    /// Apply a JSONPath filter to a large body.
    case filter(exchange: Int, expression: String, BodyDocument)
    /// Open an endpoint in the user's editor.
    case editInEditor(Endpoint)
    /// Change the collection file: write an endpoint, delete one, put one back.
    case changeCollection(CollectionChange, collectionPath: String)
    /// Resolve an environment's variables for the editors (reads the process environment).
    case resolveVariables(Environment, VariablesKey)
    /// Keep the drafts in the state folder (an empty list removes the file).
    case storeDrafts([Endpoint], collectionPath: String)
    /// Read an environment's variables for the variables view, captured ones included.
    case listVariables(Environment, collectionKey: String)
    /// Forget one captured variable of an environment, then list the variables again.
    case clearCapture(String, Environment, collectionKey: String)
    /// Send endpoints one after another with the sequence runner (`explorer run`'s engine).
    case runFolder(run: Int, RunPlan)
    /// Stop a folder run (the request in flight is cancelled).
    case cancelRun(Int)
    /// Read the cookie jar of an environment of a collection (`AppState.cookieCollectionKey`).
    case listCookies(collection: String, environment: String)
    /// Delete one cookie of an environment's jar, or all of them when `only` is nil.
    case deleteCookies(collection: String, environment: String, only: Cookie?)
    /// Read the OAuth2 tokens of an environment of a collection.
    case listTokens(collection: String, environment: String)
    /// Drop one OAuth2 token (by its cache key) of an environment, or all when `only` is nil.
    case dropTokens(collection: String, environment: String, only: String?)
    /// Load the GraphQL schema of an endpoint's URL for the browser: cached, else by
    /// introspection; `refresh` asks the server again.
    case loadSchema(RequestPlan, refresh: Bool)
    /// Find the methods of the gRPC server a plan (`Endpoint.serverReflection` in an
    /// environment) resolves to: its reflection, else the collection's `protoset:`/`protos:`.
    case listGRPCMethods(RequestPlan)
    /// Serve a mock of the collection on 127.0.0.1 (`explorer mock`, in this process).
    case startMock(MockRequest)
    /// Stop the session's mock.
    case stopMock
    /// Reset the session's mock's resources to the document's examples.
    case resetMock
}
