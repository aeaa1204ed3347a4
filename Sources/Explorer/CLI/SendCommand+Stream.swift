import ArgumentParser
import Foundation
import History
import NetworkingCore
import Workspace

/// `explorer send` when the body is printed as it arrives: with `--stream`, or whenever stdout
/// is not a terminal. Memory stays flat whatever the body's size: chunks go to stdout as they
/// come (a slow reader slows the transfer), and only the history's capped copy is kept.
extension ExchangeSender {
    /// Sends, printing the head (with `--include`) and the body as it arrives, records a capped
    /// copy, and ends with the right exit code.
    ///
    /// - Parameters:
    ///   - plan: what to send.
    ///   - recorder: where to record the exchange (`nil` with `--no-history`).
    ///   - output: how to print it.
    /// - Throws: `ExitCode` 1 (transport failure, limit, deadline), 4 or 5 (with `--check-status`).
    func stream(_ plan: Plan, recorder: HistoryRecorder?, output: ExchangeOutputOptions) async throws {
        let terminal = ExchangeOutput.stdoutIsTerminal
        let transport = AsyncHTTPClientTransport(configuration: transportConfiguration)
        defer { Task { try? await transport.shutdown() } }
        let started = Date()
        var entry: HistoryEntry
        let streamed: StreamedResponse
        do {
            switch plan.target {
            case .resolved(let resolved):
                entry = HistoryEntry(sending: resolved, startedAt: started, collectionPath: plan.collectionPath)
                let dispatcher = resolved.dispatcher(
                    transport: transport, cookieJar: cookieJar, prompt: Self.showOAuth2Prompt)
                // The dispatcher holds its server provider weakly: keep it until the head is in.
                streamed = try await dispatcher.stream(from: resolved.request, options: transferOptions)
                withExtendedLifetime(resolved.environment) {}
            case .raw(let request):
                entry = HistoryEntry(
                    startedAt: started, method: request.method.rawValue, url: request.url.absoluteString,
                    requestHeaders: request.headers, requestBody: request.body)
                streamed = try await transport.stream(request, options: transferOptions)
            }
        } catch {
            var failed = HistoryEntry(
                startedAt: started, method: plan.method.rawValue, url: plan.displayURL, requestHeaders: [:],
                requestBody: nil)
            if case .resolved(let resolved) = plan.target {
                failed = HistoryEntry(sending: resolved, startedAt: started, collectionPath: plan.collectionPath)
            }
            failed.collectionPath = plan.collectionPath
            failed.fail(failureSentence(for: error), started: started)
            recorder?.record(failed, secrets: plan.secrets)
            printError(failureSentence(for: error))
            throw ExitCode(1)
        }
        entry.collectionPath = plan.collectionPath

        let head = streamed.head
        let contentType = head.headers["Content-Type"]
        var kept = HistoryCopy(cap: HistoryConfiguration.fromEnvironment().bodyCap)
        var failure: (any Error)?
        var printer = BodyPrinter(terminal: terminal, events: output.stream && Self.isEventStream(contentType))
        do {
            var described = entry
            described.fill(
                status: head.status, headers: head.headers, body: nil, httpVersion: head.httpVersion,
                timings: ResponseTimings(
                    started: started, headReceived: streamed.headReceived, finished: Date(),
                    redirects: streamed.redirects))
            if output.include { try Self.emit(Data(ExchangeOutput.head(of: described, terminal: terminal).utf8)) }
            if case .resolved(let resolved) = plan.target { described.maskRedirects(with: resolved.masker) }
            printNotes(for: described, bodyToCome: true)
            for try await chunk in streamed.body {
                kept.append(chunk)
                try Self.emit(printer.print(chunk))
            }
            try Self.emit(printer.finish())
            if printer.endedInsideEvent {
                printError(
                    "Note: the event stream ended in the middle of an event (no blank line after it): "
                        + "it is printed last, "
                        + "though an EventSource would drop it.")
            }
        } catch let error as StdoutClosed {
            streamed.body.cancel()
            failure = error
        } catch {
            try? Self.emit(printer.finish())
            failure = error
        }
        entry.fill(
            status: head.status, headers: head.headers, body: kept.data, httpVersion: head.httpVersion,
            timings: ResponseTimings(
                started: started, headReceived: streamed.headReceived, finished: Date(), bytesReceived: kept.total,
                redirects: streamed.redirects))
        if case .resolved(let resolved) = plan.target { entry.maskRedirects(with: resolved.masker) }
        entry.responseBodySize = kept.total
        if let failure {
            entry.transportError = failureSentence(for: failure)
        }
        recorder?.record(entry, secrets: plan.secrets)
        if let failure {
            printError(failureSentence(for: failure, received: kept.total))
            throw ExitCode(1)
        }
        try Self.checkStatus(entry, output: output)
    }

