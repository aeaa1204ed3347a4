import ArgumentParser
import Foundation
import Workspace

/// Shell completion of an endpoint argument (`explorer send <TAB>`): the endpoints of the
/// collection the command would read (`--collection FILE` on the line so far, else
/// `./explorer.yaml`, else `$EXPLORER_COLLECTION`), as `Folder/Name`, those that start with
/// what is typed. Reading the file runs nothing it references; a file that does not load
/// completes nothing.
enum EndpointCompletion {
    /// The completion kind for an endpoint argument; `folders` adds the folders (`run`).
    static func kind(folders: Bool = false) -> CompletionKind {
        .custom { arguments, _, prefix in candidates(arguments: arguments, prefix: prefix, folders: folders) }
    }

    /// The endpoints (and folders) starting with `prefix`, in file order.
    static func candidates(arguments: [String], prefix: String, folders: Bool = false,
                           environment: [String: String] = ProcessInfo.processInfo.environment,
                           currentDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        var explicit: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--collection", index + 1 < arguments.count { explicit = arguments[index + 1] }
            if argument.hasPrefix("--collection=") { explicit = String(argument.dropFirst("--collection=".count)) }
        }
        guard let found = CollectionLocation.find(explicit: explicit, environment: environment, currentDirectory: currentDirectory),
              let collection = try? CollectionLoader.load(from: found.url) else { return [] }
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
