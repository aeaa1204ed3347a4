import Foundation

/// Answers the base URL that requests are sent to, asked at send time.
///
/// Environments are server providers: switching the one a dispatcher holds (or changing the
/// URL it answers) switches every later request without rebuilding the dispatcher. The
/// dispatcher holds its provider weakly, so a released provider fails the next future with
/// a clear error instead of sending somewhere stale.
public protocol ServerProvider: AnyObject {
    /// The base URL, including any base path (`https://api.example.com/v1`), or `nil` when
    /// there is none to send to.
    var baseURL: URL? { get }
}
