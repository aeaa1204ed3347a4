import Foundation

/// A bounded first-in first-out queue between the connection and its reader, with
/// back-pressure: a push waits while `capacity` events are waiting to be read, so a server that
/// sends faster than the reader reads is slowed by TCP flow control instead of filling memory.
///
/// One reader at a time; `finish()` ends it after the waiting events are read.
final class WebSocketEventQueue: Sendable {
    private struct State {
        var events: [WebSocketEvent] = []
        var head = 0
        var finished = false
        var reader: CheckedContinuation<WebSocketEvent?, Never>?
        var writers: [CheckedContinuation<Void, Never>] = []

        var count: Int { events.count - head }

        mutating func popFirst() -> WebSocketEvent? {
            guard head < events.count else { return nil }
            let event = events[head]
            head += 1
            // Compact once the read part dominates, so the array does not grow forever.
            if head > 64, head * 2 > events.count {
                events.removeFirst(head)
                head = 0
            }
            return event
        }
    }

    /// How many events may wait to be read.
    let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds an event, waiting while the queue is full. Events pushed after `finish()` are dropped.
    func push(_ event: WebSocketEvent) async {
        enum Outcome {
            case delivered(CheckedContinuation<WebSocketEvent?, Never>?)
            case full, finished
        }
        while true {
            let outcome = state.withLock { state -> Outcome in
                if state.finished { return .finished }
                if let reader = state.reader {
                    state.reader = nil
                    return .delivered(reader)
                }
                guard state.count < capacity else { return .full }
                state.events.append(event)
                return .delivered(nil)
            }
            switch outcome {
            case .finished:
                return
            case .delivered(let reader):
                reader?.resume(returning: event)
                return
            case .full:
                await withCheckedContinuation { (writer: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        if state.finished || state.count < capacity || state.reader != nil { return true }
                        state.writers.append(writer)
                        return false
                    }
                    if ready { writer.resume() }
                }
            }
        }
    }

    /// The next event, waiting for one; `nil` once finished and drained, or when the calling
    /// task is cancelled.
    func next() async -> WebSocketEvent? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (reader: CheckedContinuation<WebSocketEvent?, Never>) in
                let outcome = state.withLock {
                    state -> (event: WebSocketEvent?, answer: Bool, writer: CheckedContinuation<Void, Never>?) in
                    if let event = state.popFirst() {
                        let writer = state.writers.isEmpty ? nil : state.writers.removeFirst()
                        return (event, true, writer)
                    }
                    if state.finished || Task.isCancelled { return (nil, true, nil) }
                    state.reader = reader
                    return (nil, false, nil)
                }
                outcome.writer?.resume()
                if outcome.answer { reader.resume(returning: outcome.event) }
            }
        } onCancel: {
            let reader = state.withLock { state in
                defer { state.reader = nil }
                return state.reader
            }
            reader?.resume(returning: nil)
        }
    }

    /// How many events wait to be read.
    var waiting: Int { state.withLock { $0.count } }

    /// Ends the queue: waiting writers return, the reader gets what is left, then `nil`.
    func finish() {
        let (reader, writers) = state.withLock { state in
            state.finished = true
            defer { state.writers = [] }
            let reader = state.count == 0 ? state.reader : nil
            if reader != nil { state.reader = nil }
            return (reader, state.writers)
        }
        reader?.resume(returning: nil)
        for writer in writers { writer.resume() }
    }
}
