// The Networking benchmark: small GETs through NetworkDispatcher, and through the bare
// AsyncHTTPClientTransport, each against raw AsyncHTTPClient (`HTTPClient.execute`) in many
// interleaved rounds (the median and spread of their ratio per pair of blocks printed, with the
// machine's load average and the reference against itself), and curl in a loop, sequential
// and 32 concurrent; the dispatcher's own cost on a transport that answers at once; and a
// 100 MB body's time and peak memory. Prints figures; it asserts nothing. `--load N` runs N
// busy processes meanwhile (the loaded case), `--show-rounds` prints every pair's ratio.
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import Networking
import NetworkingCore
import Synchronization

// MARK: - Arguments

let arguments = CommandLine.arguments
func argument(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1])
    else { return value }
    return number
}
// Sequential rounds of 300 requests (at 100 rounds): rounds of 90 scattered from 0.54× to
// 1.8× of each other here.
let requestCount = argument("--requests", default: 30000)
// 50 pairs of rounds: with 15 the 95% interval of the median ratio was about ±5% wide at 32
// concurrent here, as wide as the +5% target itself; with 50, ±2–4%.
let rounds = argument("--rounds", default: 100)
let curlCount = argument("--curl-requests", default: 300)
let concurrency = argument("--concurrency", default: 32)
// Each concurrent round gives every worker this many requests: rounds of a few requests per
// worker measure mostly their start and their tail, and their ratios scatter by several %.
let requestsPerWorker = argument("--requests-per-worker", default: 100)
let bigBodyMB = argument("--body-mb", default: 100)
/// `--on-loops`: every worker (of both sides of a pair) runs on an event loop of the clients'
/// group (`EventLoopExecutor`, in turn) instead of Swift's global executor, as `explorer load`'s
/// workers do.
let onLoops = arguments.contains("--on-loops")
/// `--target URL`: the small GETs of every row go to this URL (another server, such as the
/// demo's `http://127.0.0.1:PORT/users/1`; its path, without a query) instead of the
/// in-process server's `/small`, so that a tool sending through the dispatcher can be compared
/// with it against the same server; the big body still comes from the in-process server.
let target: URL? = arguments.firstIndex(of: "--target").flatMap {
    $0 + 1 < arguments.count ? URL(string: arguments[$0 + 1]) : nil
}
let loopExecutors = EventLoopExecutor.executors(of: HTTPClient.defaultEventLoopGroup)
/// `--load N`: N busy processes (a shell loop of arithmetic each) run for the whole benchmark,
/// so that a loaded machine (two on two cores, as issue 56 measured) is reproduced by anyone.
let loadProcesses = argument("--load", default: 0)
/// `--show-rounds`: every pair's ratio is printed, in the order measured, beside the median.
let showRounds = arguments.contains("--show-rounds")

// MARK: - Load

/// Starts `count` busy processes: each spins in `sh` arithmetic and checks every few
/// hundredths of a second that this process is still alive, so that none outlives a benchmark
/// that is killed.
func startLoad(_ count: Int) throws -> [Process] {
    let parent = ProcessInfo.processInfo.processIdentifier
    let loop = "while kill -0 \(parent) 2>/dev/null; do i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; done"
    return try (0..<count).map { _ in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", loop]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }
}

let busy = try startLoad(loadProcesses)

/// Ends the busy processes (`--load`), then the benchmark.
func finish(_ code: Int32) -> Never {
    for process in busy where process.isRunning { process.terminate() }
    exit(code)
}

// MARK: - Server

final class Environment: ServerProvider, Sendable {
    let baseURL: URL?
    init(_ url: URL) { baseURL = url }
}

func startServer() async throws -> (port: Int, task: Task<Void, any Error>) {
    let router = Router()
    router.get("small") { _, _ in #"{"id":1,"title":"hello"}"# }
    router.get("bytes/:n") { _, context -> Response in
        let total = context.parameters.get("n", as: Int.self) ?? 0
        return Response(
            status: .ok, headers: [.contentType: "application/octet-stream"],
            body: ResponseBody(contentLength: total) { writer in
                let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 256 * 1024)
                var left = total
                while left > 0 {
                    let size = min(left, chunk.readableBytes)
                    try await writer.write(chunk.getSlice(at: 0, length: size)!)
                    left -= size
                }
                try await writer.finish(nil)
            })
    }
    let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: 0)),
        onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) })
    let task = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = portStream.makeAsyncIterator()
    guard let port = await iterator.next() else { throw TransportError.other("server did not start") }
    return (port, task)
}

