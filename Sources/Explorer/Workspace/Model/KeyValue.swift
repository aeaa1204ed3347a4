/// One named value of an ordered mapping: a variable, a header, a query item or a form field.
///
/// Collections keep these as arrays so the order a user wrote is the order that is sent.
package struct KeyValue: Sendable, Hashable {
    /// The name, as written.
    package var name: String
    /// The value, possibly holding `{{variable}}` templates.
    package var value: String

    /// Creates a named value.
    package init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == KeyValue {
    /// The value of the last pair with that exact name, or `nil`.
    package subscript(named name: String) -> String? {
        last { $0.name == name }?.value
    }

    /// Replaces the value of the first pair with that name, or appends a pair.
    package mutating func set(_ name: String, _ value: String) {
        if let index = firstIndex(where: { $0.name == name }) {
            self[index].value = value
        } else {
            append(KeyValue(name, value))
        }
    }
}
