import Foundation

/// Where the OpenAPI document a collection names with `openapi:` is: a file (a path relative
/// to the collection's folder, or absolute) or an `http(s)` URL, fetched once per process
/// (`RemoteDocuments`).
package enum OpenAPILocation: Sendable, Hashable, CustomStringConvertible {
    case file(URL)
    case remote(URL)

    /// The location `openapi:` names, or `nil` when the collection names none.
    ///
    /// - Parameter collection: the collection; its `sourceURL` is where a relative path starts
    ///   (the working directory for a collection made in memory).
    package init?(_ collection: APICollection) {
        guard let named = collection.openAPI?.trimmingCharacters(in: .whitespaces), !named.isEmpty else { return nil }
        let folder =
            collection.sourceURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        self.init(named, folder: folder)
    }

    /// The location of `reference` as `openapi:` writes it, relative paths from `folder`.
    package init(_ reference: String, folder: URL) {
        let lowered = reference.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let url = URL(string: reference),
            url.host != nil
        {
            self = .remote(url)
        } else {
            self = .file(
                reference.hasPrefix("/") ? URL(fileURLWithPath: reference) : folder.appendingPathComponent(reference))
        }
    }

    /// The file's path or the URL, as errors name it.
    package var description: String {
        switch self {
        case .file(let url): url.path
        case .remote(let url): url.absoluteString
        }
    }
}
