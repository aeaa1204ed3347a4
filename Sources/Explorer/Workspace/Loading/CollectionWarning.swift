/// Something the loader accepted but the user should know about, with where it is.
package struct CollectionWarning: Sendable, Codable, Hashable, CustomStringConvertible {
    /// Where it is.
    var location: FileLocation
    /// One sentence saying what is wrong.
    var message: String

    /// Creates a warning.
    init(location: FileLocation, message: String) {
        self.location = location
        self.message = message
    }

    package var description: String { "\(location): warning: \(message)" }
}
