import Foundation
import Workspace

/// The files the user owns that the TUI writes: the collection (an endpoint saved, renamed,
/// deleted), checked again by the trust rule as it is read back, and response bodies saved.
package struct UserFiles: Sendable {
    /// Why a collection read from its file may not be used (it reaches beyond its folder
    /// without the user's trust), or `nil` when it may: asked of every version read after the
    /// start, the explorer's own writes included (a write reads the file back, `git pull`'s
    /// changes with it).
    private let admission: @Sendable (LoadedCollection, URL) -> String?

    package init(admission: @escaping @Sendable (LoadedCollection, URL) -> String?) {
        self.admission = admission
    }

    /// Applies a change to the collection file and reads it back.
    ///
    /// - Returns: what the reducer is told, in order.
    package func apply(_ change: CollectionChange, collectionPath: String) -> [AppAction] {
        let url = URL(fileURLWithPath: collectionPath)
        do {
            let (written, read) = try change.apply(to: url)
            if let refusal = admission(written, url) { return [.collectionRefused(refusal, read: read)] }
            var actions: [AppAction] = [.collectionReloaded(written.collection, read: read)]
            // A saved draft is no draft any more (a rename keeps the edits of the renamed one).
            if case .put(let endpoint, let replacing) = change, replacing == nil || replacing == endpoint.id {
                actions.append(.endpointSaved(id: endpoint.id))
            }
            actions.append(.message(change.doneMessage(file: url.lastPathComponent), isError: false))
            return actions
        } catch {
            return [
                .message(
                    "Could not change \(change.endpointID) in \(url.path): \(sentence(describing: error))",
                    isError: true)
            ]
        }
    }

    /// Saves a response body under `path` (relative paths from the current folder, `~` the
    /// home), next to an existing file rather than over it.
    package func saveBody(_ bytes: Data, to path: String) -> AppAction {
        do {
            let wanted = BodyFile.absolute(
                path, home: XDGDirectories().home.path, currentDirectory: FileManager.default.currentDirectoryPath)
            let written = try BodyFile.save(bytes, to: wanted)
            return .message(
                written == wanted
                    ? "Saved \(bytes.count) bytes to \(written)"
                    : "\(wanted) exists; saved \(bytes.count) bytes to \(written)", isError: false)
        } catch {
            return .message(sentence(describing: error), isError: true)
        }
    }
}
