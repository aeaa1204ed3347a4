import Foundation
import NetworkingCore
import Terminal

#if canImport(Glibc)
import Glibc
#endif

/// A response body while it arrives, on the effect side: the bytes so far, their line indexes
/// (built chunk by chunk, so the complete body needs no second pass), the events of an event
/// stream or JSON-lines body, and when to show a new partial snapshot.
///
/// The first chunk is shown at once; later ones at most every `publishInterval`, laid out on
/// another queue one at a time (the chunks never wait for a layout). A snapshot shows all
/// that arrived: laying one out costs the same whatever the size, as lines are printed from
/// the bytes only when drawn. Touched on one serial queue.
///
/// Unchecked `Sendable`, sound because every method runs on that queue (the request's callback
/// queue); other queues get only `Frame`s, which are values.
final class LiveBody: @unchecked Sendable {
    /// How often a new partial snapshot is shown while bytes arrive.
    static let publishInterval: TimeInterval = 0.1
    /// The live event view keeps the newest this many events (the Raw tab keeps all bytes).
    static let eventLimit = 5_000
    /// Bodies past this size spool to an unnamed temporary file, read back through a memory map.
    static let spoolThreshold = 8 * 1024 * 1024

    let head: ResponseHead
    let started: Date
    let headReceived: Date
    /// Where the bytes are: in memory up to `spoolThreshold`, then in a spool file.
    private var storage = Storage.buffer(AppendOnlyBytes(capacity: LiveBody.spoolThreshold))

    private enum Storage {
        /// In memory, shared with the frames shown without a copy.
        case buffer(AppendOnlyBytes)
        /// Past the threshold: on disk, read back through a memory map.
        case spool(BodySpool)
        /// The disk refused the spool: in memory after all.
        case memory(Data)
    }

    /// Bytes received.
    private(set) var byteCount = 0
    private var indexes: BodyDocument.Indexes
    private var lastPublished: Date?
    private let kind: EventLog.Kind?
    /// Made only for a body shown as events: its date formatter loads ICU, whose code and
    /// data any other body would bring into memory for nothing.
    private var log: EventLog?

    init(head: ResponseHead, started: Date, headReceived: Date = Date(), timeZone: TimeZone = .current) {
        self.head = head
        self.started = started
        self.headReceived = headReceived
        self.kind = EventLog.Kind(contentType: head.headers["Content-Type"])
        self.log = kind.map { _ in EventLog(timeZone: timeZone, limit: Self.eventLimit) }
        self.indexes = BodyDocument.Indexes(contentType: head.headers["Content-Type"])
    }

    /// Takes a chunk.
    ///
    /// - Returns: whether it is time to show progress (the first chunk, then every
    ///   `publishInterval`).
    func append(_ chunk: Data, at now: Date) -> Bool {
        byteCount += chunk.count
        indexes.consume(chunk)
        keep(chunk)
        if let kind { log?.consume(chunk, kind: kind, at: now) }
        let due = lastPublished.map { now.timeIntervalSince($0) >= Self.publishInterval } ?? true
        if due { lastPublished = now }
        return due
    }

    private func keep(_ chunk: Data) {
        switch storage {
        case .buffer(let buffer):
            guard !buffer.append(chunk) else { return }
            // Past the threshold the body goes to disk and is read back through a map. The
            // frames shown so far still read the buffer: its bytes become the spool's pages in
            // place, so memory holds none of them from now on.
            if let spool = try? BodySpool() {
                storage = .spool(spool)
                spoolOrKeep(buffer.data, spool)
                if case .spool = storage { buffer.moveOnto(spool) }
            } else {
                storage = .memory(buffer.data)
            }
            keep(chunk)
        case .spool(let spool):
            spoolOrKeep(chunk, spool)
        case .memory(var data):
            storage = .memory(Data())  // the only reference left is `data`: it grows in place
            data.append(chunk)
            storage = .memory(data)
        }
    }

    /// Writes to the spool; when the disk refuses, the rest is kept in memory instead.
    private func spoolOrKeep(_ bytes: Data, _ spool: BodySpool) {
        do {
            try spool.write(bytes)
        } catch {
            // A full disk must not lose the body: back to memory, with what was spooled.
            storage = .memory((spool.mapped() ?? Data()) + bytes)
        }
    }

    /// Whether the body went to a spool file.
    var isSpooled: Bool {
        if case .spool = storage { return true }
        return false
    }

    /// The whole body so far: from memory, or mapped from its spool file.
    var body: Data {
        switch storage {
        case .buffer(let buffer): buffer.data
        case .spool(let spool): spool.mapped() ?? Data()
        case .memory(let data): data
        }
    }

