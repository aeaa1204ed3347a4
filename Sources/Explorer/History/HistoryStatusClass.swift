/// The class of an exchange's outcome, as `explorer history --status` names it.
package enum HistoryStatusClass: String, Sendable, Hashable, CaseIterable {
    /// Any 1xx status (rarely final, listed for completeness).
    case informational = "1xx"
    /// Any 2xx status.
    case success = "2xx"
    /// Any 3xx status.
    case redirection = "3xx"
    /// Any 4xx status.
    case clientError = "4xx"
    /// Any 5xx status.
    case serverError = "5xx"
    /// No status: the exchange failed in transport.
    case error

    /// The class of a status code; `nil` status is `.error`, a code out of 100...599 is `nil`.
    ///
    /// - Parameter status: the status code, or `nil` for a transport failure.
    init?(status: Int?) {
        guard let status else {
            self = .error
            return
        }
        switch status {
        case 100..<200: self = .informational
        case 200..<300: self = .success
        case 300..<400: self = .redirection
        case 400..<500: self = .clientError
        case 500..<600: self = .serverError
        default: return nil
        }
    }

    /// The status codes of this class, or `nil` for `.error`.
    var statusRange: Range<Int>? {
        switch self {
        case .informational: 100..<200
        case .success: 200..<300
        case .redirection: 300..<400
        case .clientError: 400..<500
        case .serverError: 500..<600
        case .error: nil
        }
    }
}
