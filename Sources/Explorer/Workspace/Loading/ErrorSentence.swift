import Foundation

/// The one sentence of an error, ending with a period: a library error in the collection's
/// words (`NetworkingWording`), else its `LocalizedError` description when it has one, else
/// its description.
///
/// - Parameter error: any error.
/// - Returns: the sentence, trimmed, with a final period.
package func sentence(describing error: any Error) -> String {
    let text: String
    if let worded = NetworkingWording.sentence(for: error) {
        text = worded
    } else if let localized = error as? any LocalizedError, let description = localized.errorDescription {
        text = description
    } else {
        text = String(describing: error)
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let last = trimmed.last else { return "The request failed." }
    return ".!?".contains(last) ? trimmed : trimmed + "."
}
