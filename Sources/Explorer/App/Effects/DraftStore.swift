import Foundation
import Workspace

/// Keeps unsaved drafts in the state folder, so that a crash or a quit loses none: one file
/// per collection, a collection-format YAML of the drafts (each in its folder), mode 0600 in
/// a 0700 folder, replaced atomically on every change and removed when no draft is left.
package struct DraftStore: Sendable {
    /// The folder the draft files live in (`$XDG_STATE_HOME/explorer/drafts`).
    package let folder: URL

    /// Creates a store in `folder`.
    package init(folder: URL) {
        self.folder = folder
    }

    /// The store in the explorer's state folder.
    package init(directories: XDGDirectories) {
        self.init(folder: directories.stateDirectory.appendingPathComponent("drafts", isDirectory: true))
    }

    /// The drafts file of a collection: its file name and a hash of its full path, so two
    /// collections of the same name do not share one.
    package func file(for collectionPath: String) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: stable across runs, unlike Hasher
        for byte in collectionPath.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let name = (collectionPath as NSString).lastPathComponent
        let stem = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
        return folder.appendingPathComponent("\(stem)-\(String(hash, radix: 16)).yaml")
    }

    /// Writes the drafts of a collection, or removes the file when there are none.
    ///
    /// - Throws: `FileSystemError` when the folder or file cannot be written.
    package func save(_ drafts: [Endpoint], collectionPath: String) throws {
        let url = file(for: collectionPath)
        guard !drafts.isEmpty else {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            return
        }
        try PrivateFiles.prepareDirectory(at: folder)
        var collection = APICollection(name: "Drafts of \(collectionPath)")
        for draft in drafts.sorted(by: { $0.id < $1.id }) { collection.insert(draft) }
        try AtomicFile.write(
            Data(try CollectionWriter.yaml(for: collection).utf8), to: url, newFileMode: PrivateFiles.fileMode)
        PrivateFiles.restrictFile(at: url)
    }

    /// The drafts a previous session left for a collection.
    ///
    /// - Returns: the drafts (none when there is no file), and a sentence when the file does
    ///   not read: it is then moved aside (its path given), never overwritten.
    package func load(collectionPath: String) -> (drafts: [Endpoint], problem: String?) {
        let url = file(for: collectionPath)
        guard FileManager.default.fileExists(atPath: url.path) else { return ([], nil) }
        do {
            return (try CollectionLoader.load(from: url).endpoints, nil)
        } catch {
            let aside = url.deletingPathExtension().appendingPathExtension(
                "unreadable-\(Int(Date().timeIntervalSince1970)).yaml")
            let moved = (try? FileManager.default.moveItem(at: url, to: aside)) != nil
            return (
                [],
                "The drafts of the last session could not be read: \(sentence(describing: error))"
                    + (moved ? " The file was moved to \(aside.path)." : " The file \(url.path) is left as it is.")
            )
        }
    }
}