// MARK: - Measuring

struct Figures {
    var name: String
    var count: Int
    var seconds: Double
    var latencies: [Double]
    /// The CPU time (user and system) the whole process spent meanwhile: the client's work and
    /// the in-process server's, which is the same for every way of sending.
    var cpuSeconds: Double = 0

    var line: String {
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
        }
        let padded = name.padding(toLength: 46, withPad: " ", startingAt: 0)
        return padded
            + String(
                format: " %7d req  %8.0f req/s  p50 %7.3f ms  p99 %7.3f ms", count, Double(count) / seconds,
                percentile(0.5), percentile(0.99))
    }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The CPU time this process has used, user and system, in seconds.
func cpuTime() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `count` calls of `body` spread over `workers` concurrent loops.
func measure(
    _ name: String, count: Int, workers: Int, warmUp: Bool = true, _ body: @escaping @Sendable () async throws -> Void
) async throws -> Figures {
    // Warm up the connection pool.
    if warmUp { for _ in 0..<min(50, count) { try await body() } }
    let start = now()
    let cpuStart = cpuTime()
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for worker in 0..<workers {
            let share = count / workers + (worker < count % workers ? 1 : 0)
            group.addTask(executorPreference: onLoops ? loopExecutors[worker % loopExecutors.count] : nil) {
                var latencies: [Double] = []
                latencies.reserveCapacity(share)
                for _ in 0..<share {
                    let begin = now()
                    try await body()
                    latencies.append(now() - begin)
                }
                return latencies
            }
        }
        var all: [Double] = []
        for try await part in group { all += part }
        return all
    }
    return Figures(
        name: name, count: count, seconds: now() - start, latencies: latencies, cpuSeconds: cpuTime() - cpuStart)
}

/// What an interleaved measurement gives: each side's figures, and per pair of blocks the
/// ratios asked for, in time and in CPU time.
struct Interleaved {
    var figures: [Figures]
    /// Per asked ratio, one value per pair of blocks.
    var ratios: [[Double]]
    var cpuRatios: [[Double]]
}

/// Measures several ways of doing the same thing in interleaved rounds: a block runs one round
/// of each side in order (A B C D), the next the reverse (D C B A), and so on, so that every
/// side sees the same moments of a machine busy with something else and a drift cancels out.
/// Per pair of blocks, each ratio asked for (numerator side, denominator side) is the geometric
/// mean of its two blocks' ratios of time per request (and of CPU time per request). Their
/// median and its confidence interval say how far the comparison can be trusted on this machine.
///
/// - Parameter ratios: index pairs into `sides`; a denominator may be several sides, whose
///   rounds' times are pooled (two rounds of the reference give a steadier one).
func measureInterleaved(
    _ sides: [(name: String, body: @Sendable () async throws -> Void)], count: Int, workers: Int, rounds: Int,
    ratios asked: [(Int, [Int])]
) async throws -> Interleaved {
    for _ in 0..<50 { for side in sides { try await side.body() } }
    var totals = sides.map { Figures(name: $0.name, count: 0, seconds: 0, latencies: []) }
    var ratios = Array(repeating: [Double](), count: asked.count)
    var cpuRatios = Array(repeating: [Double](), count: asked.count)
    let share = roundSize(count: count, workers: workers)
    for _ in 0..<pairs(of: rounds) {
        var product = Array(repeating: 1.0, count: asked.count)
        var cpuProduct = Array(repeating: 1.0, count: asked.count)
        for forward in [true, false] {
            var block = Array(repeating: Figures(name: "", count: 0, seconds: 0, latencies: []), count: sides.count)
            for index in forward ? Array(sides.indices) : sides.indices.reversed() {
                let round = try await measure(
                    sides[index].name, count: share, workers: workers, warmUp: false, sides[index].body)
                block[index] = round
                totals[index].count += round.count
                totals[index].seconds += round.seconds
                totals[index].latencies += round.latencies
            }
            func perRequest(_ indices: [Int], _ value: (Figures) -> Double) -> Double {
                indices.map { value(block[$0]) }.reduce(0, +) / Double(indices.map { block[$0].count }.reduce(0, +))
            }
            for (slot, (numerator, denominator)) in asked.enumerated() {
                product[slot] *= perRequest([numerator], \.seconds) / perRequest(denominator, \.seconds)
                cpuProduct[slot] *= perRequest([numerator], \.cpuSeconds) / perRequest(denominator, \.cpuSeconds)
            }
        }
        for slot in asked.indices {
            ratios[slot].append(product[slot].squareRoot())
            cpuRatios[slot].append(cpuProduct[slot].squareRoot())
        }
    }
    return Interleaved(figures: totals, ratios: ratios, cpuRatios: cpuRatios)
}

