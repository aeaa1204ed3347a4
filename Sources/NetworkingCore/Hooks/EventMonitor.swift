import Foundation

/// Watches requests go by, for logging and metrics; it cannot change them.
///
/// Every method has a no-op default, so implement only what you need. Methods are called on
/// the dispatcher's task, not the callback queue: keep them quick.
public protocol EventMonitor: Sendable {
    /// A request is about to be handed to the transport.
    func requestWillSend(_ request: PreparedRequest)
    /// A response arrived (any status).
    func request(_ request: PreparedRequest, didReceive response: Response<Data?>)
    /// The transport failed.
    func request(_ request: PreparedRequest, didFailWith error: any Error)
    /// The request will be sent again after a delay.
    func request(_ request: PreparedRequest, willRetryAttempt attempt: Int, after delay: Duration)
}

extension EventMonitor {
    /// Does nothing.
    public func requestWillSend(_ request: PreparedRequest) {}
    /// Does nothing.
    public func request(_ request: PreparedRequest, didReceive response: Response<Data?>) {}
    /// Does nothing.
    public func request(_ request: PreparedRequest, didFailWith error: any Error) {}
    /// Does nothing.
    public func request(_ request: PreparedRequest, willRetryAttempt attempt: Int, after delay: Duration) {}
}
