import ArgumentParser
import Checks
import Formats
import Foundation
import History
import Mock
import NetworkingCore
import Workspace

/// `explorer mock [COLLECTION] [--env NAME] [--port N] [--from examples|history|both]
/// [--latency 200ms] [--fail-rate 0.1] [--seed N] [--collection-out FILE] [--allow-host NAME]
/// [--no-validate-requests] [--stateful [--state FILE] [--state-limit N]]`: a local server that answers
/// every endpoint of a collection.
struct MockCommand: AsyncParsableCommand, CollectionOptionsHelp {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Serve a mock of a collection's API on 127.0.0.1, from its OpenAPI examples or its history.",
        discussion: """
            Every endpoint of the collection is answered, and every operation of the OpenAPI
            document the collection names with `openapi:`: the path template and the method
            matched, the status, headers and body taken from the document's examples (or an
            example generated from the schema), or from the last response the history recorded
            for the endpoint in the environment (--from history, the collection's own exchanges
            only; --from both prefers the history).
            A request chooses with `Prefer: code=404`, `Prefer: example=NAME` or
            `Prefer: dynamic=true` (a body generated from the schema), as Prism reads them. An
            unknown path is a 404 problem+json naming the near routes; a method the path does not
            take is a 405 with Allow. --latency and --fail-rate rehearse a slow and failing server:
            a failure is a 500 problem+json, chosen by a generator seeded with --seed.

            A request is checked against its operation first, as the real server would: path,
            query, header and cookie parameters (required ones present, values against their
            schemas) and the body (required, a declared content type, JSON and form bodies against
            their schemas). A request that breaks them gets the operation's documented 400 or 422
            when it declares one, else a 422 problem+json listing each violation; the log says why.
            `Prefer: code=N` skips the check; --no-validate-requests turns it off.

            It answers only requests whose Host is 127.0.0.1 or localhost, so that a web page
            cannot read it by rebinding its own name to 127.0.0.1; any other name is a 421
            problem+json. --allow-host NAME answers that name too (repeatable; * for any).

            A request the mock must refuse (no credentials the operation requires, a method the
            path does not take) gets the status the document declares for it (401/403, 405),
            else a problem+json that says the document declares none. An unknown path is a 404.

            --stateful keeps resources in memory while the mock runs: a POST to a collection path
            (/users) stores its JSON body, with an id when the schema has one (generated when the
            body has none); GET, PUT, PATCH (a JSON merge patch) and DELETE of the item path
            (/users/{id}) read, replace, merge and remove it; a resource not kept is the
            operation's documented 404; GET of the collection lists what is kept. It starts from
            the document's examples. At most --state-limit resources (10000) and 64 MiB are kept:
            past them a new one is refused (507), and the log says so. --state FILE loads them
            from FILE when the mock starts and saves them to it (mode 0600) when it stops; nothing
            is written to disk otherwise.

            To send to the mock, --collection-out writes a copy of the collection with an
            environment `mock` whose base_url is the mock (write it beside the collection, so that
            its relative files resolve): `explorer send --collection COPY --env mock ENDPOINT`.
            The collection itself is not changed.
            """
    )

    @Argument(help: "The collection file (default: ./explorer.yaml, else $EXPLORER_COLLECTION).")
    var collection: String?

    @OptionGroup var environment: EnvironmentOption<MockCommand>
    static let environmentHelp =
        "The environment whose base path and history the mock serves (default: the collection's first)."

    /// `--env`, as given.
    var env: String? { environment.env }

    @Option(name: .long, help: "The port (0: a free one).")
    var port: Int = 0

    @Option(name: .long, help: "Where answers come from: examples, history or both (the history's, else the example).")
    var from: String = "examples"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A delay before every answer: 200ms, 1.5s (a bare number is milliseconds).", valueName: "DURATION"))
    var latency: String?

    @Option(
        name: .customLong("fail-rate"),
        help: ArgumentHelp("The share of requests answered 500 on purpose, from 0 to 1.", valueName: "RATE"))
    var failRate: Double = 0

    @Option(name: .long, help: "The seed of the failures (default: a random one, printed).")
    var seed: UInt64?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Write a copy of the collection with a `mock` environment pointing at the mock.", valueName: "FILE"))
    var collectionOut: String?

    @Option(
        name: .customLong("allow-host"),
        help: ArgumentHelp(
            "Also answer requests whose Host is NAME (besides 127.0.0.1 and localhost); repeatable, * for any.",
            valueName: "NAME"))
    var allowHost: [String] = []

    @Flag(
        name: .customLong("no-validate-requests"),
        help: "Answer every request, even one that breaks its operation's parameters or body.")
    var noValidateRequests = false

    @Flag(
        name: .long,
        help: "Keep resources in memory: POST stores, GET reads, PUT/PATCH change, DELETE removes.")
    var stateful = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --stateful: load the resources from FILE at start and save them to it at stop (mode 0600).",
            valueName: "FILE"))
    var state: String?

    @Option(
        name: .customLong("state-limit"),
        help: ArgumentHelp("With --stateful: the most resources kept (default 10000).", valueName: "N"))
    var stateLimit: Int = MockStateStore.defaultLimit

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard MockSource(rawValue: from) != nil else {
            throw ValidationError("--from must be examples, history or both, not \"\(from)\".")
        }
        guard (0...1).contains(failRate) else {
            throw ValidationError("--fail-rate must be between 0 and 1, like 0.1.")
        }
        if state != nil, !stateful { throw ValidationError("--state FILE needs --stateful.") }
        guard (1...1_000_000).contains(stateLimit) else {
            throw ValidationError("--state-limit must be between 1 and 1000000, like 10000.")
        }
        if let latency, Self.duration(latency) == nil {
            throw ValidationError("--latency takes a duration like 200ms or 1.5s, not \"\(latency)\".")
        }
    }

    /// `200ms`, `1.5s`, `200` (milliseconds).
    static func duration(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let (number, scale): (Substring, Double) =
            trimmed.hasSuffix("ms")
            ? (trimmed.dropLast(2), 1)
            : trimmed.hasSuffix("s") ? (trimmed.dropLast(), 1000) : (Substring(trimmed), 1)
        guard let value = Double(number), value >= 0, value * scale <= 600_000 else { return nil }
        return .milliseconds(Int64((value * scale).rounded()))
    }

    func run() async throws {
        let file = try CollectionLocation.resolve(explicit: collection)
        let loaded = try CollectionLocation.load(file)
        let environment: Environment?
        if let env {
            guard let found = loaded.environments.first(where: { $0.name == env }) else {
                printError(
                    "\(file.path) has no environment \"\(env)\" (it has: "
                        + "\(loaded.environments.map(\.name).joined(separator: ", ")))."
                )
                throw ExitCode(2)
            }
            environment = found
        } else {
            environment = loaded.environments.first
        }
        let source = MockSource(rawValue: from)!
        var history: HistoryStore?
        if source != .examples {
            do {
                history = try HistoryStore(fileURL: HistoryLocation.defaultFile(), configuration: .fromEnvironment())
            } catch {
                printError("explorer mock could not read the history: \(error)")
                throw ExitCode(1)
            }
        }
        let plan: MockPlan
        do {
            let contract = try await ResponseContract.linked(for: loaded) { printError("warning: \($0)") }
            plan = try MockPlan.serving(
                loaded, file: file, contract: contract?.contract, environment: environment, source: source,
                history: history)
        } catch {
            printError(sentence(describing: error))
            throw ExitCode(2)
        }
        let seed = seed ?? UInt64.random(in: 0...999_999)
        let chaos = MockChaos(latency: latency.flatMap(Self.duration) ?? .zero, failRate: failRate, seed: seed)
        var store: MockStateStore?
        let stateFile = state.map { URL(fileURLWithPath: $0) }
        if stateful {
            let seeded = MockStateStore(seededFrom: plan, limit: stateLimit)
            if let stateFile, FileManager.default.fileExists(atPath: stateFile.path) {
                do {
                    try seeded.load(from: stateFile)
                } catch {
                    printError(error.description)
                    throw ExitCode(2)
                }
            }
            store = seeded
        }
        let server: MockServer
        do {
            // The log quotes what the document names (an example) and what a client sent (the
            // path, its Host): escaped, like every text from a file or the network.
            server = try await MockServer.start(
                plan: plan, port: port, chaos: chaos, handleSignals: true,
                allowedHosts: MockAllowedHosts(adding: allowHost), validatesRequests: !noValidateRequests,
                state: store, accessLog: { printLine(ExchangeOutput.escapingControls($0, keepingLineBreaks: false)) })
        } catch {
            printError(String(describing: error))
            throw ExitCode(1)
        }
        let base = plan.baseURL(port: server.port)
        printLine(
            "explorer mock is serving \(file.lastPathComponent) (\(plan.routes.count) routes, "
                + "answers from \(source.rawValue)):"
        )
        printLine("  mock        \(base)")
        let names = (MockAllowedHosts.local + allowHost).joined(separator: ", ")
        let hint = allowHost.isEmpty ? " (--allow-host NAME to answer another name)" : ""
        printLine("  answers     Host \(ExchangeOutput.escapingControls(names, keepingLineBreaks: false))\(hint)")
        if plan.contract != nil {
            printLine(
                noValidateRequests
                    ? "  requests    answered unchecked (--no-validate-requests)"
                    : "  requests    checked against the document (--no-validate-requests to answer any)")
        }
        if let store {
            let kept = "\(store.count) resource\(store.count == 1 ? "" : "s") kept"
            let place = stateFile.map { "loaded from and saved to \($0.path)" } ?? "in memory only"
            printLine(
                "  state       \(kept), \(ExchangeOutput.escapingControls(place, keepingLineBreaks: false)); at most "
                    + "\(store.limit) (--state-limit N)")
        }
        if failRate > 0 || chaos.latency > .zero {
            printLine("  latency \(chaos.latency), fail rate \(failRate), seed \(seed)")
        }
        if let collectionOut {
            let out = URL(fileURLWithPath: collectionOut)
            do {
                var copy = loaded
                copy.environments.removeAll { $0.name == "mock" }
                copy.environments.append(.mock(of: environment, in: loaded, named: "mock", at: base))
                try CollectionWriter.yaml(for: copy).write(to: out, atomically: true, encoding: .utf8)
            } catch {
                printError("explorer mock could not write \(out.path): \(error)")
                await server.stop()
                throw ExitCode(1)
            }
            printLine("collection: \(out.path)")
            printLine("Send to it: explorer send --collection \(out.path) --env mock ENDPOINT")
        } else {
            printLine(
                "Send to it: an environment whose base_url is \(base) (--collection-out FILE writes a copy of the "
                    + "collection with one, named mock)."
            )
        }
        printLine("Press Ctrl-C to stop.")
        await server.waitUntilStopped()
        if let store, let stateFile {
            do {
                try store.save(to: stateFile)
                printLine("explorer mock saved \(store.count) resources to \(stateFile.path).")
            } catch {
                printError(error.description)
                printLine("explorer mock stopped.")
                throw ExitCode(1)
            }
        }
        printLine("explorer mock stopped.")
    }
}