    /// What has arrived, frozen, to lay out on another queue.
    ///
    /// - Parameter isComplete: whether the body has ended.
    func frame(isComplete: Bool, now: Date = Date()) -> Frame {
        Frame(
            head: head, started: started, headReceived: headReceived, now: now, data: body, indexes: indexes,
            isComplete: isComplete,
            events: log.flatMap { log in
                // Once the body has ended, an event it ended in the middle of is shown too.
                let text = isComplete ? log.finishedText(at: now) : log.text
                return text.isEmpty ? nil : text
            })
    }

    /// What has arrived, laid out (the body cut where it stopped).
    func snapshot(isComplete: Bool, now: Date = Date()) -> ResponseSnapshot {
        frame(isComplete: isComplete, now: now).snapshot()
    }

    /// A moment of a live body: the bytes, their indexes and the events so far, laid out by
    /// `snapshot()` off the queue the chunks arrive on.
    struct Frame: Sendable {
        let head: ResponseHead
        let started: Date
        let headReceived: Date
        let now: Date
        let data: Data
        let indexes: BodyDocument.Indexes
        let isComplete: Bool
        let events: String?

        /// The body as the response pane shows it.
        var document: BodyDocument {
            let contentType = head.headers["Content-Type"]
            guard let events else {
                return BodyDocument.make(data, contentType: contentType, isCut: !isComplete, indexes: indexes)
            }
            return BodyDocument.events(
                events, contentType: (contentType ?? "").lowercased(), byteCount: data.count, raw: data,
                rawLines: indexes.raw.lines(of: data))
        }

        func snapshot() -> ResponseSnapshot {
            let document = self.document
            return ResponseSnapshot(
                status: head.status.code, reason: head.status.reasonPhrase, headers: head.headers,
                httpVersion: head.httpVersion, document: document,
                headMilliseconds: headReceived.timeIntervalSince(started) * 1000,
                totalMilliseconds: now.timeIntervalSince(started) * 1000, redirects: [],
                errorSummary: ResponseSnapshot.errorSummary(status: head.status.code, document: document))
        }
    }
}

/// The events of a live body as the event view shows them: one header line per event (`▸`,
/// the time it arrived, its type and id), then its data, pretty when it is JSON, indented.
struct EventLog: Sendable {
    /// The bodies shown as events.
    enum Kind: Sendable {
        case serverSentEvents
        case jsonLines

        init?(contentType: String?) {
            let type = (contentType ?? "").lowercased()
            if type.hasPrefix("text/event-stream") {
                self = .serverSentEvents
            } else if type.contains("ndjson") || type.contains("jsonl") || type.contains("json-seq")
                || type.contains("x-json-stream")
            {
                self = .jsonLines
            } else {
                return nil
            }
        }
    }

    private let formatter: DateFormatter
    private let limit: Int
    private var parser = ServerSentEventParser()
    private var partialLine = Data()
    private var blocks: [String] = []
    private var dropped = 0
    private var lineNumber = 0

    init(timeZone: TimeZone, limit: Int) {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        formatter.timeZone = timeZone
        self.formatter = formatter
        self.limit = limit
    }

    var isEmpty: Bool { blocks.isEmpty }

