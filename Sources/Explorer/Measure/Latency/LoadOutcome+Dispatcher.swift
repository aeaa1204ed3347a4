import Foundation
import NetworkingCore

extension LoadOutcome {
    /// Sends one request of a load through a dispatcher, as `explorer send` sends it, and reads
    /// its body to the last byte (counted and dropped, so that a long load keeps no body).
    ///
    /// - Parameters:
    ///   - request: the request.
    ///   - dispatcher: the dispatcher (its server provider, adapters, cookies and redirects).
    ///   - options: deadlines and limits; the body destination is set to `.discard`.
    ///   - describe: the sentence for a failure.
    /// - Returns: the status and the body's size, or the failure's kind and sentence.
    package static func sending(
        _ request: any Request, through dispatcher: NetworkDispatcher, options: TransferOptions = TransferOptions(),
        describe: (any Error) -> String = { String(describing: $0) }
    ) async -> LoadOutcome {
        var options = options
        options.bodyDestination = .discard
        do {
            let response = try await dispatcher.future(from: request, options: options).value
            return .response(status: response.statusCode.code, bytes: response.timings.bytesReceived)
        } catch {
            return .failure(kind: kind(of: error), sentence: describe(error))
        }
    }
}
