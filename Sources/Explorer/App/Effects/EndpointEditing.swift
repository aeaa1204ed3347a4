import Foundation
import Workspace
import Yams

/// An endpoint as a small YAML document for editing in `$EDITOR`, and back.
enum EndpointEditing {
    /// The endpoint as the YAML a collection would hold, with a comment that says what to do.
    static func document(for endpoint: Endpoint) throws -> String {
        let node = CollectionWriter.itemNode(.endpoint(endpoint))
        let yaml = try Yams.serialize(node: node, indent: 2, width: -1, allowUnicode: true)
        return """
            # Edit \(endpoint.id) as in the collection file: method, path, query, headers and one of
            # json / body / form / multipart. Save and quit to apply it to this session (S in the
            # explorer saves it to the file); quit without saving to keep it as it was.

            """ + yaml
    }

    /// Reads an edited document back; name and folder stay those of `original`.
    ///
    /// - Throws: the loader's error (`file:line:column: what is wrong`) when the text is not a
    ///   valid endpoint.
    static func endpoint(from text: String, original: Endpoint, file: String) throws -> Endpoint {
        let collection: APICollection
        do {
            collection = try CollectionLoader.parse("name: edit\nendpoints:\n" + listItem(text), file: file)
        } catch {
            throw EditError.invalid(shifted(String(describing: error), file: file))
        }
        guard var edited = collection.endpoints.first else { throw EditError.noEndpoint(file: file) }
        edited.name = original.name
        edited.folderPath = original.folderPath
        return edited
    }

    /// What starts each line of the note an edit that could not be read gets on top.
    static let notePrefix = "# ✗ "

    /// The text without the note a previous round put on top.
    static func withoutNote(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        while let first = lines.first, first.hasPrefix(notePrefix) { lines.removeFirst() }
        return lines.joined(separator: "\n")
    }

    /// How many lines the note is: always the same, so an error read below it (`read`) gives
    /// the line numbers of the file as the user will see it, note included.
    static let noteHeight = 2

    /// Reads a saved text (a previous note left out) as it will be shown, below the note.
    ///
    /// - Returns: the endpoint, or why not, its `file:line:column` counting the note.
    static func read(_ text: String, original: Endpoint, file: String) -> Result<Endpoint, EditError> {
        let shown = String(repeating: "\n", count: noteHeight) + withoutNote(text)
        do {
            return .success(try endpoint(from: shown, original: original, file: file))
        } catch let error as EditError {
            return .failure(error)
        } catch {
            return .failure(.invalid(String(describing: error)))
        }
    }

    /// The text to reopen in the editor after `error`: the note on top (YAML comments), then
    /// the user's text exactly as they left it.
    static func noted(_ text: String, error: EditError) -> String {
        notePrefix + error.description + "\n"
            + notePrefix
            + "Fix it, then save and quit to apply it; quit without saving to give up (this file is kept).\n"
            + withoutNote(text)
    }

    /// A YAML mapping written at the top level, as one item of a list.
    private static func listItem(_ text: String) -> String {
        var lines: [String] = []
        var first = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                lines.append("")
                continue
            }
            lines.append((first ? "  - " : "    ") + line)
            first = false
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Moves `file:line:column` in a loader message back onto the edited text: the wrapper
    /// adds two lines above it and four columns before it.
    private static func shifted(_ message: String, file: String) -> String {
        let prefix = file + ":"
        guard message.hasPrefix(prefix) else { return message }
        let rest = message.dropFirst(prefix.count)
        let parts = rest.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let line = Int(parts[0]), let column = Int(parts[1]) else { return message }
        return "\(file):\(max(1, line - 2)):\(max(1, column - 4)):\(parts[2])"
    }

    enum EditError: Error, CustomStringConvertible {
        case noEndpoint(file: String)
        case invalid(String)

        /// What is wrong, in one line (`file:line:column: …`).
        var reason: String {
            switch self {
            case .noEndpoint(let file): return "\(file): the edited text holds no endpoint; nothing was changed."
            case .invalid(let message): return message.split(whereSeparator: \.isNewline).joined(separator: " ")
            }
        }

        var description: String {
            switch self {
            case .noEndpoint: return reason
            case .invalid: return "The edit was not applied: " + reason
            }
        }
    }
}
