import ArgumentParser
import Foundation
import History
import NetworkingCore
import Workspace

/// `explorer bench history`: figures for the SQLite history store.
///
/// Prints what recording one exchange with a 10.5 MB JSON body costs (time, and the growth of
/// the process's peak resident memory, at the body cap `EXPLORER_HISTORY_BODY_CAP` sets),
/// insert latency (p50/p99) with 1 KB and 1 MB bodies, newest-50 and full-text query latency
/// over a history of `--exchanges` exchanges (default 100,000), and the database size per
/// exchange. With `--large-body-only` it prints the first figure alone. With `--write-only N`
/// it only records N small exchanges into `--database`, one transaction each (the two-writer
/// test runs two of these at once).
struct BenchHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Benchmark the history store: insert latency, query latency, size per exchange.",
        shouldDisplay: false
    )

    @Option(name: .long, help: "How many exchanges to fill the history with for the query figures.")
    var exchanges: Int = 100_000

    @Option(name: .long, help: "How many inserts to time for each body size.")
    var samples: Int = 300

    @Option(name: .long, help: "The history file (default: a fresh one in a temporary folder).")
    var database: String?

    @Option(name: .long, help: "Only record this many exchanges into --database, then stop.")
    var writeOnly: Int?

    @Option(name: .long, help: "With --write-only: the endpoint is named Bench/<tag>.")
    var tag: String = "writer"

    @Flag(name: .long, help: "Only time recording a 10.5 MB JSON body (three times), then stop.")
    var largeBodyOnly = false

    func run() throws {
        if let writeOnly {
            try write(count: writeOnly)
            return
        }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("explorer-bench-history-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = database.map { URL(fileURLWithPath: $0) } ?? folder.appendingPathComponent("history.sqlite")
        let configuration = HistoryConfiguration(
            bodyCap: HistoryConfiguration.fromEnvironment().bodyCap, maximumCount: nil)
        let store = try HistoryStore(fileURL: file, configuration: configuration)
        #if DEBUG
        printLine("build: debug (figures are pessimistic; use `swift build -c release` for real ones)")
        #else
        printLine("build: release")
        #endif

        // First, while the process is small: its peak memory is what this insert adds.
        let large = Data(Self.text(bytes: 10_500_000, seed: 7).utf8)
        for attempt in 1...(largeBodyOnly ? 3 : 1) {
            let (duration, growth) = try Self.timeAndPeakGrowth {
                try store.record(Self.entry(index: attempt, body: large))
            }
            let peak = growth.map { String(format: "%.1f MiB", Double($0) / 1024) } ?? "unknown (no /proc)"
            printLine(
                "insert 10.5 MB body (cap \(configuration.bodyCap) bytes): \(Self.format(duration)), peak RSS +\(peak)")
        }
        if largeBodyOnly { return }
        try store.clear()

        for (label, size, count) in [("1 KB", 1024, samples), ("1 MB", 1024 * 1024, max(20, samples / 5))] {
            let body = Data(Self.text(bytes: size, seed: 1).utf8)
            let times = try (0..<count).map { index in
                try Self.time { try store.record(Self.entry(index: index, body: body)) }
            }
            printLine("insert \(label) body: \(Self.percentiles(times)) over \(count) inserts")
        }
        try store.clear()

        let fill = ContinuousClock.now
        var generator = SplitMix64(seed: 42)
        let batch = 2_000
        var written = 0
        while written < exchanges {
            let entries = (0..<min(batch, exchanges - written)).map { offset in
                Self.entry(index: written + offset, body: Data(Self.text(bytes: 1024, seed: generator.next()).utf8))
            }
            try store.record(contentsOf: entries)
            written += entries.count
        }
        printLine("filled \(written) exchanges with ~1 KB JSON bodies in \(Self.format(ContinuousClock.now - fill))")

        let queries: [(String, HistoryQuery)] = [
            ("newest 50", HistoryQuery()),
            ("newest 50, page 100", HistoryQuery(offset: 50 * 100)),
            ("newest 50 of 4xx in staging", HistoryQuery(environment: "staging", statusClass: .clientError)),
            ("FTS common word (users)", HistoryQuery(search: "users")),
            ("FTS body word (lorem)", HistoryQuery(search: "lorem")),
            ("FTS rare word (zyzzyva)", HistoryQuery(search: "zyzzyva")),
            ("FTS two words (alpha omega)", HistoryQuery(search: "alpha omega")),
            ("FTS prefix (lore*)", HistoryQuery(search: "lore*")),
            ("FTS prefix (lorem*)", HistoryQuery(search: "lorem*")),
            ("FTS prefix (us*)", HistoryQuery(search: "us*")),
            ("FTS URL phrase (users/43)", HistoryQuery(search: "users/43")),
        ]
        for (label, query) in queries {
            var found = 0
            let times = try (0..<50).map { _ in try Self.time { found = try store.summaries(matching: query).count } }
            printLine("query \(label): \(Self.percentiles(times)), \(found) rows")
        }
        let countTimes = try (0..<10).map { _ in try Self.time { _ = try store.count() } }
        printLine("count all: \(Self.percentiles(countTimes))")
        let showTimes = try (0..<50).map { index in try Self.time { _ = try store.entry(id: Int64(1 + index * 997)) } }
        printLine("entry(id:): \(Self.percentiles(showTimes))")

        try store.checkpoint()
        let size = store.fileSize
        let total = try store.count()
        printLine(
            "database: \(size / 1024) KB for \(total) exchanges = "
                + "\(size / max(1, total)) bytes per exchange (1 KB bodies)"
        )
    }

    private func write(count: Int) throws {
        let store = try HistoryStore(
            fileURL: URL(fileURLWithPath: database ?? HistoryLocation.defaultFile().path),
            configuration: HistoryConfiguration(maximumCount: nil))
        for index in 0..<count {
            var entry = Self.entry(index: index, body: Data(#"{"writer":"\#(tag)","index":\#(index)}"#.utf8))
            entry.endpoint = "Bench/\(tag)"
            try store.record(entry)
        }
    }

    // MARK: - Fixtures

    private static let words = [
        "alpha", "beta", "gamma", "delta", "omega", "lorem", "ipsum", "dolor", "sit", "amet",
        "users", "posts", "comments", "title", "body", "name", "email", "street", "city", "zip",
        "created", "updated", "status", "active", "pending", "archived", "tags", "swift", "linux", "http",
    ]

    private static func text(bytes: Int, seed: UInt64) -> String {
        var generator = SplitMix64(seed: seed)
        var text = #"{"items":["#
        while text.utf8.count < bytes - 40 {
            let word = words[Int(generator.next() % UInt64(words.count))]
            text +=
                #"{"id":\#(generator.next() % 100_000),"word":"\#(word)"#
                + #"\#(generator.next() % 1000)","text":"\#(word)"},"#
        }
        text += #"{"end":true}]}"#
        return text
    }

    private static func entry(index: Int, body: Data) -> HistoryEntry {
        let environments = ["local", "staging", "production"]
        let statuses = [200, 200, 200, 201, 204, 301, 404, 422, 500]
        let paths = ["users", "posts", "comments", "users/\(index % 100)", "posts/\(index % 50)"]
        let status = statuses[index % statuses.count]
        return HistoryEntry(
            startedAt: Date(), collectionPath: "/bench/explorer.yaml",
            environment: environments[index % environments.count],
            endpoint: "Bench/\(paths[index % paths.count])", method: index % 4 == 0 ? "POST" : "GET",
            url: "http://127.0.0.1:8080/v1/\(paths[index % paths.count])?page=\(index % 7)",
            requestHeaders: ["Accept": "application/json", "Authorization": "Bearer bench-token"],
            requestBody: index % 4 == 0 ? Data(#"{"name":"bench \#(index)"}"#.utf8) : nil,
            status: status, reason: "Status \(status)",
            responseHeaders: ["Content-Type": "application/json", "Content-Length": "\(body.count)"],
            responseBody: body,
            timings: HistoryTimings(totalMilliseconds: Double(index % 300), headMilliseconds: Double(index % 200)),
            httpVersion: "HTTP/1.1")
    }

    // MARK: - Measuring

    private static func time(_ body: () throws -> Void) throws -> Duration {
        let start = ContinuousClock.now
        try body()
        return ContinuousClock.now - start
    }

    /// Times `body` and measures how far it raises the process's peak resident memory: the peak
    /// (`VmHWM`) is reset first through `/proc/self/clear_refs`, so the figure is the peak during
    /// `body` over the resident memory before it, in KiB (`nil` where `/proc` cannot say).
    private static func timeAndPeakGrowth(_ body: () throws -> Void) throws -> (Duration, Int?) {
        let canReset = (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
        let before = statusKiB("VmRSS")
        let duration = try time(body)
        guard canReset, let before, let peak = statusKiB("VmHWM") else { return (duration, nil) }
        return (duration, peak - before)
    }

    /// A `/proc/self/status` figure in KiB (`VmRSS`, `VmHWM`), or `nil` where there is none.
    private static func statusKiB(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    private static func percentiles(_ durations: [Duration]) -> String {
        let sorted = durations.sorted()
        guard !sorted.isEmpty else { return "no samples" }
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        return "p50 \(format(p50)), p99 \(format(p99))"
    }

    private static func format(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return ms >= 1000 ? String(format: "%.2f s", ms / 1000) : String(format: "%.3f ms", ms)
    }
}
