import Foundation
import Testing

@testable import App
@testable import History
@testable import Terminal

/// The Timing tab draws the endpoint's recent latencies in this environment, from the history
/// the History pane lists: a sparkline oldest first, and p50/p95 of those exchanges.
@Suite struct TimingSparklineTests {
    private func summary(_ id: Int64, endpoint: String?, environment: String?, milliseconds: Double, status: Int? = 200)
        -> HistorySummary
    {
        HistorySummary(
            id: id, startedAt: tuiNow, environment: environment, endpoint: endpoint, method: "GET",
            url: "http://x/\(id)",
            status: status, reason: status == nil ? nil : "OK", responseBodySize: 1, contentType: nil,
            totalMilliseconds: milliseconds, transportError: status == nil ? "refused" : nil)
    }

    @Test func theSparklineScalesFromTheLeastToTheMost() {
        #expect(ResponseContent.sparkline([10, 20, 30, 40, 50, 60, 70, 80]) == "▁▂▃▄▅▆▇█")
        #expect(ResponseContent.sparkline([5, 5, 5]) == "▁▁▁")
        #expect(ResponseContent.sparkline([1, 100]) == "▁█")
    }

    @Test func theTimingTabShowsThisEndpointsRecentLatenciesInThisEnvironment() throws {
        var state = try tuiState(width: 100, height: 34)
        let id = tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json"))
        let exchange = try #require(state.exchanges[id])
        let endpoint = try #require(exchange.endpointID)
        let environment = exchange.environment
        // Newest first, as the history lists them: 20 exchanges of 1…20 ms, then others that do not count.
        var history = (1...20).reversed().map {
            summary(Int64($0), endpoint: endpoint, environment: environment, milliseconds: Double($0))
        }
        history.insert(summary(100, endpoint: endpoint, environment: "elsewhere", milliseconds: 900), at: 0)
        history.insert(summary(101, endpoint: "Other/One", environment: environment, milliseconds: 900), at: 0)
        history.insert(
            summary(102, endpoint: endpoint, environment: environment, milliseconds: 900, status: nil), at: 0)
        state.history = history
        state.focus = .response
        while state.responseTab != .timing { tuiPress(&state, .char("]")) }
        let screen = screenText(state)
        #expect(screen.contains("Recent in \(environment ?? "") (last 20, oldest first)"))
        let lines = ResponseContent.recentLatencyLines(exchange, history: history)
        let spark = lines[2].map(\.text).joined().trimmingCharacters(in: .whitespaces)
        #expect(screen.contains(spark), "the sparkline is drawn")
        #expect(spark.count == 20 && spark.first == "▁" && spark.last == "█")
        #expect(Array(spark) == Array(spark).sorted { "▁▂▃▄▅▆▇█".firstIndex(of: $0)! < "▁▂▃▄▅▆▇█".firstIndex(of: $1)! })
        let figures = lines[3].map(\.text).joined()
        #expect(
            figures.contains("p50 10") && figures.contains("p95 19") && figures.contains("min 1")
                && figures.contains("max 20"))
    }

    @Test func oneExchangeDrawsNoSparkline() throws {
        var state = try tuiState(width: 100, height: 30)
        let id = tuiReceive(&state, tuiResponse(status: 200, reason: "OK", body: "{}", contentType: "application/json"))
        let exchange = try #require(state.exchanges[id])
        let only = [summary(1, endpoint: exchange.endpointID, environment: exchange.environment, milliseconds: 3)]
        #expect(ResponseContent.recentLatencyLines(exchange, history: only).isEmpty)
    }
}
