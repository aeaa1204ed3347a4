import ArgumentParser
import Foundation
import Workspace

/// `explorer bench import`: how long an OpenAPI document takes to import, against the time
/// the same bytes take just to be parsed as JSON (the reference measured in the same run).
///
/// `--scale N` repeats the document's paths N times under `/copyK` prefixes, to reach the
/// size of the largest public documents (Discord's 1.2 MB with 242 operations, scaled 5×, is
/// 1,210 operations).
struct BenchImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Benchmark the OpenAPI importer: import time per document, as a ratio to parsing its JSON.",
        shouldDisplay: false
    )

    @Argument(help: "OpenAPI documents in JSON (default: Tests/Fixtures/openapi/discord-openapi.json).")
    var documents: [String] = []

    @Option(name: .long, help: "Repeat each document's paths this many times.")
    var scale: Int = 1

    @Option(name: .long, help: "How many times each import is timed (the fastest is printed).")
    var samples: Int = 3

    func run() throws {
        let files = documents.isEmpty ? ["Tests/Fixtures/openapi/discord-openapi.json"] : documents
        print("document                             size  operations  import     JSON parse  ratio")
        for file in files {
            var data = try Data(contentsOf: URL(fileURLWithPath: file))
            if scale > 1 { data = try scaled(data, times: scale) }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-bench-import-\(UUID().uuidString).json")
            try data.write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            var importTime = Double.infinity
            var parseTime = Double.infinity
            var operations = 0
            for _ in 0..<max(1, samples) {
                let parseStart = Date()
                _ = try JSONSerialization.jsonObject(with: data)
                parseTime = min(parseTime, Date().timeIntervalSince(parseStart))
                let start = Date()
                let result = try OpenAPIImporter().importFile(at: url)
                importTime = min(importTime, Date().timeIntervalSince(start))
                operations = result.collection.endpoints.count
            }
            let name = URL(fileURLWithPath: file).lastPathComponent + (scale > 1 ? " ×\(scale)" : "")
            print(name.padding(toLength: 34, withPad: " ", startingAt: 0),
                  String(format: "%5.1f MB  %10d  %7.3f s  %8.3f s  %5.1f×", Double(data.count) / 1_000_000, operations,
                         importTime, parseTime, importTime / parseTime))
        }
    }

    /// The document with its paths repeated under `/copyK` prefixes (operation ids made unique).
    private func scaled(_ data: Data, times: Int) throws -> Data {
        guard var root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let paths = root["paths"] as? [String: Any] else { throw ValidationError("The document has no paths.") }
        var all: [String: Any] = [:]
        for copy in 0..<times {
            for (path, item) in paths {
                guard var operations = item as? [String: Any] else { continue }
                for (method, value) in operations {
                    guard var operation = value as? [String: Any] else { continue }
                    if let id = operation["operationId"] as? String { operation["operationId"] = "\(id)_\(copy)" }
                    operations[method] = operation
                }
                all[copy == 0 ? path : "/copy\(copy)\(path)"] = operations
            }
        }
        root["paths"] = all
        return try JSONSerialization.data(withJSONObject: root)
    }
}
