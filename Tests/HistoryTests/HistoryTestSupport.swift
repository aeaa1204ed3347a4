import Foundation
import NetworkingCore
import TestSupport

@testable import History

extension TemporaryFolder {
    /// A history file in the directory, where the explorer keeps it for `XDG_STATE_HOME=<url>/state`.
    var historyFile: URL { url.appendingPathComponent("state/explorer/history.sqlite") }
}

/// A small exchange with sensible defaults, for arranging tests.
func sampleEntry(
    endpoint: String? = "Users/List",
    environment: String? = "local",
    method: String = "GET",
    url: String = "http://127.0.0.1:8080/v1/users",
    status: Int? = 200,
    requestBody: Data? = nil,
    responseBody: Data? = Data(#"{"users":[{"name":"alice"}]}"#.utf8),
    startedAt: Date = Date(),
    transportError: String? = nil
) -> HistoryEntry {
    HistoryEntry(
        startedAt: startedAt, collectionPath: "/tmp/explorer.yaml", environment: environment,
        endpoint: endpoint, method: method, url: url,
        requestHeaders: ["Accept": "application/json"], requestBody: requestBody,
        status: status, reason: status.map { $0 == 200 ? "OK" : "Status \($0)" },
        responseHeaders: ["Content-Type": "application/json"], responseBody: responseBody,
        timings: HistoryTimings(totalMilliseconds: 12.5, headMilliseconds: 10),
        httpVersion: "HTTP/1.1", transportError: transportError)
}
