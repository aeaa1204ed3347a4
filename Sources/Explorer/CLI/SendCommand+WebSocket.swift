import ArgumentParser
import Foundation
import History
import NetworkingCore
import Workspace

/// `send`'s options for a WebSocket endpoint.
struct WebSocketSendOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "On a WebSocket endpoint: a message to send, a template (repeatable; "
                + "@NAME sends the endpoint's saved message NAME). Without it, "
                + "lines on stdin are sent when stdin is not a terminal.",
            valueName: "TEXT"))
    var message: [String] = []

    @Option(
        name: .long, help: ArgumentHelp("On a WebSocket endpoint: close after N received messages.", valueName: "N"))
    var count: Int?

    @Option(
        name: .long,
        help: ArgumentHelp("On a WebSocket endpoint: close after S seconds without a message.", valueName: "S"))
    var wait: Double?

    func validate() throws {
        if let count, count < 1 { throw ExchangeSender.usageError("--count must be 1 or more.") }
        if let wait, !(wait > 0) {
            throw ExchangeSender.usageError("--wait must be a number of seconds greater than 0.")
        }
    }
}

/// Opens a WebSocket endpoint, sends the messages, prints what arrives and ends as asked.
///
/// Exit codes: 0 after a normal close (1000 or 1001, or `--count`/`--wait` ending it), 1 for a
/// failed upgrade or any other close, 2 for usage and variable errors.
struct WebSocketSender {
    let options: WebSocketSendOptions
    let output: ExchangeOutputOptions

    /// Opens the session through the dispatcher `explorer send` uses for a request, so the
    /// environment's `auth:` (OAuth2 included), cookies and `tls:` apply to the upgrade.
    func run(
        _ resolved: ResolvedRequest, through sender: ExchangeSender, collectionPath: String?, recorder: HistoryRecorder?
    ) async throws {
        let texts = try messages(of: resolved)
        guard let url = URL(string: resolved.url) else {
            printError("The URL \(resolved.maskedURL) is not valid.")
            throw ExitCode(2)
        }
        let request = PreparedRequest(method: .get, url: url, headers: resolved.request.headers)
        let started = Date()
        var socketOptions = WebSocketOptions()
        if let timeout = output.timeout { socketOptions.connectTimeout = .milliseconds(Int(timeout * 1000)) }
        if let maxBody = output.maxBodyBytes { socketOptions.maximumMessageSize = maxBody }
        let cap = HistoryConfiguration.fromEnvironment().bodyCap
        let session: WebSocketSession
        do {
            let transport = AsyncHTTPClientTransport(configuration: sender.transportConfiguration)
            defer { Task { try? await transport.shutdown() } }
            let dispatcher = resolved.dispatcher(
                transport: transport, cookieJar: sender.cookieJar, prompt: ExchangeSender.showOAuth2Prompt)
            session = try await dispatcher.webSocket(request, options: socketOptions)
        } catch {
            let failure = sentence(describing: error)
            recorder?.record(
                HistoryEntry(
                    webSocket: resolved, startedAt: started, collectionPath: collectionPath, transcript: nil,
                    closing: nil, failure: failure),
                secrets: resolved.masker.secretValues)
            printError(resolved.masker.mask(failure))
            throw ExitCode(1)
        }

        let sender = Task {
            for text in texts { try await session.send(text: text) }
            guard texts.isEmpty, !ExchangeOutput.stdinIsTerminal else { return }
            // stdin is read on a thread of its own: a blocking read must not hold one of the
            // few threads the tasks run on.
            let (lines, continuation) = AsyncStream.makeStream(of: String.self)
            Thread.detachNewThread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            for await line in lines {
                try Task.checkCancellation()
                try await session.send(text: try resolved.expand(line))
            }
        }
        defer { sender.cancel() }

        var transcript = WebSocketTranscript(limit: cap)
        var received = 0
        var closing: WebSocketClosing?
        let silence = options.wait.map { Duration.milliseconds(Int($0 * 1000)) }
        var closeRequested = false
        while closing == nil {
            switch await session.events.next(within: closeRequested ? nil : silence) {
            case .timedOut:
                closeRequested = true
                try? await session.close(code: 1000, reason: "no message for \(Self.seconds(options.wait ?? 0))")
            case .event(nil):
                closing = WebSocketClosing(
                    code: 1006, initiator: .connection, failure: "the session ended without a closing")
            case .event(let event?):
                transcript.append(event)
                switch event {
                case .closed(let end):
                    closing = end
                    if output.json { ExchangeOutput.write(WebSocketTranscript.jsonLine(event) + "\n") }
                case .entry(let message):
                    guard message.direction == .received, message.kind == .text || message.kind == .binary else {
                        continue
                    }
                    received += 1
                    print(message, event: event)
                    if let count = options.count, received >= count, !closeRequested {
                        closeRequested = true
                        try? await session.close(code: 1000, reason: "\(count) messages received")
                    }
                }
            }
        }
        let end = closing ?? WebSocketClosing(code: 1006, initiator: .connection)
        recorder?.record(
            HistoryEntry(
                webSocket: resolved, startedAt: started, collectionPath: collectionPath, transcript: transcript,
                closing: end),
            secrets: resolved.masker.secretValues)
        if !output.json || !end.isNormal { printError(end.description) }
        if !end.isNormal { throw ExitCode(1) }
    }

    /// Prints one received message: its JSON line with `--json`, else its text (binary as hex).
    private func print(_ message: WebSocketEntry, event: WebSocketEvent) {
        if output.json {
            ExchangeOutput.write(WebSocketTranscript.jsonLine(event) + "\n")
        } else if message.kind == .binary {
            ExchangeOutput.write(WebSocketTranscript.hex(message.data) + "\n")
        } else {
            ExchangeOutput.write(
                ExchangeOutput.printableBody(
                    message.data, contentType: "text/plain; charset=utf-8", terminal: ExchangeOutput.stdoutIsTerminal))
            ExchangeOutput.write("\n")
        }
    }

    /// The `--message` texts, saved messages (`@NAME`) looked up, templates resolved.
    ///
    /// - Throws: `ExitCode(2)` after a sentence for an undefined variable.
    private func messages(of resolved: ResolvedRequest) throws -> [String] {
        let saved = resolved.endpoint.savedMessages
        do {
            return try options.message.map { text in
                if text.hasPrefix("@"), let message = saved.first(where: { $0.name == String(text.dropFirst()) }) {
                    return try resolved.expand(message.text)
                }
                return try resolved.expand(text)
            }
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(2)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
