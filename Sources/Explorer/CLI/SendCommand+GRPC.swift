import App
import ArgumentParser
import Checks
import Foundation
import GRPCSupport
import History
import NetworkingCore
import NetworkingGRPC
import ProtoCodec
import Synchronization
import Workspace

/// `send`'s options for a gRPC endpoint.
struct GRPCSendOptions: ParsableArguments {
    @Option(
        name: [.customShort("d"), .long],
        help: ArgumentHelp(
            "On a gRPC endpoint: the request messages instead of the endpoint's, JSON objects one after "
                + "another (as grpcurl's -d); @FILE reads them from a file, @- from stdin.",
            valueName: "JSON"))
    var data: String?

    @Option(
        name: .long,
        help: ArgumentHelp("On a gRPC endpoint: the :authority the call names (default: host:port).", valueName: "HOST")
    )
    var authority: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "On a gRPC endpoint: the largest message either way, in bytes or with a K, M or G suffix (default 4M).",
            valueName: "BYTES"))
    var maxMessageSize: String?

    /// `--max-message-size` in bytes (checked by `validate`), when given.
    var maximumMessageSize: Int? { maxMessageSize.flatMap(ResponseLimits.byteCount) }

    func validate() throws {
        if let maxMessageSize, ResponseLimits.byteCount(maxMessageSize) == nil {
            throw ExchangeSender.usageError(
                "--max-message-size expects a number of bytes such as 4194304, 512K or 16M, not \"\(maxMessageSize)\"."
            )
        }
    }

    /// The messages `--data` gives, or nil without it: the text's, or those of a file or of
    /// standard input (`@FILE`, `@-`), read as they come so that a client or bidirectional
    /// stream sends each one when it is complete.
    ///
    /// - Throws: exit code 2 after one line when the file does not open or the text is not JSON objects.
    func input() throws -> GRPCRequestInput? {
        guard let data else { return nil }
        let longest = max(4 * (maximumMessageSize ?? GRPCCallPlan.defaultMaximumMessageSize), 1 << 20)
        if data == "@-" {
            return .streamed(GRPCMessageInput.stream(from: .standardInput, maximumObjectSize: longest))
        }
        if data.hasPrefix("@") {
            let path = String(data.dropFirst())
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw ExchangeSender.usageError("-d @\(path): the file does not open.")
            }
            return .streamed(GRPCMessageInput.stream(from: handle, maximumObjectSize: longest))
        }
        do {
            return .given(try GRPCMessageInput.messages(in: data))
        } catch {
            throw ExchangeSender.usageError("-d: \(error)")
        }
    }
}

/// The request messages of a call, when they are not the endpoint's.
enum GRPCRequestInput: Sendable {
    /// Messages given whole (`-d JSON`).
    case given([JSONValue])
    /// Messages read as they come (`-d @-`, `-d @FILE`).
    case streamed(AsyncThrowingStream<JSONValue, any Error>)

