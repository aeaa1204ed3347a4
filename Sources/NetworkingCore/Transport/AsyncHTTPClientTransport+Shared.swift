import Foundation
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AsyncHTTPClientTransport {
    /// The process-wide transport that `NetworkDispatcher(serverProvider:)` and
    /// `URLRequestDispatcher()` send through when given none: one long-lived client and its
    /// connection pool, made on first use and shut down when the process exits.
    ///
    /// Do not call `shutdown()` on it: other dispatchers share it.
    public static var shared: AsyncHTTPClientTransport { SharedTransport.instance }

    /// Shuts the client down from a thread that is not one of its event loops, waiting for it;
    /// what the exit handler of `shared` does.
    fileprivate func shutDownWaiting() {
        let first = isShutDown.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        // An exit from one of the client's own event loops cannot wait for the client to stop
        // (it would wait for itself); the process ends anyway, so the client is left to it.
        if client.eventLoopGroup.makeIterator().contains(where: { $0.inEventLoop }) { return }
        // At exit there is no one left to tell of a failed shutdown: the process is ending.
        try? client.syncShutdown()
    }
}

/// Holds the shared transport and shuts it down at exit, so that neither a connection nor
/// AsyncHTTPClient's "not shut down" complaint outlives the process.
private enum SharedTransport {
    static let instance: AsyncHTTPClientTransport = {
        let transport = AsyncHTTPClientTransport()
        atexit { SharedTransport.instance.shutDownWaiting() }
        return transport
    }()
}
