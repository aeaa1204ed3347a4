import Foundation

/// Makes futures of responses from requests.
///
/// `NetworkDispatcher` sends through an `HTTPTransport`; `MockDispatcher` answers from stubs.
public protocol Dispatcher: Sendable {
    /// The queue futures run their callbacks on.
    var callbackQueue: DispatchQueue { get }

    /// A lazy future of the response to a request; nothing is sent until it is started.
    ///
    /// - Parameter request: the request.
    /// - Returns: a future of the response, whatever its status.
    func future(from request: any Request) -> ResponseFuture<Response<Data?>>
}

extension Dispatcher {
    /// A lazy future of the response to a request that a throwing builder makes when the future
    /// starts; a throw fails the future.
    ///
    /// - Parameter builder: makes the request.
    /// - Returns: a future of the response.
    public func future(from builder: @escaping @Sendable () throws -> any Request) -> ResponseFuture<Response<Data?>> {
        ResponseFuture<Void>(value: (), callbackQueue: callbackQueue).replace { _ in
            self.future(from: try builder())
        }
    }
}
