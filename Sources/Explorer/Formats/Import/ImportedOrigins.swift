import Workspace

/// Where imported requests go, for the importers of tools that keep whole URLs (curl,
/// Postman, Insomnia, HAR).
///
/// An environment has one `base_url`: the origin most requests use (the first one on a tie)
/// becomes it, and the requests on it keep only their path. A request to another origin keeps
/// its whole URL as its path (`https://cdn.example.com/x`, or `{{authUrl}}/token` when the
/// origin is a variable holding one), and the resolver sends such a path to its own server,
/// so every imported request is still sent where it went.
enum ImportedOrigins {
    /// Makes the endpoints on the main origin relative to it.
    ///
    /// - Parameter items: folders and endpoints whose `path` is the request's whole URL: its
    ///   origin (`scheme://host[:port]` or a leading `{{variable}}`), path and any raw query.
    /// - Returns: the items, those on the main origin with their path only, and that origin
    ///   (`nil` when there is no endpoint).
    static func relativeToMainOrigin(_ items: [CollectionItem]) -> (items: [CollectionItem], baseURL: String?) {
        var origins: [String] = []
        func collect(_ items: [CollectionItem]) {
            for item in items {
                switch item {
                case .endpoint(let endpoint): if let origin = split(endpoint.path)?.origin { origins.append(origin) }
                case .folder(let folder): collect(folder.items)
                }
            }
        }
        collect(items)
        let counts = Dictionary(origins.map { ($0, 1) }, uniquingKeysWith: +)
        guard let main = origins.first(where: { counts[$0] == counts.values.max() }) else { return (items, nil) }
        func relative(_ item: CollectionItem) -> CollectionItem {
            switch item {
            case .endpoint(var endpoint):
                if let parts = split(endpoint.path), parts.origin == main { endpoint.path = parts.rest }
                return .endpoint(endpoint)
            case .folder(var folder):
                folder.items = folder.items.map(relative)
                return .folder(folder)
            }
        }
        return (items.map(relative), main)
    }

    /// A whole URL as its origin and the rest (`/` when it has no path), or `nil` for a path.
    private static func split(_ url: String) -> (origin: String, rest: String)? {
        let end: String.Index
        if url.hasPrefix("{{"), let close = url.range(of: "}}") {
            end = close.upperBound
        } else if let scheme = url.range(of: "://"), !url[..<scheme.lowerBound].contains("/") {
            end = url[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        } else {
            return nil
        }
        let rest = String(url[end...])
        return (String(url[..<end]), rest.isEmpty ? "/" : rest.hasPrefix("?") ? "/" + rest : rest)
    }
}
