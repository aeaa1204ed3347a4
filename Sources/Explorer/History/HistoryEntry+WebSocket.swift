import Foundation
import NetworkingCore
import Workspace

extension HistoryEntry {
    /// A WebSocket session as history keeps it: the upgrade request (secrets masked), status
    /// 101, the messages as JSON lines capped like a body, and how it ended.
    ///
    /// - Parameters:
    ///   - resolved: the endpoint's upgrade request.
    ///   - startedAt: when the connection was asked for.
    ///   - collectionPath: the collection's key.
    ///   - transcript: the messages, when the upgrade succeeded.
    ///   - closing: how the session ended, when it opened.
    ///   - failure: why it did not open, when it did not.
    package init(
        webSocket resolved: ResolvedRequest, startedAt: Date, collectionPath: String?,
        transcript: WebSocketTranscript?, closing: WebSocketClosing?, failure: String? = nil
    ) {
        self.init(sending: resolved, startedAt: startedAt, collectionPath: collectionPath)
        method = "GET"
        timings = HistoryTimings(totalMilliseconds: Date().timeIntervalSince(startedAt) * 1000)
        if let failure {
            transportError = resolved.masker.mask(failure)
            return
        }
        status = 101
        reason = "Switching Protocols"
        httpVersion = "HTTP/1.1"
        responseBody = transcript?.data
        responseBodySize = transcript?.totalSize ?? 0
        contentType = "application/x-ndjson"
        if let closing, !closing.isNormal { transportError = resolved.masker.mask(closing.description) }
    }
}
