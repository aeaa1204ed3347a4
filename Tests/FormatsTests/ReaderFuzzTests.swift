import Foundation
import TestSupport
import Testing

@testable import Formats
@testable import Workspace

/// Mutated real files through the collection loader and every importer that reads a file:
/// truncated, bytes flipped, nested thousands deep, an alias bomb inserted, a line of
/// megabytes, a slice repeated. Each must come back as a result or as an error that names the
/// file: no crash, no hang. Seeded, so a failure is reproduced by its seed and case number;
/// a fixed number of cases, within a time limit.
@Suite struct ReaderFuzzTests {
    /// A reader of one format, given the text's bytes and the path to name.
    struct Reader: Sendable {
        let name: String
        let fixture: String?
        let read: @Sendable (Data, String) throws -> Void
    }

    static let readers: [Reader] = [
        Reader(name: "collection", fixture: nil) { data, path in
            _ = try CollectionLoader.parse(String(decoding: data, as: UTF8.self), file: path)
        },
        Reader(name: "openapi yaml", fixture: "openapi/oai-petstore.yaml") { data, path in
            _ = try OpenAPIImporter().importText(String(decoding: data, as: UTF8.self), path: path)
        },
        Reader(name: "openapi yaml 2", fixture: "openapi/oai-uspto.yaml") { data, path in
            _ = try OpenAPIImporter().importText(String(decoding: data, as: UTF8.self), path: path)
        },
        Reader(name: "openapi json", fixture: "openapi/discord-openapi-reduced.json") { data, path in
            _ = try OpenAPIImporter().importText(String(decoding: data, as: UTF8.self), path: path)
        },
        Reader(name: "swagger json", fixture: "openapi/oai-swagger2-petstore-expanded.json") { data, path in
            _ = try OpenAPIImporter().importText(String(decoding: data, as: UTF8.self), path: path)
        },
        Reader(name: "postman", fixture: "postman/sample-collection.json") { data, path in
            _ = try PostmanImporter().importData(data, path: path)
        },
        Reader(name: "har", fixture: "har/firefox_post_form.har") { data, path in
            _ = try HARImporter().importData(data, path: path)
        },
        Reader(name: "insomnia json", fixture: "insomnia/insomnia_v4.json") { data, path in
            _ = try InsomniaImporter().importData(data, path: path)
        },
        Reader(name: "insomnia yaml", fixture: "insomnia/Collection-A.yaml") { data, path in
            _ = try InsomniaImporter().importData(data, path: path)
        },
        Reader(name: "http", fixture: "http/petstore.http") { data, path in
            _ = try HTTPFileImporter().importText(String(decoding: data, as: UTF8.self), file: path)
        },
        Reader(name: "posting", fixture: "posting/sample-collections/echo-post-01.posting.yaml") { data, path in
            _ = try PostingImporter().importRequest(String(decoding: data, as: UTF8.self), path: path)
        },
        Reader(name: "thunder", fixture: "thunder/terrakube/thunder-tests/thunderclient.json") { data, path in
            _ = try ThunderImporter().importData(data, path: path)
        },
        Reader(name: "thunder collection", fixture: "thunder/alpyca/thunder-tests/collections/tc_col_management.json") {
            data, path in
            _ = try ThunderImporter().importData(data, path: path)
        },
        Reader(name: "jetbrains env", fixture: "jetbrains/hmcts-hmpp/http-client.env.json") { data, path in
            _ = try HTTPFileImporter.addingEnvironments(
                to: ImportResult(collection: APICollection(name: "fuzz")), files: [(data, false, path)])
        },
        Reader(name: "bruno", fixture: "bruno/lang/request.bru") { data, path in
            _ = try BrunoImporter().importData(data, path: path)
        },
        Reader(name: "bruno.yml", fixture: "bruno/yml-testbench/variable-datatypes/typed-vars.yml") { data, path in
            _ = try BrunoImporter().importData(data, path: path)
        },
        Reader(name: "bruno json", fixture: "bruno/json/bruno-testbench.json") { data, path in
            _ = try BrunoImporter().importData(data, path: path)
        },
    ]

