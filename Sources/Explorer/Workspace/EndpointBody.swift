/// The body of an endpoint, in the form it was written in the collection.
package enum EndpointBody: Sendable, Hashable {
    /// `json:` — a JSON value whose strings may hold templates; sent as `application/json`.
    case json(JSONValue)
    /// `body:` — raw text, sent as written (after templating).
    case raw(String)
    /// `form:` — fields sent as `application/x-www-form-urlencoded`.
    case form([KeyValue])
    /// `multipart:` — parts sent as `multipart/form-data`.
    case multipart([MultipartField])
}

/// One part of a `multipart:` body: a text value, or a file read at send time.
package struct MultipartField: Sendable, Hashable {
    /// The field name.
    package var name: String
    /// The text value, or the file path when `isFile` is set.
    package var value: String
    /// Whether `value` names a file whose contents are sent.
    package var isFile: Bool

    /// Creates a part.
    package init(name: String, value: String, isFile: Bool = false) {
        self.name = name
        self.value = value
        self.isFile = isFile
    }
}