    /// Takes the next bytes of the body.
    mutating func consume(_ chunk: Data, kind: Kind, at time: Date) {
        let stamp = formatter.string(from: time)
        switch kind {
        case .serverSentEvents:
            for event in parser.consume(chunk) {
                var header = "▸ \(stamp)  \(event.event)"
                if let id = event.id { header += "  #\(id)" }
                add(header, data: event.data)
            }
        case .jsonLines:
            // One pass over the chunk: the bytes after its last line break wait for the next.
            partialLine.append(chunk)
            var start = partialLine.startIndex
            while let newline = partialLine[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: partialLine[start..<newline], as: UTF8.self)
                start = partialLine.index(after: newline)
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                lineNumber += 1
                add("▸ \(stamp)  line \(lineNumber)", data: line)
            }
            partialLine = Data(partialLine[start...])
        }
    }

    private mutating func add(_ header: String, data: String) {
        var body = data
        let bytes = Array(data.utf8)
        if let first = bytes.first(where: { !$0.isJSONWhitespace }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let pretty = bytes.withUnsafeBytes({ JSONPrettyPrinter.prettyPrint($0) })
        {
            body = String(decoding: pretty, as: UTF8.self)
        }
        let indented = body.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
            separator: "\n")
        blocks.append(header + "\n" + indented)
        // Trimmed in batches: dropping the oldest one event at a time moves every other.
        if blocks.count >= limit * 2 {
            dropped += blocks.count - limit
            blocks.removeFirst(blocks.count - limit)
        }
    }

    /// The events as text, oldest first.
    var text: String {
        let note = dropped > 0 || blocks.count > limit ? "(older events are in the Raw tab)\n" : ""
        return note + blocks.suffix(limit).joined(separator: "\n")
    }

    /// The events as text once the body has ended: an event the stream ended in the middle
    /// of (no blank line after it: an `EventSource` drops it), or a last NDJSON line with no
    /// line break, is shown last, marked unfinished.
    ///
    /// - Parameter time: when the body ended.
    func finishedText(at time: Date) -> String {
        var log = self
        let stamp = formatter.string(from: time)
        if let event = log.parser.finish() {
            var header = "▸ \(stamp)  \(event.event)"
            if let id = event.id { header += "  #\(id)" }
            log.add(header + "  (unfinished: the stream ended before its blank line)", data: event.data)
        }
        let line = String(decoding: log.partialLine, as: UTF8.self)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            log.add("▸ \(stamp)  line \(log.lineNumber + 1)  (unfinished: no line break after it)", data: line)
        }
        return log.text
    }

    /// Colours one line of the event view: a header line, or data (JSON-highlighted).
    static func spans(_ line: String) -> [Span] {
        guard line.hasPrefix("▸ ") else { return JSONHighlighter.spans(line) }
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count == 3 else { return [Span(line, role: .title)] }
        return [
            Span("▸ ", role: .dim), Span(String(parts[1]), role: .dim),
            Span("  " + parts[2].trimmingCharacters(in: .whitespaces), role: .title),
        ]
    }
}

/// The live body of one request, set when its head arrives; touched only on that request's
/// serial callback queue (head, chunks, then the outcome).
///
/// Unchecked `Sendable`, sound because of that confinement: the layout queue hands `laying`
/// back by dispatching to the callback queue, never by writing it itself.
final class LiveBodySlot: @unchecked Sendable {
    var body: LiveBody?
    /// Whether a partial snapshot is being laid out (the next one waits for it).
    var laying = false
}

/// Bytes appended up to a fixed capacity and never changed once written, so every `data`
/// taken so far stays valid and shares the memory: a frame shown while more bytes arrive costs
/// no copy (a growing `Data` would be copied whole by the next append while a frame holds it).
/// The capacity is mapped, not allocated: its pages take memory only once written, and when
/// the body spools they give way to the spool file's (`moveOnto(_:)`).
///
/// Unchecked `Sendable`, sound because `base` and the capacity are immutable, `count` and
/// `isMoved` change only on the owning `LiveBody`'s queue, and the bytes below a `data` taken
/// there are never written again (`moveOnto(_:)` swaps in a mapping of the same bytes).
final class AppendOnlyBytes: @unchecked Sendable {
    private let base: UnsafeMutableRawPointer
    private let mappedLength: Int
    let capacity: Int
    /// Bytes written. Appended on one queue; `data` may be read on any once handed over.
    private(set) var count = 0
    /// Whether the bytes are the spool file's pages now (nothing more is appended).
    private var isMoved = false

    init(capacity: Int) {
        self.capacity = capacity
        mappedLength = BodySpool.pageRounded(max(1, capacity))
        guard let address = mmap(nil, mappedLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            address != MAP_FAILED
        else { fatalError("Out of address space for a \(capacity)-byte body buffer") }
        base = address
    }

    deinit { munmap(base, mappedLength) }

    /// Appends `chunk` when it fits.
    ///
    /// - Returns: `false`, writing nothing, when it does not (or the bytes were moved).
    func append(_ chunk: Data) -> Bool {
        guard !isMoved, chunk.count <= capacity - count else { return false }
        chunk.copyBytes(to: (base + count).assumingMemoryBound(to: UInt8.self), count: chunk.count)
        count += chunk.count
        return true
    }

    /// Puts the pages of `spool`, which starts with these bytes, where the bytes are: every
    /// `data` taken reads the same bytes at the same addresses, from the file as they are
    /// touched, and the memory they took is freed at once (the frames that still hold the
    /// buffer would otherwise keep all of it until the last one goes). Nothing more is
    /// appended. When the file cannot be mapped, the bytes stay in memory as they were.
    ///
    /// - Parameter spool: the spool the bytes were written to, first.
    func moveOnto(_ spool: BodySpool) {
        guard !isMoved, count > 0, spool.size >= count else { return }
        isMoved = spool.map(over: base, length: count)
    }

    /// The bytes written so far, without a copy (they keep this buffer alive).
    var data: Data {
        guard count > 0 else { return Data() }
        return Data(bytesNoCopy: base, count: count, deallocator: .custom { _, _ in withExtendedLifetime(self) {} })
    }
}