/// How many pairs of rounds (A B, B A) `rounds` rounds make: at least one.
func pairs(of rounds: Int) -> Int { max(1, (rounds + 1) / 2) }

/// The requests a round has: `count` spread over the rounds, and in a concurrent round at
/// least `requestsPerWorker` for each worker.
func roundSize(count: Int, workers: Int) -> Int {
    workers == 1 ? max(1, count / rounds) : max(workers * requestsPerWorker, count / rounds)
}

/// The median and spread of per-pair ratios, as a line: the middle half, and the 95%
/// confidence interval of the median (from the order statistics: no assumption about how the
/// ratios are distributed), the range a target must be clear of to be met or missed; a line
/// with a `target` (1.10: at most +10%) says which of the three it is.
func ratioLine(_ label: String, _ ratios: [Double], perRound: Int, subject: String, target: Double? = nil) -> String {
    let sorted = ratios.sorted()
    func quantile(_ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = q * Double(sorted.count - 1)
        let low = Int(position.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
    }
    let median = quantile(0.5)
    let (low, high) = medianInterval(sorted)
    let each = showRounds ? "; each pair: " + ratios.map { String(format: "%.3f", $0) }.joined(separator: " ") : ""
    let verdict: String
    if let target {
        let named = String(format: "; target within %.2f×", target)
        verdict = named + (high <= target ? ": met" : low > target ? ": missed" : ": not resolved at this noise")
    } else {
        verdict = ""
    }
    return String(
        format:
            "%@, %@: median %.3f of the %@ per request (%+.1f%%; 95%% interval of the median %.3f–%.3f; "
            + "middle half %.3f–%.3f, all %.3f–%.3f; %d pairs of interleaved blocks, rounds of %d requests%@)",
        subject, label, median, label.hasSuffix("CPU time") ? "CPU time" : "time", (median - 1) * 100, low, high,
        quantile(0.25), quantile(0.75), sorted.first ?? 0, sorted.last ?? 0, sorted.count, perRound, verdict + each)
}

/// The 95% confidence interval of the median of `sorted` values: the j-th smallest and the
/// j-th largest, j the largest rank with at most 2.5% chance that fewer than j of n samples
/// fall below the median (a binomial with p = 1/2). With fewer than 6 values it is the range.
func medianInterval(_ sorted: [Double]) -> (Double, Double) {
    let n = sorted.count
    guard n >= 6 else { return (sorted.first ?? 0, sorted.last ?? 0) }
    var below = 0.0  // P(fewer than j samples below the median)
    var term = pow(0.5, Double(n))  // P(exactly i below), from i = 0
    var j = 0
    for i in 0..<n {
        if below + term > 0.025 { break }
        below += term
        j = i + 1
        term *= Double(n - i) / Double(i + 1)
    }
    let rank = max(j, 1)
    return (sorted[rank - 1], sorted[n - rank])
}

/// The 1-, 5- and 15-minute load averages, as `/proc/loadavg` gives them.
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return kilobytes / 1024
}

func currentRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

func curlLoop(url: String, count: Int) throws -> Figures {
    var latencies: [Double] = []
    let start = now()
    for _ in 0..<count {
        let begin = now()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--output", "/dev/null", url]
        try process.run()
        process.waitUntilExit()
        latencies.append(now() - begin)
    }
    return Figures(
        name: "curl in a loop (a process per request)", count: count, seconds: now() - start, latencies: latencies)
}

// MARK: - Main

let (port, serverTask) = try await startServer()
let localBase = URL(string: "http://127.0.0.1:\(port)")!
/// Where the small GETs go: the target's origin and path, else the in-process server's `/small`.
let (base, smallPath): (URL, String) = {
    guard let target, var origin = URLComponents(url: target, resolvingAgainstBaseURL: false) else {
        return (localBase, "/small")
    }
    let path = origin.percentEncodedPath
    origin.percentEncodedPath = ""
    origin.percentEncodedQuery = nil
    return (origin.url ?? localBase, path.isEmpty ? "/" : path)
}()
let environment = Environment(base)
let transport = AsyncHTTPClientTransport(configuration: .init(proxy: .none))
let dispatcher = NetworkDispatcher(
    serverProvider: environment, transport: transport, callbackQueue: DispatchQueue(label: "bench"))