    /// Standard output was closed by its reader (`| head`): the transfer stops.
    struct StdoutClosed: Error, CustomStringConvertible {
        let reason: String
        var description: String {
            "Stopped: standard output was closed (\(reason)); the rest of the body was not read."
        }
    }

    /// Writes to standard output, or throws `StdoutClosed` when it cannot (a closed pipe).
    static func emit(_ data: Data) throws {
        guard !data.isEmpty else { return }
        do {
            try FileHandle.standardOutput.write(contentsOf: data)
        } catch {
            throw StdoutClosed(reason: errno == EPIPE ? "broken pipe" : "\(error)")
        }
    }

    /// The options every exchange is sent with: the total deadline, the idle timeout (through
    /// the transport's configuration) and the body limit.
    var transferOptions: TransferOptions {
        TransferOptions(
            timeout: maxTime.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            idleTimeout: timeout.map { .milliseconds(Int64(($0 * 1000).rounded())) },
            maximumBodySize: maxBody ?? Self.defaultMaximumBody,
            maximumDecompressedSize: maxBody ?? Self.defaultMaximumBody,
            followsRedirects: followsRedirects ? nil : false, maximumRedirects: maxRedirects)
    }

    /// The redirect limit unless `--max-redirs` says otherwise (curl's and the transport's).
    static let defaultMaximumRedirects = 10

    /// The body limit unless `--max-body` says otherwise: 2 GiB.
    static let defaultMaximumBody = 2 << 30

