import Foundation
import Workspace

extension APICollection {
    /// The endpoints a run names, in file order, each once: a folder (`Auth`, `Users/Admin`)
    /// stands for every endpoint under it, anything else is an endpoint's address; no name
    /// means every endpoint.
    ///
    /// - Parameter names: folders and endpoints, as typed.
    /// - Returns: the endpoints.
    /// - Throws: `LookupError` for a name that is neither, with close matches.
    package func endpoints(selectedBy names: [String]) throws -> [Endpoint] {
        let all = endpoints
        guard !names.isEmpty else { return all }
        var chosen: Set<String> = []
        for name in names {
            let trimmed = name.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "/"))
            let folder = trimmed.split(separator: "/").map(String.init)
            let inFolder = all.filter {
                $0.folderPath.starts(with: folder) && $0.folderPath.count >= folder.count && !folder.isEmpty
            }
            if !inFolder.isEmpty {
                chosen.formUnion(inFolder.map(\.id))
                continue
            }
            do {
                chosen.insert(try endpoint(named: trimmed).id)
            } catch LookupError.endpointNotFound(let query, let suggestions) {
                let folders = Set(
                    all.flatMap { endpoint in
                        endpoint.folderPath.indices.map { endpoint.folderPath[...$0].joined(separator: "/") }
                    })
                throw LookupError.endpointNotFound(
                    query,
                    suggestions: Array((Suggestions.closest(to: query, in: Array(folders)) + suggestions).prefix(3)))
            }
        }
        return all.filter { chosen.contains($0.id) }
    }
}

extension APICollection {
    /// Each endpoint's tags by its address: its own `tags:`, then those of every folder it is in
    /// (outermost first), each once.
    package var tagsByEndpoint: [String: [String]] {
        var tags: [String: [String]] = [:]
        func visit(_ items: [CollectionItem], inherited: [String]) {
            for item in items {
                switch item {
                case .endpoint(let endpoint):
                    var all = endpoint.tags
                    for tag in inherited where !all.contains(tag) { all.append(tag) }
                    tags[endpoint.id] = all
                case .folder(let folder):
                    visit(folder.items, inherited: inherited + folder.tags.filter { !inherited.contains($0) })
                }
            }
        }
        visit(items, inherited: [])
        return tags
    }

    /// The endpoints `--tag` and `--exclude-tag` keep, in their order: those with any of
    /// `tags` (every one when `tags` is empty), less those with any of `excluded` (which wins).
    ///
    /// - Parameters:
    ///   - endpoints: the endpoints the paths selected.
    ///   - tags: `--tag` values.
    ///   - excluded: `--exclude-tag` values.
    /// - Throws: `TagSelectionError` for a tag no endpoint of the collection has (with the
    ///   closest ones), or when nothing is left to run.
    package func endpoints(_ endpoints: [Endpoint], tagged tags: [String], excluding excluded: [String])
        throws(TagSelectionError) -> [Endpoint]
    {
        guard !tags.isEmpty || !excluded.isEmpty else { return endpoints }
        let byEndpoint = tagsByEndpoint
        var known: [String] = []
        for endpoint in self.endpoints {
            for tag in byEndpoint[endpoint.id] ?? [] where !known.contains(tag) { known.append(tag) }
        }
        for tag in tags + excluded where !known.contains(tag) {
            throw .unknown(tag, known: known, suggestions: Suggestions.closest(to: tag, in: known, limit: 1))
        }
        let kept = endpoints.filter { endpoint in
            let own = byEndpoint[endpoint.id] ?? []
            return (tags.isEmpty || tags.contains(where: own.contains)) && !excluded.contains(where: own.contains)
        }
        guard !kept.isEmpty else { throw .nothingLeft(tags: tags, excluded: excluded) }
        return kept
    }
}

/// Why `--tag` and `--exclude-tag` select nothing to run.
package enum TagSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A tag no endpoint or folder of the collection has: the tags it has, the closest ones.
    case unknown(String, known: [String], suggestions: [String])
    /// Every endpoint selected was left out.
    case nothingLeft(tags: [String], excluded: [String])

    package var description: String {
        switch self {
        case .unknown(let tag, let known, let suggestions):
            let hint = suggestions.first.map { " Did you mean \"\($0)\"?" } ?? ""
            let list =
                known.isEmpty
                ? "the collection has no tags: add tags: [\(tag)] to an endpoint or a folder"
                : "its tags are \(known.joined(separator: ", "))"
            return "No endpoint or folder of the collection is tagged \"\(tag)\" (\(list)).\(hint)"
        case .nothingLeft(let tags, let excluded):
            let chosen = tags.isEmpty ? "" : " tagged \(tags.joined(separator: " or "))"
            let without = excluded.isEmpty ? "" : " and not \(excluded.joined(separator: " or "))"
            return "No endpoint selected is\(chosen)\(without): nothing to run."
        }
    }
}
