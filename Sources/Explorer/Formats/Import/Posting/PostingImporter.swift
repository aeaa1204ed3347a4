import Foundation
import NetworkingCore
import Workspace
import Yams

/// Imports a Posting collection (the terminal HTTP client's `*.posting.yaml` files).
///
/// A collection is a folder: each `*.posting.yaml` file is one request, and each subfolder a
/// folder (sorted as Posting shows them: subfolders by name, requests by method, then name).
/// A request's `method`, `url` (with its `path_params` put into the `:name` placeholders, and
/// `http://` when it has no scheme, as Posting sends it), `params`, `headers` (an
/// `enabled: false` row kept switched off), `body` (`content` with its `content_type`, or
/// `form_data`), `auth` (`basic`, `digest`, `bearer_token`), `description` and `options`
/// (`follow_redirects`) become the endpoint's. What a collection cannot say per request
/// (`verify_ssl: false`, a `timeout`, a `proxy_url`, `attach_cookies: false`) and `scripts`
/// (Python files, never run here) are named in one warning each.
///
/// The `.env` files at the top of the folder (`.env`, `dev.env` …) are its environments, named
/// after the file (`.env` is `default`). Posting's `$name` and `${name}` are `{{name}}`
/// (`$$` is a `$`).
///
/// A request file that cannot be read is skipped, named with its line in a warning; a folder
/// in which no request reads is refused with the first file's error. One `*.posting.yaml` file
/// named alone is imported as a collection of its one request.
package struct PostingImporter: Sendable {
    /// How many request files one folder may hold (a folder beyond is refused, not walked for ever).
    static let maximumFiles = 10_000

    /// Creates an importer.
    package init() {}

    /// Imports a Posting collection folder.
    ///
    /// - Throws: `ImportError` when the path is neither a folder nor a `*.posting.yaml` file,
    ///   holds no `*.posting.yaml` file, or none of its request files can be read.
    package func importFolder(at url: URL) throws -> ImportResult {
        let folder = url.standardizedFileURL
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory)
        if exists, !isDirectory.boolValue, folder.lastPathComponent.hasSuffix(".posting.yaml") {
            // One request file alone: its request, refused at its line when it does not read.
            var reading = Reading()
            let request = try reading.request(at: folder)
            return Self.result(of: request, reading: reading)
        }
        guard exists, isDirectory.boolValue else {
            throw ImportError.invalidFile(
                path: folder.path, format: "a Posting collection",
                reason: "it is not a folder; name the folder that holds the *.posting.yaml files.")
        }
        let files = try Self.requestFiles(in: folder)
        guard !files.isEmpty else {
            throw ImportError.invalidFile(
                path: folder.path, format: "a Posting collection", reason: "it holds no *.posting.yaml file.")
        }
        var reading = Reading()
        var firstError: ImportError?
        var requests: [(folders: [String], request: Request)] = []
        for file in files {
            let relative = Array(file.pathComponents.dropFirst(folder.pathComponents.count))
            do {
                let request = try reading.request(at: file)
                requests.append((Array(relative.dropLast()), request))
            } catch let error as ImportError {
                firstError = firstError ?? error
                reading.skipped.append(error.description)
            }
        }
        if requests.isEmpty, let firstError { throw firstError }
        var collection = APICollection(name: folder.lastPathComponent)
        let (items, baseURL) = ImportedOrigins.relativeToMainOrigin(Self.tree(requests, under: []))
        collection.items = items
        collection.environments = reading.environments(in: folder, baseURL: baseURL ?? "http://localhost")
        reading.noteUndefinedVariables(collection)
        return ImportResult(collection: collection, warnings: reading.report())
    }

    /// Imports one request file's text, as a collection of that one request (no environment file).
    ///
    /// - Throws: `ImportError.invalidFile` naming the file and line.
    func importRequest(_ text: String, path: String) throws -> ImportResult {
        var reading = Reading()
        return Self.result(of: try reading.request(text: text, path: path), reading: reading)
    }

    /// One request as a collection of its own.
    private static func result(of request: Request, reading: Reading) -> ImportResult {
        let (items, baseURL) = ImportedOrigins.relativeToMainOrigin(Self.tree([([], request)], under: []))
        var collection = APICollection(name: request.endpoint.name, items: items)
        collection.environments = [Environment(name: "default", baseURLTemplate: baseURL ?? "http://localhost")]
        return ImportResult(collection: collection, warnings: reading.report())
    }

    /// The request files under a folder, sorted by path; hidden folders and files are left out.
    static func requestFiles(in folder: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let file as URL in walker where file.lastPathComponent.hasSuffix(".posting.yaml") {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            files.append(file.standardizedFileURL)
            if files.count > maximumFiles {
                throw ImportError.invalidFile(
                    path: folder.path, format: "a Posting collection",
                    reason: "it holds more than \(maximumFiles) request files; import a smaller folder.")
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The folders and endpoints of one level, as Posting orders them: requests by method
    /// (GET, POST, PUT, PATCH, DELETE, then the rest) and name, then subfolders by name.
    static func tree(_ requests: [(folders: [String], request: Request)], under path: [String]) -> [CollectionItem] {
        let here = requests.filter { $0.folders.isEmpty }.map(\.request).sorted { $0.sortKey < $1.sortKey }
        var items: [CollectionItem] = []
        var used: Set<String> = []
        for request in here {
            var endpoint = request.endpoint
            var name = endpoint.name
            var counter = 2
            while !used.insert(name).inserted {
                name = "\(endpoint.name) (\(counter))"
                counter += 1
            }
            endpoint.name = name
            endpoint.folderPath = path
            items.append(.endpoint(endpoint))
        }
        let names = Set(requests.compactMap(\.folders.first)).sorted()
        for name in names {
            let inside = requests.filter { $0.folders.first == name }.map {
                (Array($0.folders.dropFirst()), $0.request)
            }
            items.append(.folder(Folder(name: name, items: tree(inside, under: path + [name]))))
        }
        return items
    }
}
