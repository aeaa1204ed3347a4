import ArgumentParser
import Checks
import Foundation
import Workspace

/// `explorer bench report`: how long the run reports take to make and write for a run of N
/// results (ten endpoints over N/10 iterations, every tenth result a failure with its request
/// and response), each report timed alone (the fastest of `--samples`).
struct BenchReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Benchmark the run reports (HTML, JSON, JUnit, GitHub) for a run of N results.",
        shouldDisplay: false
    )

    @Option(name: .long, help: "How many results the run has.")
    var results: Int = 10_000

    @Option(name: .long, help: "How many times each report is timed (the fastest is printed).")
    var samples: Int = 3

    func run() throws {
        let summary = try Self.summary(results: max(10, results))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-bench-report-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reports: [(String, () -> Data)] = [
            ("html", { Data(summary.htmlReport.utf8) }), ("json", { summary.jsonReportData }),
            ("junit", { Data(summary.junitXML.utf8) }), ("github", { Data(summary.githubAnnotations().utf8) }),
        ]
        print("report   results   size        made and written")
        for (name, make) in reports {
            var best = Double.infinity
            var size = 0
            for _ in 0..<max(1, samples) {
                let start = ContinuousClock.now
                let data = make()
                try AtomicFile.write(data, to: folder.appendingPathComponent("report.\(name)"))
                best = min(best, (ContinuousClock.now - start) / .seconds(1))
                size = data.count
            }
            print(
                name.padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(format: "%-9d %-11@ %.3f s", summary.results.count, "\(size / 1024) KiB", best))
        }
    }

    /// A run of `results` results: ten endpoints, each sent `results / 10` times.
    static func summary(results: Int) throws -> RunSummary {
        let collection = try CollectionLoader.parse(
            """
            name: Bench
            environments: [{ name: local, base_url: "http://127.0.0.1:1" }]
            endpoints:
            """ + (1...10).map { "\n  - { name: E\($0), path: /e/\($0), assert: [status == 200] }" }.joined(),
            file: "bench.yaml")
        var generator = SplitMix64(seed: 55)
        let body = Data(String(repeating: "{\"id\": 1, \"name\": \"Ada\"}", count: 40).utf8)
        var all: [RunResult] = []
        all.reserveCapacity(results)
        for index in 0..<results {
            let endpoint = collection.endpoints[index % 10]
            let failing = index % 10 == 3
            var report = CheckReport()
            report.assertions = [
                AssertionResult(
                    text: "status == 200", passed: !failing, actual: failing ? "500" : "200",
                    reason: failing ? "expected == 200, got 500" : nil, expected: "== 200")
            ]
            let milliseconds = 2 + Double(generator.next() % 4000) / 100
            var result = RunResult(
                endpoint: endpoint, iteration: index / 10 + 1, outcome: failing ? .failed : .passed,
                status: failing ? 500 : 200, report: report, milliseconds: milliseconds)
            result.exchange = ReportedExchange(
                method: "GET", url: "http://127.0.0.1:1/e/\(index % 10 + 1)", startedAt: Date(),
                requestHeaders: [.init(name: "traceparent", value: TraceParent.random().description)],
                requestBody: nil, requestBodySize: 0, reason: failing ? "Internal Server Error" : "OK",
                responseHeaders: [.init(name: "Content-Type", value: "application/json")], responseBody: body,
                responseBodySize: body.count, totalMilliseconds: milliseconds, headMilliseconds: milliseconds / 2,
                keepsBodies: failing)
            all.append(result)
        }
        var summary = RunSummary(
            collection: "Bench", environment: "local", results: all, seconds: 12, startedAt: Date(),
            iterations: (1...(results + 9) / 10).map { RunIteration(number: $0) })
        summary.collectionFile = "bench.yaml"
        return summary
    }
}
