import ArgumentParser
import Demo
import Foundation

/// `explorer demo [--port N] [--serve-only]`: serves the embedded demo API and opens it.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve the embedded demo API on 127.0.0.1 and open it in the explorer.",
        discussion: """
            Three environments are served by this process: local on PORT, staging on PORT+1 and
            production (protected) on PORT+2, each with a gRPC server (explorer.demo.v1.Directory,
            with server reflection) on PORT+3, PORT+4 and PORT+5. With --port 0 (the default) free
            ports are picked. The demo writes a collection file for those ports (the gRPC address is
            each environment's `grpc_url` variable) and opens it.
            """
    )

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The port of the local environment; staging, production and the three gRPC servers take the next five "
                + "(0: free ports).")
    )
    var port: Int = 0

    @Flag(name: .long, help: "Serve the API without the TUI; print the environments' URLs. Ctrl-C stops.")
    var serveOnly = false

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "With --serve-only: print no line per request (for load tests: "
                + "the log costs the server a write per request).")
    )
    var quiet = false

    @Option(name: .long, help: "Where to write the demo collection (default: a temporary folder).")
    var collectionOut: String?

    @Option(name: .long, help: "The colour theme of the TUI.")
    var theme: String?

    func validate() throws {
        guard (0...65_530).contains(port) else {
            throw ValidationError("--port must be between 0 and 65530 (the demo uses PORT to PORT+5).")
        }
        if quiet && !serveOnly {
            throw ValidationError("--quiet applies to --serve-only (the TUI prints no log).")
        }
    }

    func run() async throws {
        try await Self.serve(
            port: port, serveOnly: serveOnly, quiet: quiet, collectionOut: collectionOut, theme: theme)
    }

    /// Whether the command line (the arguments after the program's name) is `explorer demo`
    /// alone, which `main` runs without the parser.
    static func isPlain(_ arguments: [String]) -> Bool {
        arguments == [_commandName]
    }

    /// `explorer demo` alone, as `main` runs it without the argument parser (its tables and
    /// the runtime's first conformance lookups were about a tenth of the demo's start).
    static func runPlain() async throws {
        try await serve(port: 0, serveOnly: false, quiet: false, collectionOut: nil, theme: nil)
    }

    /// Serves the demo API on `port` (0: free ports) and opens it in the TUI, or with
    /// `serveOnly` prints its URLs and serves until a signal.
    private static func serve(
        port: Int, serveOnly: Bool, quiet: Bool, collectionOut: String?, theme: String?
    ) async throws {
        let server: DemoServer
        do {
            server = try await DemoServer.start(
                port: port,
                handleSignals: serveOnly,
                accessLog: serveOnly && !quiet ? printLine : nil
            )
        } catch {
            printError(String(describing: error))
            throw ExitCode(1)
        }
        let collectionURL: URL
        do {
            collectionURL = try collectionOut.map { URL(fileURLWithPath: $0) } ?? DemoCollection.defaultURL()
            try DemoCollection.write(for: server.environments, to: collectionURL)
        } catch {
            printError("The demo could not write its collection: \(error.localizedDescription)")
            await server.stop()
            throw ExitCode(1)
        }

        // The folder the demo made for itself goes when it ends, served only or not.
        defer {
            if collectionOut == nil {
                try? FileManager.default.removeItem(at: collectionURL.deletingLastPathComponent())
            }
        }
        guard serveOnly else {
            do {
                try await ExplorerTUI.run(collectionURL: collectionURL, environment: "local", themeName: theme)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            return
        }

        printLine("explorer demo API is serving:")
        for environment in server.environments {
            let badge = environment.isProtected ? "  (protected)" : ""
            printLine(
                "  \(environment.name.padding(toLength: 11, withPad: " ", startingAt: 0)) "
                    + "\(environment.baseURL.absoluteString)  gRPC \(environment.grpcURL.absoluteString)\(badge)"
            )
        }
        printLine("collection: \(collectionURL.path)")
        printLine("Press Ctrl-C to stop.")
        await server.waitUntilStopped()
        printLine("explorer demo API stopped.")
    }
}
