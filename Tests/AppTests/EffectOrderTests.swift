import Dispatch
import Foundation
import GRDB
import TestSupport
import Testing

@testable import App
@testable import Demo
@testable import Formats
@testable import History
@testable import Terminal
@testable import Workspace

/// Effects run in the order the reducer asked for them; history writes stay off the main queue.
@Suite struct EffectOrderTests {
    /// A program whose first effect is slow: on a concurrent queue the second would finish first.
    struct OrderProgram: TerminalProgram {
        typealias State = Int
        typealias Action = Int
        enum Effect: Sendable {
            case slow(Int)
            case fast(Int)
        }

        let log: Collected<Int>
        func reduce(_ state: inout Int, _ action: Int) -> [Effect] { [] }
        func view(_ state: Int, size: Size) -> CellGrid { CellGrid(size: size) }
        func action(for event: InputEvent, in state: Int) -> Int? { nil }
        func shouldQuit(_ state: Int) -> Bool { false }
        func perform(_ effect: Effect, send: @escaping @Sendable (Int) -> Void) {
            switch effect {
            case .slow(let value):
                Thread.sleep(forTimeInterval: 0.05)
                log.append(value)
            case .fast(let value):
                log.append(value)
            }
        }
    }

    @Test func effectsRunInTheOrderTheyWereAskedForEvenWhenTheFirstIsSlow() {
        let log = Collected<Int>()
        let interpreter = EffectInterpreter(program: OrderProgram(log: log))
        interpreter.run([.slow(1)], send: { _ in })
        interpreter.run([.fast(2), .slow(3)], send: { _ in })
        interpreter.run([.fast(4)], send: { _ in })
        interpreter.drain()
        #expect(log.all == [1, 2, 3, 4])
    }

    private func collection(port: Int) throws -> APICollection {
        try CollectionLoader.parse(
            """
            name: Order
            environments:
              - name: local
                base_url: http://127.0.0.1:\(port)
            endpoints:
              - name: Slow
                path: /slow
                query: { ms: "400" }
              - name: Fast
                path: /users/1
            """, file: "order.yaml")
    }

    private func plan(_ name: String, _ collection: APICollection) throws -> RequestPlan {
        let endpoint = try #require(collection.endpoint(withID: name))
        return RequestPlan(
            endpoint: endpoint, collection: collection, environment: try #require(collection.environments.first),
            revision: 1)
    }

    private func temporaryStore() throws -> (HistoryStore, URL) {
        let file = try TemporaryFolder().url.appendingPathComponent("history.sqlite")
        return (try HistoryStore(fileURL: file, configuration: HistoryConfiguration(busyTimeout: 30)), file)
    }

    @Test func aCancelRightAfterItsSendStopsTheRequestAndNothingIsRecorded() async throws {
        let server = try await DemoServer.start(port: 0)
        let collection = try collection(port: try #require(server.environments.first).port)
        let (store, _) = try temporaryStore()
        let program = ExplorerProgram(
            history: HistoryRecorder(store: store, report: { _ in }), collectionPath: nil, clipboardWriter: nil)
        let interpreter = EffectInterpreter(program: program)
        let reported = Collected<AppAction>()
        let send: @Sendable (AppAction) -> Void = { reported.append($0) }

        // As the runtime does after `Enter` then `Esc`: two reductions, two batches of effects.
        interpreter.run([.send(exchange: 1, try plan("Slow", collection))], send: send)
        interpreter.run([.cancel(exchange: 1)], send: send)
        // A later exchange that completes shows the effects kept running.
        interpreter.run([.send(exchange: 2, try plan("Fast", collection))], send: send)
        #expect(await reported.wait { if case .recorded(exchange: 2, _) = $0 { return true } else { return false } })
        // The slow route answers after 400 ms; give it that and more to show up if it was sent.
        _ = await reported.wait(timeout: .milliseconds(900)) {
            if case .received(exchange: 1, _) = $0 { return true } else { return false }
        }

        let forFirst = reported.all.filter {
            switch $0 {
            case .received(exchange: 1, _), .recorded(exchange: 1, _), .failed(exchange: 1, _): return true
            default: return false
            }
        }
        #expect(forFirst.isEmpty, "the cancelled exchange reported \(forFirst)")
        #expect(try store.summaries().map(\.endpoint) == ["Fast"])
        await program.shutdown()
        await server.stop()
    }

    @Test @MainActor func aFailedRequestIsRecordedOffTheMainQueue() async throws {
        let (store, file) = try temporaryStore()
        // Another writer holds the database: a write waits up to the busy timeout (30 s here).
        let locker = try DatabaseQueue(path: file.path)
        let unlock = DispatchSemaphore(value: 0)
        let locked = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? locker.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                unlock.wait()
                try db.execute(sql: "COMMIT")
            }
        }
        locked.wait()

        // Nothing listens on this port: the request fails at once.
        let collection = try collection(port: 9)
        let program = ExplorerProgram(
            history: HistoryRecorder(store: store, report: { _ in }), collectionPath: nil, clipboardWriter: nil)
        let reported = Collected<AppAction>()
        program.perform(.send(exchange: 1, try plan("Fast", collection)), send: { reported.append($0) })
        #expect(await reported.wait { if case .failed(exchange: 1, _) = $0 { return true } else { return false } })
        // The test runs on the main actor: it got here while the write still waits for the lock,
        // so the main queue was free.
        #expect(!reported.all.contains { if case .recorded = $0 { return true } else { return false } })
        unlock.signal()
        #expect(await reported.wait { if case .recorded(exchange: 1, _) = $0 { return true } else { return false } })
        await program.shutdown()
    }

    @Test func copyAsCurlWritesTheRealCommandToTheTerminalAndReportsItMasked() async throws {
        var state = try tuiState(environment: "production")
        guard case .copyAsCurl(let plan)? = AppReducer.reduce(&state, .input(.key(.char("c")), at: tuiNow)).first else {
            Issue.record("expected a copy effect")
            return
        }
        let written = Collected<AppAction>()
        let program = ExplorerProgram(
            history: nil, collectionPath: nil, clipboardWriter: { written.append(.message($0, isError: false)) })
        let reported = Collected<AppAction>()
        program.perform(.copyAsCurl(plan), send: { reported.append($0) })
        await program.shutdown()
        // OSC 52: ESC ] 52 ; c ; base64 BEL
        guard case .message(let sequence, _)? = written.all.first, sequence.hasPrefix("\u{1B}]52;c;"),
            sequence.hasSuffix("\u{07}"),
            let data = Data(base64Encoded: String(sequence.dropFirst(7).dropLast()))
        else {
            Issue.record("no OSC 52 sequence written: \(written.all)")
            return
        }
        #expect(String(decoding: data, as: UTF8.self).contains("s3cret-prod-token"))
        guard case .showText(let title, let lines)? = reported.all.first else {
            Issue.record("nothing shown")
            return
        }
        #expect(title == "curl · List posts · production (copied to the clipboard)")
        #expect(!lines.joined().contains("s3cret-prod-token"))
        // The same command as `explorer export curl` prints (with and without --reveal-secrets).
        let resolved = try plan.resolve()
        #expect(String(decoding: data, as: UTF8.self) == CurlExporter.command(for: resolved, revealSecrets: true))
        #expect(lines.joined(separator: "\n") == CurlExporter.command(for: resolved))
    }
}