    /// The sentence for a failure, with the flag that changes the limit it passed.
    ///
    /// - Parameters:
    ///   - error: the failure.
    ///   - received: body bytes received before it, when known.
    /// - Returns: one or two sentences.
    func failureSentence(for error: any Error, received: Int? = nil) -> String {
        let kept = received.map { " (\($0) bytes of body received)" } ?? ""
        switch error as? TransportError {
        case .timedOut(let url, let phase)? where phase.contains("total deadline"):
            let limit = maxTime.map { "--max-time \(Self.seconds($0))" } ?? "the default total deadline"
            return
                "Stopped at \(limit): \(url.absoluteString) had not finished its response\(kept). "
                + "Raise --max-time to wait longer."
        case .timedOut(let url, let phase)? where phase.hasPrefix("no complete response head"):
            // The idle timeout bounds the wait for the whole head: a server that drips it byte
            // by byte has sent something, but not a complete head.
            let limit = timeout.map { "--timeout \(Self.seconds($0))" } ?? "the default idle timeout"
            return "Stopped at \(limit): \(url.absoluteString) had not sent a complete response head in that time "
                + "(it may have sent part of it: the idle timeout bounds the wait for the whole head). "
                + "Raise --timeout to wait longer."
        case .timedOut(let url, let phase)? where phase.hasPrefix("no ") || phase == "reading":
            let limit = timeout.map { "--timeout \(Self.seconds($0))" } ?? "the default idle timeout"
            return
                "Stopped at \(limit): \(url.absoluteString) sent nothing for that long (\(phase))\(kept). "
                + "Raise --timeout to wait longer."
        case .bodyTooLarge(let url, let limit)?:
            let advice =
                switch limit {
                case .bodyBytes, .decompressedBytes: "Raise it with --max-body BYTES (K, M, G suffixes)."
                case .decompressionRatio: "The body inflates far more than real data does; it was not read further."
                }
            return "Stopped: the response from \(url.absoluteString) passed \(limit)\(kept). \(advice)"
        case .tooManyRedirects(let url, let limit)?:
            let flag = maxRedirects == nil ? "the default --max-redirs \(limit)" : "--max-redirs \(limit)"
            return "Stopped at \(flag): \(url.absoluteString) was still redirecting after \(limit) redirects. "
                + "Raise --max-redirs to follow more, or add --no-follow to see the first redirect."
        default:
            if let closed = error as? StdoutClosed { return closed.description }
            return sentence(describing: error)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Whether a `Content-Type` is an event stream.
    static func isEventStream(_ contentType: String?) -> Bool {
        contentType?.lowercased().hasPrefix("text/event-stream") == true
    }
}

/// The first bytes of a body, up to the history's cap, and the full count.
struct HistoryCopy {
    let cap: Int
    private(set) var data = Data()
    private(set) var total = 0

    mutating func append(_ chunk: Data) {
        total += chunk.count
        let room = cap - data.count
        if room > 0 { data.append(chunk.prefix(room)) }
    }
}

/// Turns chunks into what stdout gets: the bytes as they are when piped, control characters
/// escaped on a terminal, or (for an event stream with `--stream`) one block per event.
struct BodyPrinter {
    let terminal: Bool
    let events: Bool
    private var parser = ServerSentEventParser()
    private var pendingText = Data()

    init(terminal: Bool, events: Bool) {
        self.terminal = terminal
        self.events = events
    }

    /// What to write for one chunk.
    mutating func print(_ chunk: Data) -> Data {
        if events {
            let text = parser.consume(chunk).map(Self.describe).joined()
            return Data((terminal ? ExchangeOutput.escapingControls(text) : text).utf8)
        }
        guard terminal else { return chunk }
        // A UTF-8 character may be cut between chunks: keep the incomplete tail for the next.
        pendingText.append(chunk)
        let complete = Self.completeUTF8Prefix(pendingText)
        let text = String(decoding: pendingText.prefix(complete), as: UTF8.self)
        pendingText = Data(pendingText.suffix(from: pendingText.startIndex + complete))
        return Data(ExchangeOutput.escapingControls(text).utf8)
    }

    /// Whether the body ended in the middle of an event (no blank line after it): `finish()`
    /// printed that event, which an `EventSource` would drop.
    private(set) var endedInsideEvent = false

    /// What to write when the body ends.
    mutating func finish() -> Data {
        if events {
            guard let event = parser.finish() else { return Data() }
            endedInsideEvent = true
            let text = Self.describe(event)
            return Data((terminal ? ExchangeOutput.escapingControls(text) : text).utf8)
        }
        guard terminal, !pendingText.isEmpty else { return Data() }
        defer { pendingText = Data() }
        return Data(ExchangeOutput.escapingControls(String(decoding: pendingText, as: UTF8.self)).utf8)
    }

    /// One event as a block: a line with the time, type and id, then the data (pretty when it
    /// is JSON), then a blank line.
    static func describe(_ event: ServerSentEvent) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        var line = "\(formatter.string(from: Date())) \(event.event)"
        if let id = event.id { line += " id=\(id)" }
        var data = event.data
        if let value = JSONValue.container(parsing: data) { data = value.serialized(pretty: true) }
        return line + "\n" + data + "\n\n"
    }

    /// The length of the longest prefix that does not end inside a UTF-8 character.
    static func completeUTF8Prefix(_ data: Data) -> Int {
        let bytes = Array(data.suffix(3))
        for back in 1...max(1, bytes.count) where back <= bytes.count {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return length > back ? data.count - back : data.count
        }
        return data.count
    }
}
