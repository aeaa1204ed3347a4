import Foundation
import Workspace

extension CollectionChange {
    /// Applies the change to the collection file as it is on disk now, and writes it back
    /// atomically (mode, owner and symbolic links kept: `AtomicFile`).
    ///
    /// Only the changed endpoint's lines are written (`CollectionSource`), so the file's
    /// comments and layout stay as the user wrote them; when its lines cannot be placed, the
    /// file is rewritten through `CollectionWriter` (the save dialog says comments are lost).
    ///
    /// - Parameter url: the collection file.
    /// - Returns: the collection as written (read back from the file), with what it reaches, and
    ///   the read-back's `CollectionReadOrder` number (taken once the write is done).
    /// - Throws: the loader's error when the file no longer reads, `ChangeError` when the
    ///   change no longer fits the file, `FileSystemError` when it cannot be written.
    func apply(to url: URL) throws -> (loaded: LoadedCollection, read: UInt64) {
        var source = CollectionSource(try String(contentsOf: url, encoding: .utf8))
        var collection = try CollectionLoader.load(from: url)
        let placed: Bool
        switch self {
        case .put(let endpoint, let replacing):
            if let replacing, collection.replace(endpointWithID: replacing, with: endpoint) {
                placed = source.replace(endpointWithID: replacing, with: endpoint)
                break
            }
            guard collection.endpoint(withID: endpoint.id) == nil else {
                throw ChangeError.exists(endpoint.id, file: url.path)
            }
            collection.insert(endpoint)
            placed = source.insert(endpoint)
        case .delete(let id):
            guard collection.remove(endpointWithID: id) != nil else { throw ChangeError.missing(id, file: url.path) }
            placed = source.remove(endpointWithID: id)
        case .restore(let endpoint, let place):
            guard collection.endpoint(withID: endpoint.id) == nil else {
                throw ChangeError.exists(endpoint.id, file: url.path)
            }
            var restored = endpoint
            restored.folderPath = place.folderPath
            collection.insert(restored, at: place.index)
            placed = source.insert(restored, at: place.index)
        }
        let text = try placed && source.holds(collection) ? source.text : CollectionWriter.yaml(for: collection)
        try CollectionMerger.writeAtomically(text, to: url)
        let read = CollectionReadOrder.next()
        return (try CollectionLoader.loadReaching(from: url, keepsLater: true, patches: true), read)
    }

    /// The endpoint the change is about.
    var endpointID: String {
        switch self {
        case .put(let endpoint, _): return endpoint.id
        case .delete(let id): return id
        case .restore(let endpoint, let place): return (place.folderPath + [endpoint.name]).joined(separator: "/")
        }
    }

    /// What the user reads once the file is written.
    func doneMessage(file: String) -> String {
        switch self {
        case .put(let endpoint, let replacing):
            if let replacing, replacing != endpoint.id { return "\(replacing) is now \(endpoint.id) in \(file)." }
            return "Saved \(endpoint.id) to \(file)."
        case .delete(let id): return "Deleted \(id) from \(file); u brings it back."
        case .restore: return "Brought back \(endpointID) in \(file)."
        }
    }

    /// Why a change no longer fits the file (someone changed it meanwhile).
    enum ChangeError: Error, CustomStringConvertible {
        case exists(String, file: String)
        case missing(String, file: String)

        var description: String {
            switch self {
            case .exists(let id, let file):
                return "\(file) has an endpoint \(id) already; rename yours (R) and save again."
            case .missing(let id, let file): return "\(file) has no endpoint \(id) any more (changed on disk?)."
            }
        }
    }
}