    /// The seed; a failure message names it with the case. `EXPLORER_FUZZ_SEED` (decimal)
    /// runs another one, to reproduce a failure or to search more cases by hand.
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["EXPLORER_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x35A_F022

    /// Cases per reader: each kind of mutation once. A fixed count, not a time budget, so the
    /// same cases run on a loaded machine; a hang is caught by the time limit.
    static let casesPerReader = 7

    @Test(.timeLimit(.minutes(3))) func mutatedRealFilesNeitherCrashNorHangAnyReader() async throws {
        // Seconds of parsing: off the cooperative pool (see offCooperativePool); the
        // expectations are checked here, on the test's task.
        let (ran, refusedByALimit, unnamed) = try await offCooperativePool {
            var random = SplitMix64(seed: Self.seed)
            var ran = 0
            var refusedByALimit = 0
            var unnamed: [String] = []
            for reader in Self.readers {
                let original =
                    try reader.fixture.map { try Data(contentsOf: Fixtures.url($0)) } ?? Data(issueExampleYAML.utf8)
                for number in 0..<Self.casesPerReader {
                    let (mutation, data) = Self.mutated(original, case: number, random: &random)
                    let path = "fuzz-\(number).\(reader.name.replacingOccurrences(of: " ", with: "-"))"
                    do {
                        try reader.read(data, path)
                    } catch {
                        let text = "\(error)"
                        if !text.contains(path) {
                            unnamed.append(
                                "seed \(Self.seed), \(reader.name) case \(number) (\(mutation)): the error does not name the file: \(text.prefix(300))"
                            )
                        }
                        if text.contains("EXPLORER_MAX_") || text.contains("reader's own limit")
                            || text.contains("nested deeper")
                        {
                            refusedByALimit += 1
                        }
                    }
                    ran += 1
                }
            }
            return (ran, refusedByALimit, unnamed)
        }
        #expect(unnamed.isEmpty, "\(unnamed.joined(separator: "\n"))")
        #expect(ran == Self.readers.count * Self.casesPerReader)
        #expect(refusedByALimit > 0, "no case reached a limit")
    }

    /// The `number`th mutation of `data`: each kind in turn, its place and size random.
    static func mutated(_ data: Data, case number: Int, random: inout SplitMix64) -> (String, Data) {
        var bytes = [UInt8](data)
        func place() -> Int { bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count)) }
        switch number % 7 {
        case 0:
            let end = place()
            return ("truncated at \(end)", Data(bytes[..<end]))
        case 1:
            let flips = 1 + Int(random.next() % 16)
            for _ in 0..<flips where !bytes.isEmpty { bytes[place()] = UInt8(truncatingIfNeeded: random.next()) }
            return ("\(flips) bytes flipped", Data(bytes))
        case 2:
            let depth = 1_000 + Int(random.next() % 100_000)
            let open = random.next() % 2 == 0 ? "[" : "{\"a\":"
            bytes.insert(contentsOf: Array(String(repeating: open, count: depth).utf8), at: place())
            return ("nested \(depth) deep", Data(bytes))
        case 3:
            // A bomb where a line starts, so YAML reads it as keys of the document.
            let at = bytes[..<place()].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            bytes.insert(
                contentsOf: Array(billionLaughs.replacingOccurrences(of: "paths: ", with: "bomb: ").utf8), at: at)
            return ("alias bomb at \(at)", Data(bytes))
        case 4:
            let length = (1 + Int(random.next() % 4)) << 20
            bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "a"), count: length), at: place())
            return ("a line of \(length) bytes", Data(bytes))
        case 5:
            let from = place()
            let slice = bytes[from..<min(bytes.count, from + 1 + Int(random.next() % 200))]
            let times = 1 + Int(random.next() % 2_000)
            bytes.insert(contentsOf: Array(repeating: Array(slice), count: times).joined(), at: place())
            return ("a slice repeated \(times) times", Data(bytes))
        default:
            let end = place()
            bytes.removeSubrange(end..<min(bytes.count, end + 1 + Int(random.next() % 64)))
            return ("bytes cut at \(end)", Data(bytes))
        }
    }
}
