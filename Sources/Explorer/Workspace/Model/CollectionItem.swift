/// An entry of a collection's endpoint tree: an endpoint, or a folder of further entries.
package enum CollectionItem: Sendable, Hashable {
    /// A request.
    case endpoint(Endpoint)
    /// A named group of entries.
    case folder(Folder)

    /// The entry's display name.
    var name: String {
        switch self {
        case .endpoint(let endpoint): return endpoint.name
        case .folder(let folder): return folder.name
        }
    }
}

/// A named group of endpoints and sub-folders, as written under `folder:` in the file.
package struct Folder: Sendable, Hashable {
    /// The folder's name.
    package var name: String
    /// Its entries, in file order.
    package var items: [CollectionItem]
    /// The `description:` the user wrote.
    package var description: String?
    /// The `auth:` of the endpoints inside, unless one nearer sets its own; `nil` inherits.
    package var auth: Authentication?
    /// Its `tags:`, which apply to everything inside it.
    package var tags: [String]

    /// Creates a folder.
    package init(
        name: String, items: [CollectionItem] = [], description: String? = nil, auth: Authentication? = nil,
        tags: [String] = []
    ) {
        self.auth = auth
        self.tags = tags
        self.name = name
        self.items = items
        self.description = description
    }
}