let small = BasicRequest(path: smallPath)
let preparedSmall = try small.prepared(baseURL: base)
let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)

/// One small GET by the path `mode` names, for `--profile` and `--compare` (diagnosis aids):
/// `dispatcher` (the default), `raw` (HTTPClient.execute, the reference), `raw-transport-client` (the
/// same on the transport's own client, configured as the transport configures it), `raw-task` (the same in a Task
/// of its own, awaited: what one hop between tasks costs), `transport` (the bare call), `instant` (the dispatcher on a
/// transport that answers at once), `instant-transport` (that transport's bare call),
/// `progress` (the bare call keeping its progress), `spin-<µs>` (the bare call, then that many
/// µs of work that touches nothing shared: what a small own cost weighs at this concurrency),
/// `cancel-handler` (the bare call in a cancellation handler), `response` (the bare call, then
/// a Response made), `prepared` (the request resolved, sent bare, and a Response made).
func requestPath(_ mode: String) -> @Sendable () async throws -> Void {
    switch mode {
    case "raw":
        return {
            let response = try await client.execute(
                HTTPClientRequest(url: base.absoluteString + smallPath), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
        }
    case "raw-transport-client":
        // raw execute on the transport's own client (its configuration: timeouts, no redirects)
        return {
            let response = try await transport.client.execute(
                HTTPClientRequest(url: base.absoluteString + smallPath), timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
        }
    case "raw-delegate":
        return { () async throws -> Void in
            let request = try HTTPClient.Request(url: base.absoluteString + smallPath)
            let delegate = ResponseAccumulator(request: request)
            let task: HTTPClient.Task<HTTPClient.Response> = client.execute(
                request: request, delegate: delegate, eventLoop: .indifferent,
                deadline: NIODeadline.now() + .seconds(30))
            let response: HTTPClient.Response = try await task.futureResult.get()
            precondition(response.status == .ok)
        }
    case "raw-task":
        return {
            let exchange = Task {
                let response = try await client.execute(
                    HTTPClientRequest(url: base.absoluteString + smallPath), timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 1 << 20)
            }
            try await exchange.value
        }
    case "transport":
        return {
            let response = try await transport.send(preparedSmall, options: TransferOptions()) { _ in }
            precondition(response.status == .ok)
        }
    case "instant-transport":
        return { _ = try await InstantTransport().send(preparedSmall, options: TransferOptions()) { _ in } }
    case "instant":
        let instant = NetworkDispatcher(
            serverProvider: environment, transport: InstantTransport(), callbackQueue: DispatchQueue(label: "bench"))
        return { _ = try await instant.future(from: small).value }
    case "progress":
        final class Box: Sendable {
            let last = Mutex<TransferProgress?>(nil)
            func update(_ progress: TransferProgress) { last.withLock { $0 = progress } }
        }
        return {
            let box = Box()
            let response = try await transport.send(preparedSmall, options: TransferOptions()) { box.update($0) }
            precondition(response.status == .ok)
        }
    case let spin where spin.hasPrefix("spin-"):
        let microseconds = Double(spin.dropFirst(5)) ?? 0
        return {
            let response = try await transport.send(preparedSmall, options: TransferOptions()) { _ in }
            let end = now() + microseconds / 1e6
            while now() < end {}
            precondition(response.status == .ok)
        }
    case "cancel-handler":
        return {
            let response = try await withTaskCancellationHandler {
                try await transport.send(preparedSmall, options: TransferOptions()) { _ in }
            } onCancel: {
            }
            precondition(response.status == .ok)
        }
    case "response":
        return {
            let sent = try await transport.send(preparedSmall, options: TransferOptions()) { _ in }
            let response = NetworkingCore.Response(sent, request: preparedSmall, started: Date())
            precondition(response.statusCode == .ok)
        }
    case "prepared":
        return {
            let prepared = try small.prepared(baseURL: environment.baseURL!)
            let sent = try await transport.send(prepared, options: TransferOptions()) { _ in }
            let response = NetworkingCore.Response(sent, request: prepared, started: Date())
            precondition(response.statusCode == .ok)
        }
    default:
        return {
            let response = try await dispatcher.future(from: small).value
            precondition(response.statusCode == .ok)
        }
    }
}

// `--profile MODE`: only that path (see `requestPath`), 32 concurrent (or --concurrency), for
// a profiler (`perf record -g`); prints its line and exits.
if let index = arguments.firstIndex(of: "--profile"), index + 1 < arguments.count {
    let mode = arguments[index + 1]
    let figures = try await measure(mode, count: requestCount, workers: concurrency, requestPath(mode))
    print(
        figures.line
            + String(format: "  CPU %.2f µs a request", figures.cpuSeconds / Double(figures.count) * 1_000_000)
    )
    try await client.shutdown().get()
    try await transport.shutdown()
    serverTask.cancel()
    finish(0)
}
print(
    "networking-bench: \(requestCount) small GETs to "
        + "\(target.map { "\($0.absoluteString)" } ?? "127.0.0.1:\(port)/small (Hummingbird, in process)") in "
        + "\(rounds) interleaved rounds a side, "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage())"
        + (loadProcesses > 0 ? ", \(loadProcesses) busy processes (--load)" : "")
        + (onLoops ? ", the workers on the event loops" : ""))
var results: [Figures] = []
var overheads: [String] = []
// `--compare MODE`: what the A side of the pairs is (see `requestPath`; the dispatcher by
// default). `--only-pairs` stops after the pairs, `--only-concurrent` skips the sequential ones.
let compareMode =
    arguments.firstIndex(of: "--compare").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil } ?? "dispatcher"
