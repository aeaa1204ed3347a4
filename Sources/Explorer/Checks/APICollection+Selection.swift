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
