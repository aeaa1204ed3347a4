import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import History
@testable import Terminal
@testable import Workspace

/// The collection every TUI test starts from: three environments (one protected, with a
/// secret token), a top-level endpoint and a folder of two.
let tuiCollectionYAML = """
    name: Shop API
    environments:
      - name: local
        base_url: http://127.0.0.1:8080/v1
        variables: { user_id: "1", token: "local-token" }
        headers: { Authorization: "Bearer {{token}}" }
      - name: staging
        base_url: https://staging.example.com/v1
        variables: { user_id: "2", token: "staging-token" }
        headers: { Authorization: "Bearer {{token}}" }
      - name: production
        base_url: https://api.example.com/v1
        protected: true
        variables: { user_id: "3", token: "s3cret-prod-token" }
        headers: { Authorization: "Bearer {{token}}" }
        secrets: [token]
    endpoints:
      - name: List posts
        method: GET
        path: /posts
        query: { page: "1" }
      - folder: Users
        endpoints:
          - name: Get user
            path: /users/{{user_id}}
          - name: Create user
            method: POST
            path: /users
            json: { name: Ada }
    """

/// A fixed clock: the spinner shows its first frame at this instant.
let tuiNow = Date(timeIntervalSinceReferenceDate: 800_000_000)

/// Two rows of the History pane: the newest in staging, then one in local.
let tuiTwoHistoryRows = [
    HistorySummary(
        id: 2, startedAt: tuiNow, environment: "staging", endpoint: "Users/Get user", method: "GET",
        url: "https://staging.example.com/v1/users/2", status: 200, reason: "OK",
        responseBodySize: 10, contentType: "application/json", totalMilliseconds: 5, transportError: nil),
    HistorySummary(
        id: 1, startedAt: tuiNow, environment: "local", endpoint: "Users/Get user", method: "GET",
        url: "http://127.0.0.1:8080/v1/users/1", status: 200, reason: "OK",
        responseBodySize: 10, contentType: "application/json", totalMilliseconds: 5, transportError: nil),
]

/// A fresh state over `tuiCollectionYAML` with a fixed clock and size.
func tuiState(width: Int = 80, height: Int = 24, environment: String? = nil) throws -> AppState {
    let collection = try CollectionLoader.parse(tuiCollectionYAML, file: "shop.yaml")
    var state = AppState(collection: collection, collectionPath: "/tmp/shop.yaml", environment: environment)
    state.size = Size(width: width, height: height)
    // The first input resolves the request pane's preview, as the runtime's first resize does.
    tuiReduce(&state, .input(.tick, at: tuiNow))
    return state
}

/// Runs an action through the reducer and performs at once the effects that only resolve
/// templates (the request pane's preview, the editors' variables; the curl overlay, whose
/// copy it returns as a `copyToClipboard`), returning the other effects.
@discardableResult
func tuiReduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
    var others: [AppEffect] = []
    for effect in AppReducer.reduce(&state, action) {
        switch effect {
        case .preview(let plan):
            others += tuiReduce(&state, .previewResolved(plan.preview()))
        case .resolveVariables(let environment, let key):
            others += tuiReduce(&state, .variablesResolved(key, environment.shownVariables(processEnvironment: [:])))
        case .copyAsCurl(let plan):
            guard let curl = try? plan.curl() else {
                others.append(effect)
                continue
            }
            others +=
                tuiReduce(&state, .showText(title: curl.title, lines: curl.shown)) + [.copyToClipboard(curl.command)]
        default:
            others.append(effect)
        }
    }
    return others
}

/// Sends key presses through the reducer, returning all the effects they asked for.
@discardableResult
func tuiPress(_ state: inout AppState, _ keys: KeyPress...) -> [AppEffect] {
    keys.flatMap { tuiReduce(&state, .input(.key($0), at: tuiNow)) }
}

/// Types text one character at a time.
@discardableResult
func tuiType(_ state: inout AppState, _ text: String) -> [AppEffect] {
    text.flatMap { tuiReduce(&state, .input(.key(.char($0)), at: tuiNow)) }
}

/// A received response with fixed timings.
func tuiResponse(status: Int, reason: String, body: String, contentType: String?) -> ResponseSnapshot {
    tuiResponse(status: status, reason: reason, data: Data(body.utf8), contentType: contentType)
}

/// A received response with fixed timings, from raw bytes.
func tuiResponse(status: Int, reason: String, data: Data, contentType: String?) -> ResponseSnapshot {
    let document = BodyDocument.make(data, contentType: contentType)
    var headers = HTTPHeaders()
    if let contentType { headers["Content-Type"] = contentType }
    headers["Content-Length"] = String(data.count)
    return ResponseSnapshot(
        status: status, reason: reason, headers: headers, httpVersion: "HTTP/1.1", document: document,
        headMilliseconds: 12, totalMilliseconds: 42, redirects: [],
        errorSummary: ResponseSnapshot.errorSummary(status: status, document: document))
}

/// Puts an exchange of the selected endpoint in flight with a fixed start time (as `send`
/// would, minus the clock), shows it, and returns its id.
@discardableResult
func tuiInFlight(_ state: inout AppState, startedSecondsAgo: Double = 1.5) -> Int {
    let id = state.nextExchangeID
    state.nextExchangeID += 1
    let endpoint = state.selectedEndpoint
    state.exchanges[id] = Exchange(
        id: id, endpointID: endpoint?.id, environment: state.activeEnvironmentValue?.name,
        method: endpoint?.method.rawValue ?? "GET", url: "http://127.0.0.1:8080/v1/posts?page=1",
        requestHeaders: ["Authorization": "Bearer local-token"], requestBody: nil,
        startedAt: tuiNow.addingTimeInterval(-startedSecondsAgo), phase: .inFlight(bytes: 0))
    state.shownExchange = id
    return id
}

/// Puts an exchange in flight and delivers its response through the reducer.
@discardableResult
func tuiReceive(_ state: inout AppState, _ response: ResponseSnapshot) -> Int {
    let id = tuiInFlight(&state)
    _ = AppReducer.reduce(&state, .received(exchange: id, response))
    return id
}

/// A JSON body with a few items, for search and filter tests.
let tuiItemsJSON =
    #"{"items":[{"id":1,"name":"apple","price":3},{"id":2,"name":"banana","price":1},{"id":3,"name":"cherry","price":7}],"total":3}"#

/// The whole screen as the explorer draws it for the state's size, for `assertSnapshot`.
func tuiScreen(_ state: AppState) -> CellGrid {
    AppView.render(state, size: state.size)
}

/// The rendered screen's text, for assertions on what a user reads.
func screenText(_ state: AppState) -> String {
    tuiScreen(state).textLines().joined(separator: "\n")
}