let onlyConcurrent = arguments.contains("--only-concurrent")
let sideA = requestPath(compareMode)
/// What the pairs' lines call the A side.
let sideAName = compareMode == "dispatcher" ? "NetworkDispatcher" : "--compare \(compareMode)"
/// The reference: AsyncHTTPClient's own async API on a client of its own, the body collected.
let rawExecute = requestPath("raw")
let bareTransport = requestPath("transport")
for workers in onlyConcurrent ? [concurrency] : [1, concurrency] {
    let label = workers == 1 ? "sequential" : "\(workers) concurrent"
    let perRound = roundSize(count: requestCount, workers: workers)
    // The library's target: requests through the dispatcher within 1.10× of HTTPClient.execute's
    // time. The dispatcher resolves the request on the provider's base URL (one request here,
    // so it reuses the URL it built last), sends, and makes a Response. Beside it, in the same
    // blocks of rounds: the transport alone (where the difference lies), and the reference
    // twice, against itself: how far apart two identical things come out on this machine in
    // this run, the resolution of the ratios. Each side is compared with both rounds of raw.
    let measured = try await measureInterleaved(
        [
            ("\(sideAName), \(label)", sideA), ("AsyncHTTPClientTransport, \(label)", bareTransport),
            ("raw HTTPClient.execute, \(label)", rawExecute), ("raw HTTPClient.execute again, \(label)", rawExecute),
        ], count: requestCount, workers: workers, rounds: rounds, ratios: [(0, [2, 3]), (1, [2, 3]), (3, [2])])
    let (ratios, transportRatios, noise) = (measured.ratios[0], measured.ratios[1], measured.ratios[2])
    let (cpuRatios, transportCPURatios, cpuNoise) = (
        measured.cpuRatios[0], measured.cpuRatios[1], measured.cpuRatios[2]
    )
    let (viaDispatcher, viaTransport, viaRaw) = (measured.figures[0], measured.figures[1], measured.figures[2])
    for figures in [viaDispatcher, viaTransport, viaRaw] {
        results.append(figures)
        print(figures.line)
    }
    let judged = compareMode == "dispatcher" ? 1.10 : nil
    overheads.append(
        ratioLine(label, ratios, perRound: perRound, subject: "\(sideAName) / raw HTTPClient.execute", target: judged))
    overheads.append(
        ratioLine(
            label, transportRatios, perRound: perRound, subject: "AsyncHTTPClientTransport / raw HTTPClient.execute"))
    overheads.append(
        ratioLine(label, noise, perRound: perRound, subject: "raw HTTPClient.execute / itself (the noise floor)"))
    overheads.append(
        ratioLine(
            label + ", CPU time", cpuRatios, perRound: perRound, subject: "\(sideAName) / raw HTTPClient.execute",
            target: judged))
    overheads.append(
        ratioLine(
            label + ", CPU time", transportCPURatios, perRound: perRound,
            subject: "AsyncHTTPClientTransport / raw HTTPClient.execute"))
    overheads.append(
        ratioLine(
            label + ", CPU time", cpuNoise, perRound: perRound,
            subject: "raw HTTPClient.execute / itself (the noise floor)"))
}
let curl = try curlLoop(url: base.absoluteString + smallPath, count: curlCount)
print(curl.line)
for line in overheads { print(line) }
print("load average after the network rows: \(loadAverage())")
if arguments.contains("--only-pairs") { finish(0) }

