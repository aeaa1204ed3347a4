import Foundation

/// What can go wrong with the history store, each as one sentence a person can act on.
package enum HistoryError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The history file could not be opened or created.
    case cannotOpen(path: String, reason: String)
    /// An exchange could not be written.
    case cannotWrite(path: String, reason: String)
    /// The history could not be read.
    case cannotRead(path: String, reason: String)
    /// No exchange has this id.
    case notFound(id: Int64)

    /// The sentence.
    package var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "The history file \(path) could not be opened: \(reason)."
        case .cannotWrite(let path, let reason):
            "The exchange could not be saved to the history file \(path): \(reason)."
        case .cannotRead(let path, let reason): "The history file \(path) could not be read: \(reason)."
        case .notFound(let id): "There is no exchange with id \(id) in the history."
        }
    }

    /// The sentence, for `LocalizedError`.
    package var errorDescription: String? { description }
}
