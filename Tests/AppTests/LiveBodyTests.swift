import Foundation
import NetworkingCore
import Testing
import Workspace

@testable import App
@testable import History
@testable import Query
@testable import Terminal

/// A body shown while it arrives: partial snapshots, the live event view, the limit line.
@Suite struct LiveBodyTests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func head(_ contentType: String) -> ResponseHead {
        ResponseHead(status: .ok, headers: ["Content-Type": contentType], httpVersion: "HTTP/1.1")
    }

    @Test func jsonCutMidwayIsPrettyPrintedAsFarAsItGoes() {
        let body = LiveBody(head: head("application/json"), started: start, headReceived: start, timeZone: .gmt)
        _ = body.append(Data(#"{"items":[{"id":1,"name":"ap"#.utf8), at: start)
        let snapshot: ResponseSnapshot? = body.snapshot(isComplete: false)
        let lines = (0..<(snapshot?.document.lineCount ?? 0)).map { snapshot!.document.plainLine($0) }
        #expect(snapshot?.document.kind == .json)
        #expect(lines == ["{", "  \"items\": [", "    {", "      \"id\": 1,", "      \"name\": \"ap"])
    }

    @Test func laterChunksAreShownAtMostEveryTenthOfASecond() {
        let body = LiveBody(head: head("text/plain"), started: start, headReceived: start, timeZone: .gmt)
        #expect(body.append(Data("a\n".utf8), at: start))
        #expect(!body.append(Data("b\n".utf8), at: start.addingTimeInterval(0.05)))
        #expect(body.append(Data("c\n".utf8), at: start.addingTimeInterval(0.2)))
        #expect(body.snapshot(isComplete: false).document.lineCount == 3)
    }

    @Test func serverSentEventsBecomeOneBlockPerEventWithTheirTimeTypeAndId() {
        let body = LiveBody(head: head("text/event-stream"), started: start, headReceived: start, timeZone: .gmt)
        _ = body.append(Data(": hi\n\nevent: tick\nid: 1\ndata: {\"n\":".utf8), at: start)
        _ = body.append(Data(" 1}\n\ndata: plain\n\n".utf8), at: start.addingTimeInterval(0.5))
        let snapshot: ResponseSnapshot? = body.snapshot(isComplete: false)
        let document = snapshot!.document
        #expect(document.kind == .events)
        let lines = (0..<document.lineCount).map { document.plainLine($0) }
        #expect(
            lines == ["▸ 22:13:20.500  tick  #1", "  {", "    \"n\": 1", "  }", "▸ 22:13:20.500  message", "  plain"])
        #expect(EventLog.spans(lines[0]).map(\.text) == ["▸ ", "22:13:20.500", "  tick  #1"])
    }

    @Test func theJSONPathFilterAppliesToEachEventsData() throws {
        let body = LiveBody(head: head("text/event-stream"), started: start, headReceived: start, timeZone: .gmt)
        _ = body.append(
            Data("event: tick\nid: 1\ndata: {\"price\": 10, \"sym\": \"A\"}\n\ndata: plain words\n\n".utf8), at: start)
        _ = body.append(
            Data(
                "event: tick\nid: 2\ndata: {\"sym\": \"B\"}\n\nevent: tick\nid: 3\ndata: {\"price\": 12,\ndata:  \"sym\": \"C\"}\n\n"
                    .utf8), at: start)
        let document = body.snapshot(isComplete: false).document
        let filtered = try JSONPath.filter(document, "$.price")
        #expect(filtered.kind == .events)
        let lines = (0..<filtered.lineCount).map { filtered.plainLine($0) }
        #expect(
            lines == [
                "2 of 4 events match $.price", "▸ 22:13:20.000  tick  #1", "  [", "    10", "  ]",
                "▸ 22:13:20.000  tick  #3", "  [", "    12", "  ]",
            ])
        #expect(throws: JSONPath.Failure.self) { try JSONPath.filter(document, "$[") }

        let plain = LiveBody(head: head("text/event-stream"), started: start, headReceived: start, timeZone: .gmt)
        _ = plain.append(Data("data: hello\n\n".utf8), at: start)
        #expect(throws: JSONPath.Failure.self) {
            try JSONPath.filter(plain.snapshot(isComplete: false).document, "$.a")
        }
    }

    @Test func theEventAStreamEndedInTheMiddleOfIsShownLastMarkedUnfinished() {
        let body = LiveBody(head: head("text/event-stream"), started: start, headReceived: start, timeZone: .gmt)
        _ = body.append(Data("data: first\n\nid: 7\ndata: last".utf8), at: start)

        let lines = { (snapshot: ResponseSnapshot) in
            (0..<snapshot.document.lineCount).map { snapshot.document.plainLine($0) }
        }
        #expect(lines(body.snapshot(isComplete: false)) == ["▸ 22:13:20.000  message", "  first"])
        #expect(
            lines(body.snapshot(isComplete: true, now: start)) == [
                "▸ 22:13:20.000  message", "  first",
                "▸ 22:13:20.000  message  #7  (unfinished: the stream ended before its blank line)", "  last",
            ])
    }

    @Test func aLastNDJSONLineWithoutALineBreakIsShownMarkedUnfinished() {
        let body = LiveBody(head: head("application/x-ndjson"), started: start, headReceived: start, timeZone: .gmt)
        _ = body.append(Data("{\"n\": 1}\n{\"n\": 2}".utf8), at: start)

        let snapshot = body.snapshot(isComplete: true, now: start)
        let lines = (0..<snapshot.document.lineCount).map { snapshot.document.plainLine($0) }
        #expect(
            lines.last(where: { $0.hasPrefix("▸") }) == "▸ 22:13:20.000  line 2  (unfinished: no line break after it)")
    }

    @Test func ndjsonLinesAreEventsToo() {
        let body = LiveBody(head: head("application/x-ndjson"), started: start, headReceived: start, timeZone: .gmt)
        _ = body.append(Data("{\"n\": 1}\n{\"n\"".utf8), at: start)
        let snapshot: ResponseSnapshot? = body.snapshot(isComplete: false)
        let lines = (0..<snapshot!.document.lineCount).map { snapshot!.document.plainLine($0) }
        #expect(lines == ["▸ 22:13:20.000  line 1", "  {", "    \"n\": 1", "  }"])
    }

    @Test func theStreamedBodyShowsWhileInFlightAndAFollowingEventViewStaysAtTheTail() throws {
        var state = try tuiState(width: 80, height: 24)
        let id = tuiInFlight(&state)
        let body = LiveBody(head: head("text/event-stream"), started: start, headReceived: start, timeZone: .gmt)
        var time = start
        for index in 1...30 {
            time = time.addingTimeInterval(1)
            if body.append(Data("event: tick\nid: \(index)\ndata: {\"n\": \(index)}\n\n".utf8), at: time) {
                _ = tuiReduce(&state, .streamed(exchange: id, body.snapshot(isComplete: false)))
            }
        }
        let text = screenText(state)
        #expect(text.contains("tick  #30"))
        #expect(!text.contains("tick  #1 "))
        #expect(text.contains("live ·"))
    }

    @Test func aLimitLineNamesTheSettingAndWhatArrivedStaysBelow() throws {
        var state = try tuiState(width: 100, height: 30)
        let id = tuiInFlight(&state)
        let body = LiveBody(head: head("application/json"), started: start, headReceived: start, timeZone: .gmt)
        _ = body.append(Data(#"{"kept": true, "more":"#.utf8), at: start)
        _ = tuiReduce(&state, .streamed(exchange: id, body.snapshot(isComplete: false)))
        let error = TransportError.bodyTooLarge(url: URL(string: "http://127.0.0.1/x")!, limit: .bodyBytes(1 << 20))
        _ = tuiReduce(
            &state, .failed(exchange: id, TransportFailure(error, limits: ResponseLimits(maximumBody: 1 << 20))))
        let text = screenText(state)
        #expect(text.contains("body limit"))
        #expect(text.contains("raise max_body in config.yaml"))
        #expect(text.contains("200 OK"))
        #expect(text.contains("\"kept\": true"))
    }

    @Test func theEventViewKeepsTheNewestEventsAndSaysOlderOnesAreInTheRawTab() {
        var log = EventLog(timeZone: .gmt, limit: 3)
        let lines = (1...10).map { #"{"n": \#($0)}"# }.joined(separator: "\n") + "\n"
        // Split mid-line: a line waits for its end.
        let bytes = Data(lines.utf8)
        log.consume(bytes.prefix(25), kind: .jsonLines, at: start)
        log.consume(bytes.dropFirst(25), kind: .jsonLines, at: start)
        let text = log.text
        #expect(text.hasPrefix("(older events are in the Raw tab)\n▸ 22:13:20.000  line 8"))
        #expect(text.components(separatedBy: "▸ ").count - 1 == 3)
        #expect(text.contains("\"n\": 10"))
    }

    @Test func configSetsTheLimits() {
        let config = UserConfig.parse("max_body: 64M\nmax_time: 30\ntimeout: 2.5\n", file: "config.yaml")
        #expect(config.problems.isEmpty)
        #expect(config.limits == ResponseLimits(maximumBody: 64 << 20, maximumTime: 30, idleTimeout: 2.5))
        let wrong = UserConfig.parse("max_body: lots\n", file: "config.yaml")
        #expect(
            wrong.problems == [
                "config.yaml:1: max_body must be a number of bytes such as 1048576, 512K, 256M or 2G; 256 MiB is used."
            ])
    }
}

/// Large bodies spool to an unnamed file and come back through a memory map.
@Suite struct BodySpoolTests {
    @Test func aSpoolHasNoNameAndMapsBackWhatWasWritten() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spool = try BodySpool(in: folder)
        try spool.write(Data("hello ".utf8))
        try spool.write(Data(repeating: UInt8(ascii: "x"), count: 100_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let mapped = try #require(spool.mapped())
        #expect(mapped.count == 100_006)
        #expect(mapped.prefix(6) == Data("hello ".utf8))
        #expect(mapped.last == UInt8(ascii: "x"))
    }

    @Test func bytesTakenEarlierStayAsTheyWereWhileMoreArrive() {
        let bytes = AppendOnlyBytes(capacity: 8)
        #expect(bytes.append(Data("abc".utf8)))
        let early = bytes.data
        #expect(bytes.append(Data("defgh".utf8)))
        #expect(!bytes.append(Data("i".utf8)), "past the capacity nothing is written")
        #expect(early == Data("abc".utf8))
        #expect(bytes.data == Data("abcdefgh".utf8))
    }

    @Test func aSearchOfASpooledBodyLetsItsPagesGoAndTheBytesStayTheSame() throws {
        let spool = try BodySpool()
        let line = Data("{\"filler\": true}\n".utf8)
        var block = Data()
        for _ in 0..<(1 << 16) { block.append(line) }  // about 1 MiB
        for _ in 0..<40 { try spool.write(block) }
        try spool.write(Data("{\"needle\": 1}\n".utf8))
        let mapped = try #require(spool.mapped())
        let lines = RawLines(mapped)
        #expect(lines.lines(containing: "NEEDLE") == [lines.lineCount - 1])
        // Pages let go come back from the file as they were.
        #expect(mapped.prefix(line.count) == line)
        #expect(lines.line(lines.lineCount - 1) == "{\"needle\": 1}")
        #expect(lines.lines(containing: "needle") == [lines.lineCount - 1])
        // Memory that is not a spool mapping is never released: a body in memory keeps its bytes.
        let inMemory = Data(mapped)
        #expect(RawLines(inMemory).lines(containing: "needle") == [lines.lineCount - 1])
        #expect(inMemory.prefix(line.count) == line)
    }

    @Test func bytesMovedOntoTheirSpoolReadTheSameFromTheFileAndTakeNoMoreAppends() throws {
        let bytes = AppendOnlyBytes(capacity: 1 << 20)
        let chunk = Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        #expect(bytes.append(chunk))
        #expect(bytes.append(chunk.prefix(1000)))
        // A frame's view, taken before the body spools.
        let shown = bytes.data
        let spool = try BodySpool()
        try spool.write(shown)
        bytes.moveOnto(spool)
        #expect(shown == chunk + chunk.prefix(1000))
        #expect(bytes.data == shown)
        #expect(!bytes.append(Data("x".utf8)), "the bytes are the spool's now")
        let address = shown.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(
            try Self.mappedPath(of: address)?.contains("explorer-body-") == true, "read from the spool file, not memory"
        )
    }

    @Test func aFrameShownBeforeTheBodySpooledReadsTheSpoolFileAfter() throws {
        let head = ResponseHead(status: .ok, headers: ["Content-Type": "text/plain"], httpVersion: "HTTP/1.1")
        let body = LiveBody(head: head, started: Date(), headReceived: Date(), timeZone: .gmt)
        let line = Data(String(repeating: "abcdefghij", count: 10).appending("\n").utf8)
        var block = Data()
        for _ in 0..<(1 << 20) / line.count { block.append(line) }
        while body.byteCount + block.count <= LiveBody.spoolThreshold { _ = body.append(block, at: Date()) }
        let frame = body.frame(isComplete: false)
        #expect(!body.isSpooled)
        _ = body.append(block, at: Date())
        #expect(body.isSpooled)
        #expect(frame.data.prefix(line.count) == line)
        #expect(frame.snapshot().document.plainLine(0) == String(decoding: line.dropLast(), as: UTF8.self))
        let address = frame.data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(try Self.mappedPath(of: address)?.contains("explorer-body-") == true)
    }

    /// The file mapped at `address` in this process (`nil`: anonymous memory or unmapped).
    private static func mappedPath(of address: UInt) throws -> String? {
        let maps = try Self.procText("/proc/self/maps")
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            let bounds = fields[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            guard bounds.count == 2, bounds[0] <= address, address < bounds[1] else { continue }
            return fields.count > 5 ? String(fields[5]).trimmingCharacters(in: .whitespaces) : nil
        }
        return nil
    }

    @Test func theHistorysCopyOfASpooledBodyLetsThePagesItReadGo() throws {
        let spool = try BodySpool()
        let line = Data("{\"filler\": true}\n".utf8)
        var block = Data()
        for _ in 0..<(1 << 16) { block.append(line) }  // about 1 MiB
        for _ in 0..<4 { try spool.write(block) }
        let mapped = try #require(spool.mapped())
        let address = mapped.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(mapped.reduce(0) { $0 &+ Int($1) } > 0)  // every page read
        #expect(try #require(try Self.residentKiB(of: address)) >= 4 << 10)
        let stored = ExchangeRow.storedBody(mapped.prefix(3 << 20))
        #expect(stored.text?.utf8.count == 3 << 20)
        let rest = (mapped.count - (3 << 20)) / 1024 + 8
        #expect(try #require(try Self.residentKiB(of: address)) <= rest, "only what is past the copy is still resident")
        // The bytes come back from the file.
        #expect(mapped.prefix(line.count) == line)
        // A body in memory is never let go.
        let inMemory = Data(block)
        #expect(ExchangeRow.storedBody(inMemory).text?.utf8.count == block.count)
        #expect(inMemory == block)
    }

    /// A /proc file's whole text. `String(contentsOfFile:)` stops after the first read, which
    /// for these files holds only the first few records.
    private static func procText(_ path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var text = Data()
        while let part = try handle.read(upToCount: 1 << 16), !part.isEmpty { text.append(part) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The resident KiB of the mapping that starts at `address`, from /proc/self/smaps.
    private static func residentKiB(of address: UInt) throws -> Int? {
        let smaps = try Self.procText("/proc/self/smaps")
        var inside = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16), line.contains(" ") {
                inside = start == address
            } else if inside, line.hasPrefix("Rss:") {
                return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
            }
        }
        return nil
    }

    @Test func aBodyPastTheThresholdSpoolsAndKeepsNoCopyInMemory() {
        let head = ResponseHead(
            status: .ok, headers: ["Content-Type": "application/octet-stream"], httpVersion: "HTTP/1.1")
        let body = LiveBody(head: head, started: Date(), headReceived: Date(), timeZone: .gmt)
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0) })
        for _ in 0..<10 { _ = body.append(chunk, at: Date()) }
        #expect(body.byteCount == 10 << 20)
        #expect(body.isSpooled)
        let whole = body.body
        #expect(whole.count == 10 << 20)
        #expect(whole.suffix(1 << 20) == chunk)
        #expect(body.snapshot(isComplete: true).document.byteCount == 10 << 20)
    }
}
