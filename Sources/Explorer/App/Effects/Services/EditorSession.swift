import Foundation
import Workspace

/// Edits endpoints in the user's editor (`E`): the terminal is handed over meanwhile, and no
/// edit is ever lost.
package struct EditorSession: Sendable {
    /// Runs the user's editor on a file, the UI suspended meanwhile.
    private let editor: @Sendable (_ file: URL) -> ExternalEditor.Outcome

    package init(editor: @escaping @Sendable (_ file: URL) -> ExternalEditor.Outcome) {
        self.editor = editor
    }

    /// Edits an endpoint in the user's editor until its text reads, or the user gives up.
    ///
    /// The text lives in a private temporary folder. When it does not read, it is reopened
    /// with the error on top and the user's text below it, untouched; when the user then quits
    /// without saving, the file is kept and its path given, so no edit is ever lost.
    package func edit(_ endpoint: Endpoint) -> AppAction {
        let fileName = "explorer-" + String(endpoint.id.map { $0.isLetter || $0.isNumber ? $0 : "-" }) + ".yaml"
        // Short and unguessable, so the path fits on a line when it has to be shown.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "explorer-edit-" + String(UUID().uuidString.prefix(8)).lowercased())
        let file = folder.appendingPathComponent(fileName)
        var keep = false
        // The text may hold secrets: readable by the user alone, also when it is kept (an editor
        // that saves by writing a new file gives it the default mode, so the mode is set again).
        defer {
            if keep {
                try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            } else {
                try? FileManager.default.removeItem(at: folder)
            }
        }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard
                FileManager.default.createFile(
                    atPath: file.path, contents: Data(try EndpointEditing.document(for: endpoint).utf8),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
        } catch {
            return .message("Could not prepare the file to edit: \(sentence(describing: error))", isError: true)
        }
        var failure: EndpointEditing.EditError?
        var failedText: String?
        for _ in 1...Self.rounds {
            let before = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            let outcome = editor(file)
            let after = (try? String(contentsOf: file, encoding: .utf8)) ?? before
            if case .failed(let reason) = outcome {
                keep = after != before || failure != nil
                return .message(
                    "The editor failed: \(reason). The endpoint is unchanged"
                        + (keep ? "; your text is kept in \(file.path)." : "."), isError: true)
            }
            guard after != before else {
                guard let failure else { return .message("Not changed.", isError: false) }
                keep = true
                return Self.setAside(file, error: failure)
            }
            let text = EndpointEditing.withoutNote(after)
            switch EndpointEditing.read(text, original: endpoint, file: fileName) {
            case .success(let edited):
                return .endpointEdited(edited)
            case .failure(let error):
                failure = error
                // The same text saved again: the user is not fixing it here.
                guard text != failedText,
                    (try? Data(EndpointEditing.noted(text, error: error).utf8).write(to: file)) != nil
                else {
                    keep = true
                    return Self.setAside(file, error: error)
                }
                failedText = text
            }
        }
        keep = true
        return Self.setAside(file, error: failure ?? .noEndpoint(file: fileName))
    }

    /// What the user sees when an edit that does not read is set aside: a panel, not the
    /// status line, so the path of the kept text is never cut off. The error's line numbers
    /// are those of the kept file (its note included).
    private static func setAside(_ file: URL, error: EndpointEditing.EditError) -> AppAction {
        .showText(
            title: "The edit was not applied",
            lines: [
                "Your text is kept in", "  " + file.path, "", error.reason, "",
                "The endpoint is unchanged. E edits it again from the collection.",
            ])
    }

    /// How many times an edit that does not read is reopened before it is set aside.
    static let rounds = 10
}