    /// The same input, each message also given to `onMessage` as it goes.
    func observed(_ onMessage: @escaping @Sendable (JSONValue) -> Void) -> GRPCRequestInput {
        switch self {
        case .given(let messages):
            messages.forEach(onMessage)
            return self
        case .streamed(let messages):
            let (stream, continuation) = AsyncThrowingStream<JSONValue, any Error>.makeStream()
            let forwarding = Task {
                do {
                    for try await message in messages {
                        onMessage(message)
                        continuation.yield(message)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in forwarding.cancel() }
            return .streamed(stream)
        }
    }
}

/// Makes gRPC calls for `send` and for the sequence runner (`run`, `send` with checks): the
/// schema from the process's cache, the messages encoded before anything is sent, the outcome
/// as history keeps it and as checks read it.
struct GRPCCaller: Sendable {
    /// The schemas read in this process.
    static let schemas = GRPCSchemaCache()

    /// The collection file, where `protoset:`/`protos:` and `tls:` paths start.
    let collectionFile: URL?
    /// The collection's schema files.
    let schemaFiles: GRPCSchemaFiles
    /// `--max-message-size`: the largest message either way, over the endpoint's.
    var maximumMessageSize: Int?
    var authority: String?
    /// `--max-time`: the call's deadline in seconds, over the endpoint's `timeout:`.
    var deadline: Double?

    /// Why a call was not made or did not end with a status: a sentence, masked, and whether
    /// it is the collection's or the input's fault (exit 2) or the connection's (exit 1).
    struct Failure: Error {
        let sentence: String
        let isUsage: Bool
    }

    /// Calls a resolved gRPC endpoint.
    ///
    /// - Parameters:
    ///   - resolved: the endpoint, resolved.
    ///   - input: messages sent instead of the endpoint's (`-d`).
    ///   - onMessage: each response message as it is decoded.
    /// - Returns: the outcome and the method; a non-OK status is in the outcome.
    func call(
        _ resolved: ResolvedRequest, input: GRPCRequestInput? = nil,
        onMessage: @Sendable (GRPCReceivedMessage) -> Void = { _ in }
    ) async -> Result<(outcome: GRPCOutcome, method: ProtoMethod), Failure> {
        let masker = resolved.masker
        let plan: GRPCCallPlan
        do {
            plan = try GRPCCallPlan(resolved, collectionFile: collectionFile)
        } catch {
            return .failure(Failure(sentence: masker.mask(String(describing: error)), isUsage: true))
        }
        let (dispatcher, server) = plan.dispatcher()
        defer {
            withExtendedLifetime(server) {}
            Task { await dispatcher.shutdown() }
        }
        let folder =
            collectionFile?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let exchange: GRPCExchange
        var requests: [[UInt8]] = []
        var streamed: AsyncThrowingStream<JSONValue, any Error>?
        do {
            exchange = try await Self.schemas.exchange(
                method: plan.method, files: schemaFiles, folder: folder, dispatcher: dispatcher,
                server: plan.server.absoluteString)
            switch input {
            case nil: requests = try exchange.encode(plan.messages)
            case .given(let messages): requests = try exchange.encode(messages)
            case .streamed(let messages) where exchange.method.kind.clientStreams: streamed = messages
            case .streamed(let messages):
                // One message goes: read them all (two are refused) before anything is sent.
                var list: [JSONValue] = []
                for try await message in messages {
                    list.append(message)
                    if list.count > 1 { break }
                }
                requests = try exchange.encode(list)
            }
        } catch let error as GRPCMessageInputError {
            return .failure(Failure(sentence: "-d: \(error)", isUsage: true))
        } catch let error as GRPCSchemaError {
            return .failure(Failure(sentence: masker.mask(error.description), isUsage: true))
        } catch let error as GRPCExchangeError {
            return .failure(Failure(sentence: masker.mask(error.description), isUsage: true))
        } catch let error as ProtoCodecError {
            return .failure(Failure(sentence: masker.mask(error.description), isUsage: true))
        } catch {
            return .failure(Failure(sentence: masker.mask(sentence(describing: error)), isUsage: false))
        }
        var options = plan.callOptions
        if let deadline { options.timeout = .milliseconds(Int64((deadline * 1000).rounded())) }
        if let maximumMessageSize {
            options.maximumRequestSize = maximumMessageSize
            options.maximumResponseSize = maximumMessageSize
        }
        options.authority = authority
        do {
            let outcome =
                if let streamed {
                    try await exchange.call(
                        streaming: streamed, metadata: plan.metadata, through: dispatcher, options: options,
                        onMessage: onMessage)
                } else {
                    try await exchange.call(
                        requests, metadata: plan.metadata, through: dispatcher, options: options, onMessage: onMessage)
                }
            return .success((outcome, exchange.method))
        } catch let error as GRPCRequestMessageError {
            return .failure(Failure(sentence: masker.mask(error.description), isUsage: true))
        } catch {
            return .failure(Failure(sentence: masker.mask(sentence(describing: error)), isUsage: false))
        }
    }

    /// Calls a resolved gRPC endpoint for the sequence runner: the history entry, and what its
    /// checks read.
    func exchange(_ resolved: ResolvedRequest, collectionPath: String?) async -> SentExchange<HistoryEntry> {
        let started = Date()
        let messages = resolved.grpcMessages ?? []
        switch await call(resolved) {
        case .success(let (outcome, method)):
            let entry = HistoryEntry(
                grpc: resolved, requestMessages: messages, startedAt: started, collectionPath: collectionPath,
                record: outcome.record)
            return SentExchange(response: outcome.checkedResponse(kind: method.kind), failure: nil, record: entry)
        case .failure(let failure):
            let entry = HistoryEntry(
                grpc: resolved, requestMessages: messages, startedAt: started, collectionPath: collectionPath,
                record: nil, failure: failure.sentence)
            return SentExchange(response: nil, failure: failure.sentence, record: entry)
        }
    }
}

/// Calls a gRPC endpoint, prints each message as it arrives and the status when it is not OK.
///
/// Exit codes: 0 for OK; 64 + the status code for any other status (as grpcurl: 69 for
/// NOT_FOUND, 76 for UNIMPLEMENTED); 1 when the server cannot be reached or answers outside
/// gRPC; 2 for usage, collection and schema errors (a message that does not match its type).
struct GRPCSender {
    let options: GRPCSendOptions
    let output: ExchangeOutputOptions

    /// The caller these options make.
    static func caller(collection: APICollection, collectionFile: URL?, options: GRPCSendOptions?, maxTime: Double?)
        -> GRPCCaller
    {
        var caller = GRPCCaller(collectionFile: collectionFile, schemaFiles: collection.grpcSchema)
        caller.maximumMessageSize = options?.maximumMessageSize
        caller.authority = options?.authority
        caller.deadline = maxTime
        return caller
    }

    /// Calls the resolved endpoint, prints what comes and records the call.
    ///
    /// Ctrl-C cancels the call on the wire (its HTTP/2 stream is reset, as grpcurl's), keeps
    /// what came in history and exits 130, as a shell reports an interrupted command; a second
    /// Ctrl-C ends the process at once.
    func run(
        _ resolved: ResolvedRequest, collection: APICollection, collectionFile: URL?, recorder: HistoryRecorder?
    ) async throws {
        let sentMessages = SentMessages()
        let input = try options.input().map { $0.observed { sentMessages.add($0) } }
        let caller = Self.caller(
            collection: collection, collectionFile: collectionFile, options: options, maxTime: output.maxTime)
        let masker = resolved.masker
        let pretty = ExchangeOutput.stdoutIsTerminal
        let printsAsItComes = !output.json
        let started = Date()
        let calling = Task {
            await caller.call(
                resolved, input: input,
                onMessage: { message in
                    guard printsAsItComes else { return }
                    printLine(masker.mask(message.json.serialized(pretty: pretty)))
                })
        }
        let interruption = Interruption { _ in calling.cancel() }
        let result = await calling.value
        let interrupted = interruption.end()
        let sent = input == nil ? resolved.grpcMessages ?? [] : sentMessages.list
        switch result {
        case .failure(let failure):
            recorder?.record(
                HistoryEntry(
                    grpc: resolved, requestMessages: sent, startedAt: started, collectionPath: collectionFile?.path,
                    record: nil, failure: failure.sentence),
                secrets: masker.secretValues)
            printError(failure.sentence)
            throw ExitCode(interrupted ? 130 : failure.isUsage ? 2 : 1)
        case .success(let (outcome, method)):
            let record = outcome.record
            let historyId = recorder?.record(
                HistoryEntry(
                    grpc: resolved, requestMessages: sent, startedAt: started, collectionPath: collectionFile?.path,
                    record: record),
                secrets: masker.secretValues)
            if output.json {
                let object = Self.jsonObject(record, resolved: resolved, method: method, historyId: historyId)
                printLine(masker.mask(object.serialized()))
            } else {
                if output.include {
                    for entry in outcome.headers.entries + outcome.trailers.entries {
                        writeStandardError("\(entry.name): \(masker.mask(entry.value.description))\n")
                    }
                }
                Self.reportStatus(record, masker: masker)
            }
            if interrupted { throw ExitCode(130) }
            if !outcome.status.isOK { throw ExitCode(Int32(64 + outcome.status.code)) }
        }
    }

    /// A status other than OK as one line on stderr, then its details.
    static func reportStatus(_ record: GRPCCallRecord, masker: SecretMasker) {
        guard record.statusCode != 0 else { return }
        let message = record.statusMessage.isEmpty ? "" : ": \(record.statusMessage)"
        printError(masker.mask("ERROR: \(record.statusName) (\(record.statusCode))\(message)"))
        if let details = record.details {
            writeStandardError(masker.mask(details.serialized(pretty: true)) + "\n")
        }
    }

    /// `--json`'s object: `grpc` (status, code, message, headers, trailers, messages, details)
    /// beside the method, URL, environment, endpoint, timings and history id HTTP's has.
    static func jsonObject(_ record: GRPCCallRecord, resolved: ResolvedRequest, method: ProtoMethod, historyId: Int64?)
        -> JSONValue
    {
        .object([
            ("method", .string(method.path)),
            ("kind", .string(method.kind.rawValue)),
            ("url", .string(resolved.maskedURL)),
            ("environment", .string(resolved.environment.name)),
            ("endpoint", .string(resolved.endpoint.id)),
            ("grpc", record.json),
            (
                "timings",
                .object([
                    ("headers", record.headersMilliseconds.map { JSONValue($0) } ?? .null),
                    ("total", JSONValue(record.totalMilliseconds)),
                ])
            ),
            ("historyId", historyId.map { JSONValue(Int($0)) } ?? .null),
        ])
    }
}

/// The request messages `-d` sent, as history keeps them: the first ones, up to what history
/// keeps of a body.
private final class SentMessages: Sendable {
    private let state = Mutex<(messages: [JSONValue], bytes: Int)>(([], 0))

    /// Keeps a message, unless the kept ones are already as large as history keeps.
    func add(_ message: JSONValue) {
        let size = message.serialized().utf8.count
        state.withLock {
            guard $0.bytes + size <= GRPCExchange.keptBytes else { return }
            $0.messages.append(message)
            $0.bytes += size
        }
    }

    /// The messages kept.
    var list: [JSONValue] { state.withLock { $0.messages } }
}