// Where the dispatcher's extra time goes: it resolves every request on the server provider's
// base URL (the transport rows above reuse one prepared request); it reuses the URL it built
// last for the same path, as in the rows above, and builds one for any other path (the second
// figure: two paths in turn).
// The dispatcher's own cost, without a network: a transport that answers at once.
struct InstantTransport: HTTPTransport {
    func send(
        _ request: PreparedRequest, options: TransferOptions, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> TransportResponse {
        TransportResponse(
            status: .ok, headers: ["Content-Type": "application/json"], body: Data("{}".utf8), url: request.url,
            bytesReceived: 2)
    }
}
let instant = NetworkDispatcher(
    serverProvider: environment, transport: InstantTransport(), callbackQueue: DispatchQueue(label: "bench"))
let instantCount = 200_000
// Off the main actor (top-level code runs on it), as a program's requests do.
let other = BasicRequest(path: "/other")
let (perDispatch, perNewURL, perSend) = try await Task.detached {
    for _ in 0..<1000 { _ = try await instant.future(from: small).value }
    var start = now()
    for _ in 0..<instantCount { _ = try await instant.future(from: small).value }
    let perDispatch = (now() - start) / Double(instantCount) * 1_000_000
    start = now()
    for index in 0..<instantCount { _ = try await instant.future(from: index % 2 == 0 ? small : other).value }
    let perNewURL = (now() - start) / Double(instantCount) * 1_000_000
    start = now()
    for _ in 0..<instantCount {
        _ = try await InstantTransport().send(preparedSmall, options: TransferOptions()) { _ in }
    }
    return (perDispatch, perNewURL, (now() - start) / Double(instantCount) * 1_000_000)
}.value
print(
    String(
        format:
            "the dispatcher's own cost (a transport that answers at once): %.1f µs a request (%.1f µs when each "
            + "request has another path than the one before), the bare call %.1f µs",
        perDispatch, perNewURL, perSend))

let prepareCount = 100_000
var prepareStart = now()
for _ in 0..<prepareCount { _ = try small.prepared(baseURL: base) }
print(
    String(format: "building the URL per request: %.1f µs", (now() - prepareStart) / Double(prepareCount) * 1_000_000))
prepareStart = now()
for _ in 0..<prepareCount { _ = ResponseFuture<Int>(value: 1).start() }
print(
    String(format: "a future created and started: %.1f µs", (now() - prepareStart) / Double(prepareCount) * 1_000_000))

let bigBytes = bigBodyMB * 1024 * 1024
let bigRequest = BasicRequest(path: "/bytes/\(bigBytes)")
// From the in-process server, whatever `--target` says.
// The dispatcher holds its server provider weakly (as PiuPiu's does): this one is kept here.
let localEnvironment = Environment(localBase)
let local = NetworkDispatcher(
    serverProvider: localEnvironment, transport: transport, callbackQueue: DispatchQueue(label: "bench"))
let rssBefore = currentRSSMegabytes()
var start = now()
let streamed = try await local.future(from: bigRequest, options: TransferOptions(bodyDestination: .discard)).value
let streamSeconds = now() - start
let peakAfterStream = peakRSSMegabytes()
print(
    String(
        format: "%d MB streamed (discarded): %.2f s, %.0f MB/s, RSS before %.0f MB, peak RSS %.0f MB", bigBodyMB,
        streamSeconds, Double(streamed.timings.bytesReceived) / 1_048_576 / streamSeconds, rssBefore, peakAfterStream))
start = now()
let collected = try await local.future(from: bigRequest).value
let memorySeconds = now() - start
print(
    String(
        format: "%d MB collected in memory: %.2f s, %.0f MB/s, body %d bytes, peak RSS %.0f MB", bigBodyMB,
        memorySeconds, Double(collected.body?.count ?? 0) / 1_048_576 / memorySeconds, collected.body?.count ?? 0,
        peakRSSMegabytes()))

try await client.shutdown().get()
try await transport.shutdown()
serverTask.cancel()
finish(0)
