import NetworkingCore

/// The body of an endpoint, in the form it was written in the collection.
package enum EndpointBody: Sendable, Hashable {
    /// `json:` — a JSON value whose strings may hold templates; sent as `application/json`.
    case json(JSONValue)
    /// `body:` — raw text, sent as written (after templating).
    case raw(String)
    /// `body: {file: PATH}` — the bytes of a file, read at send time and sent as they are
    /// (no templating: a file may be binary). The path is relative to the collection's folder.
    case file(String)
    /// `form:` — fields sent as `application/x-www-form-urlencoded`.
    case form([KeyValue])
    /// `multipart:` — parts sent as `multipart/form-data`.
    case multipart([MultipartField])
}

/// One part of a `multipart:` body: a text value, or a file read at send time.
package struct MultipartField: Sendable, Codable, Hashable {
    /// The field name.
    package var name: String
    /// The text value, or the file path when `isFile` is set.
    package var value: String
    /// Whether `value` names a file whose contents are sent.
    package var isFile: Bool
    /// The file name sent in `Content-Disposition` (a file part's own name when `nil`).
    package var filename: String?
    /// The part's `Content-Type` (none for text, `application/octet-stream` for files when `nil`).
    package var contentType: String?

    /// Creates a part.
    package init(name: String, value: String, isFile: Bool = false, filename: String? = nil, contentType: String? = nil)
    {
        self.name = name
        self.value = value
        self.isFile = isFile
        self.filename = filename
        self.contentType = contentType
    }

    /// Whether the part is more than a name and a text or `@file` value (written as a mapping).
    var hasAttributes: Bool { filename != nil || contentType != nil }
}
