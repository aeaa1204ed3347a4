/// Changes to a collection's endpoint tree, as the explorer's UI makes them: add an endpoint
/// where it belongs, remove one (remembering where it was, to put it back), rename or move one.
/// Folders are found by name along an endpoint's `folderPath` and created when missing.
extension APICollection {
    /// Where an endpoint was in its folder, to put it back there.
    package struct Place: Sendable, Hashable {
        /// The folders, outermost first.
        package var folderPath: [String]
        /// The index among the folder's entries.
        package var index: Int
    }

    /// Adds an endpoint to the folder its `folderPath` names (created when missing), at
    /// `index` among the folder's entries, or at the end.
    ///
    /// - Parameters:
    ///   - endpoint: the endpoint; its `folderPath` says where it goes.
    ///   - index: its place in the folder (clamped), or nil for the end.
    package mutating func insert(_ endpoint: Endpoint, at index: Int? = nil) {
        items = Self.inserting(endpoint, into: items, remainingPath: endpoint.folderPath[...], at: index)
    }

    /// Removes the endpoint at an address.
    ///
    /// - Parameter id: the endpoint's address (`Folder/Name`).
    /// - Returns: the endpoint and where it was, or nil when there is none at that address.
    @discardableResult
    package mutating func remove(endpointWithID id: String) -> (endpoint: Endpoint, place: Place)? {
        var removed: (Endpoint, Place)?
        items = Self.removing(id, from: items, folderPath: [], removed: &removed)
        return removed
    }

    /// Replaces the endpoint at an address with `endpoint`, in the same place when its folder
    /// did not change (a rename or an edit), else at the end of its new folder (a move).
    ///
    /// - Parameters:
    ///   - id: the address of the endpoint to replace.
    ///   - endpoint: the new endpoint.
    /// - Returns: false when there is no endpoint at `id`.
    @discardableResult
    package mutating func replace(endpointWithID id: String, with endpoint: Endpoint) -> Bool {
        guard let place = remove(endpointWithID: id)?.place else { return false }
        insert(endpoint, at: place.folderPath == endpoint.folderPath ? place.index : nil)
        return true
    }

    private static func inserting(
        _ endpoint: Endpoint, into items: [CollectionItem], remainingPath: ArraySlice<String>, at index: Int?
    ) -> [CollectionItem] {
        var items = items
        guard let head = remainingPath.first else {
            items.insert(.endpoint(endpoint), at: min(max(0, index ?? items.count), items.count))
            return items
        }
        let rest = remainingPath.dropFirst()
        if let position = items.firstIndex(where: {
            if case .folder(let folder) = $0 { return folder.name == head } else { return false }
        }),
            case .folder(var folder) = items[position]
        {
            folder.items = inserting(endpoint, into: folder.items, remainingPath: rest, at: index)
            items[position] = .folder(folder)
        } else {
            items.append(
                .folder(Folder(name: head, items: inserting(endpoint, into: [], remainingPath: rest, at: index))))
        }
        return items
    }

    private static func removing(
        _ id: String, from items: [CollectionItem], folderPath: [String], removed: inout (Endpoint, Place)?
    ) -> [CollectionItem] {
        var items = items
        for (index, item) in items.enumerated() {
            switch item {
            case .endpoint(let endpoint) where endpoint.id == id:
                items.remove(at: index)
                removed = (endpoint, Place(folderPath: folderPath, index: index))
                return items
            case .folder(var folder):
                folder.items = removing(
                    id, from: folder.items, folderPath: folderPath + [folder.name], removed: &removed)
                if removed != nil {
                    items[index] = .folder(folder)
                    return items
                }
            default:
                continue
            }
        }
        return items
    }
}
