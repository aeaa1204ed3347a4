import Dispatch
import Foundation
import Workspace

/// Keeps unsaved drafts in the state folder, one write after another in the order they were
/// asked for (the last one wins).
package final class DraftWrites: Sendable {
    /// Where drafts are kept; `nil` keeps none (tests).
    private let store: DraftStore?
    private let queue = DispatchQueue(label: "explorer.draft-writes", qos: .utility)

    package init(store: DraftStore?) {
        self.store = store
    }

    /// Writes the drafts of the collection at `collectionPath`, off the caller's queue.
    package func save(_ drafts: [Endpoint], collectionPath: String, report: @escaping @Sendable (String) -> Void) {
        guard let store else { return }
        queue.async {
            do {
                try store.save(drafts, collectionPath: collectionPath)
            } catch {
                report("Drafts could not be kept in \(store.folder.path): \(sentence(describing: error))")
            }
        }
    }
}
