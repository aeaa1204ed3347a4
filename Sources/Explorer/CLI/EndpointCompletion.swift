import ArgumentParser
import Foundation
import Workspace

/// Shell completion of an endpoint argument (`explorer send <TAB>`): the endpoints of the
/// collection the command would read (`--collection FILE` on the line so far, else
/// `./explorer.yaml`, else `$EXPLORER_COLLECTION`), as `Folder/Name`, those that start with
/// what is typed. Reading the file runs nothing it references; a file that does not load
/// completes nothing.
///
/// The names come from a file anyone may have written (a cloned repository), so they reach the
/// shell as data, never as code: bash's script hands them to `compgen -W`, which expands each
/// word (`$(…)`, backquotes, `~`, braces), so each is single-quoted for bash; zsh's `_describe`
/// reads `name:description`, so a colon is escaped; a name with a control character (a newline
/// would split it into two candidates, a tab starts fish's description) is not offered.
enum EndpointCompletion {
    /// The completion kind for an endpoint argument; `folders` adds the folders (`run`).
    static func kind(folders: Bool = false) -> CompletionKind {
        .custom { arguments, _, prefix in
            shellWords(
                candidates(arguments: arguments, prefix: prefix, folders: folders), for: CompletionShell.requesting)
        }
    }

    /// `names` as the shell's completion script reads its candidates: one a line, as data.
    static func shellWords(_ names: [String], for shell: CompletionShell?) -> [String] {
        let offered = names.filter { name in !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        switch shell {
        case .bash?:
            return offered.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        case .zsh?:
            return offered.map {
                $0.replacingOccurrences(of: #"\"#, with: #"\\"#).replacingOccurrences(of: ":", with: #"\:"#)
            }
        default:
            return offered
        }
    }

    /// The endpoints (and folders) starting with `prefix`, in file order.
    static func candidates(
        arguments: [String], prefix: String, folders: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> [String] {
        var explicit: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--collection", index + 1 < arguments.count { explicit = arguments[index + 1] }
            if argument.hasPrefix("--collection=") { explicit = String(argument.dropFirst("--collection=".count)) }
        }
        guard
            let found = CollectionLocation.find(
                explicit: explicit, environment: environment, currentDirectory: currentDirectory),
            let collection = try? CollectionLoader.load(from: found.url)
        else { return [] }
        var names: [String] = []
        if folders {
            for endpoint in collection.endpoints where !endpoint.folderPath.isEmpty {
                for depth in 1...endpoint.folderPath.count {
                    let folder = endpoint.folderPath.prefix(depth).joined(separator: "/")
                    if !names.contains(folder) { names.append(folder) }
                }
            }
        }
        names += collection.endpoints.map(\.id)
        return names.filter { $0.hasPrefix(prefix) }
    }
}
