import NIOCore

/// A Swift task executor that runs its jobs on one NIO event loop.
///
/// A task that prefers it (`Task(executorPreference:)`, `withTaskExecutorPreference`) runs on
/// the thread that does the I/O of the connections made on that loop: when a response arrives,
/// the await that waits for it resumes on the same thread, where on Swift's global executor it
/// would wake a thread of the cooperative pool first (a hop each way for every request).
/// async-http-client prefers the caller's loop when the caller runs on one, so a task on this
/// executor also sends on a connection of its own loop.
///
/// Work that blocks (a file written in large pieces, a long computation) holds up every
/// connection of the loop meanwhile: give such work a task of its own on the global executor.
public final class EventLoopExecutor: TaskExecutor {
    /// The loop the jobs run on.
    public let eventLoop: any EventLoop

    /// An executor over a loop. Prefer `executors(of:)`, which makes one per loop of a group.
    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// One executor per loop of a group, in the group's order.
    public static func executors(of group: any EventLoopGroup) -> [EventLoopExecutor] {
        group.makeIterator().map(EventLoopExecutor.init)
    }
}
