import ArgumentParser
import Formats
import Foundation
import Workspace

/// `explorer bench import`: how long an OpenAPI document takes to import, against the time
/// the same bytes take just to be parsed as JSON (the reference measured in the same run).
///
/// `--scale N` repeats the whole document N times (paths under `/copyK` prefixes, components
/// renamed), to reach the size of the largest public documents: Discord's 1.2 MB with 242
/// operations, scaled 9×, is 10.8 MB with 2,178 operations.
struct BenchImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Benchmark the OpenAPI importer: import time per document, as a ratio to parsing its JSON.",
        shouldDisplay: false
    )

    @Argument(help: "OpenAPI documents in JSON (default: Tests/Fixtures/openapi/discord-openapi.json).")
    var documents: [String] = []

    @Option(name: .long, help: "Repeat each document (paths and components) this many times.")
    var scale: Int = 1

    @Option(
        name: .customLong("operations"),
        help: ArgumentHelp(
            "Keep the first N operations (in path order; the components stay whole): "
                + "the shape of the largest public documents, ~10 MB with ~1,000 operations, "
                + "is --scale 9 --operations 1000.")
    )
    var keepOperations: Int?

    @Option(name: .long, help: "How many times each import is timed (the fastest is printed).")
    var samples: Int = 3

    func run() throws {
        let files = documents.isEmpty ? ["Tests/Fixtures/openapi/discord-openapi.json"] : documents
        print("document                             size  operations  import     JSON parse  ratio")
        for file in files {
            var data = try Data(contentsOf: URL(fileURLWithPath: file))
            if scale > 1 || keepOperations != nil { data = try scaled(data, times: scale, keeping: keepOperations) }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "explorer-bench-import-\(UUID().uuidString).json")
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
            let name =
                URL(fileURLWithPath: file).lastPathComponent + (scale > 1 ? " ×\(scale)" : "")
                + (keepOperations.map { " (\($0) ops)" } ?? "")
            print(
                name.padding(toLength: 34, withPad: " ", startingAt: 0),
                String(
                    format: "%5.1f MB  %10d  %7.3f s  %8.3f s  %5.1f×", Double(data.count) / 1_000_000, operations,
                    importTime, parseTime, importTime / parseTime))
        }
    }

    /// The document repeated `times` times: copy K's paths under `/copyK`, its components
    /// renamed `Name_K` and its `$ref`s pointing at its own components (operation ids made
    /// unique), written pretty-printed as such documents are published (Discord's 1.2 MB × 9
    /// is 10.8 MB with 2,178 operations).
    private func scaled(_ data: Data, times: Int, keeping operationLimit: Int?) throws -> Data {
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let paths = root["paths"] as? [String: Any]
        else { throw ValidationError("The document has no paths.") }
        let components = root["components"] as? [String: Any] ?? [:]
        var allPaths: [String: Any] = [:]
        var allComponents: [String: [String: Any]] = [:]
        for copy in 0..<times {
            let suffix = copy == 0 ? "" : "_\(copy)"
            func renamed(_ value: Any) -> Any {
                if let object = value as? [String: Any] {
                    var out: [String: Any] = [:]
                    for (key, child) in object {
                        if key == "$ref", let ref = child as? String, ref.hasPrefix("#/components/") {
                            out[key] = ref + suffix
                        } else if key == "operationId", let id = child as? String {
                            out[key] = id + suffix
                        } else {
                            out[key] = renamed(child)
                        }
                    }
                    return out
                }
                if let array = value as? [Any] { return array.map(renamed) }
                return value
            }
            for (path, item) in paths { allPaths[copy == 0 ? path : "/copy\(copy)\(path)"] = renamed(item) }
            for (section, value) in components {
                guard let entries = value as? [String: Any] else { continue }
                for (name, entry) in entries { allComponents[section, default: [:]][name + suffix] = renamed(entry) }
            }
        }
        if let operationLimit {
            let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
            var kept: [String: Any] = [:]
            var count = 0
            for path in allPaths.keys.sorted() where count < operationLimit {
                guard var item = allPaths[path] as? [String: Any] else { continue }
                for method in methods where item[method] != nil {
                    if count < operationLimit { count += 1 } else { item[method] = nil }
                }
                kept[path] = item
            }
            allPaths = kept
        }
        var out = root
        out["paths"] = allPaths
        if !allComponents.isEmpty { out["components"] = allComponents }
        return try JSONSerialization.data(withJSONObject: out, options: [.prettyPrinted])
    }
}
