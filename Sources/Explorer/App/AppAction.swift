import Foundation
import History
import Networking
import Terminal
import Workspace

/// Everything that can change the explorer's state: input, and what effects report back.
package enum AppAction: Sendable {
    case input(InputEvent)
    case collectionReloaded(APICollection)
    case collectionFailed(String)
    case historyLoaded([HistorySummary])
    /// A stored exchange was read for showing; its response is prepared off the main queue.
    case historyOpened(HistoryEntry, ResponseSnapshot?)
    /// Two stored exchanges were compared.
    case comparisonReady(Comparison)
    /// Body bytes arrived; the head comes with the first update, before any body byte.
    case progress(exchange: Int, bytes: Int, head: ResponseHead? = nil)
    case received(exchange: Int, ResponseSnapshot)
    case failed(exchange: Int, TransportFailure)
    case recorded(exchange: Int, historyID: Int64)
    case message(String, isError: Bool)
    /// A search of a large body finished off the main queue.
    case searchFinished(exchange: Int, query: String, lines: [Int])
    /// A JSONPath filter of a large body finished off the main queue.
    case filterFinished(exchange: Int, expression: String, Result<BodyDocument, JSONPath.Failure>)
    /// The user's editor returned an edited endpoint.
    case endpointEdited(Endpoint)
    /// An edited endpoint was written to the collection file.
    case endpointSaved(id: String)
}

/// Work the reducer asks the runtime to do; the results come back as actions.
package enum AppEffect: Sendable {
    /// Send a resolved request as exchange `id`.
    case send(exchange: Int, ResolvedRequest)
    /// Cancel exchange `id` (the transport closes its connection).
    case cancel(exchange: Int)
    /// Reload the newest history entries.
    case loadHistory
    /// Read one stored exchange to show it.
    case openHistory(id: Int64)
    /// Read two stored exchanges and compare them.
    case compareHistory(Int64, Int64)
    /// Put text on the clipboard with OSC 52.
    case copyToClipboard(String)
    /// Write a body to a file.
    case saveBody(Data, path: String)
    /// Search a large body for the lines holding `query`.
    case search(exchange: Int, query: String, BodyDocument)
    /// Apply a JSONPath filter to a large body.
    case filter(exchange: Int, expression: String, BodyDocument)
    /// Open an endpoint in the user's editor.
    case editInEditor(Endpoint)
    /// Write an edited endpoint back into the collection file.
    case saveEndpoint(Endpoint, collectionPath: String)
}
