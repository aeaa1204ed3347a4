import Foundation
import NetworkingCore
import Workspace

/// The JetBrains HTTP Client's environment files beside a `.http` file:
/// `http-client.env.json` and `http-client.private.env.json`.
extension HTTPFileImporter {
    /// The shared file's name.
    static let environmentFileName = "http-client.env.json"
    /// The private file's name (kept out of version control; its values are secrets).
    static let privateEnvironmentFileName = "http-client.private.env.json"

    /// The import with the environments of the files beside the `.http` file, as the IntelliJ
    /// HTTP client reads them: each top-level key is an environment, its string, number and
    /// boolean values its variables; `$shared` holds values every environment has unless it
    /// sets its own; the private file's values join (and win over) the shared file's and are
    /// listed as secrets, so they are masked wherever they are shown. `SSLConfiguration`
    /// becomes the environment's `tls:` (`clientCertificate`, `clientCertificateKey`,
    /// `verifyHostCertificate: false`); other objects (`Security` …) are reported.
    ///
    /// The environments replace the import's `default` one and keep its base URL; without
    /// either file the import is returned as it was.
    ///
    /// - Parameters:
    ///   - result: the `.http` file's import.
    ///   - file: the `.http` file.
    /// - Throws: `ImportError.invalidFile` naming the file, line and column when one is not
    ///   a JSON object of environments, or is over the document size limit.
    static func addingEnvironments(to result: ImportResult, beside file: URL) throws -> ImportResult {
        let folder = file.deletingLastPathComponent()
        var files: [(data: Data, isPrivate: Bool, path: String)] = []
        for (name, isPrivate) in [(environmentFileName, false), (privateEnvironmentFileName, true)] {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            files.append((try environmentData(at: url), isPrivate, url.path))
        }
        return try addingEnvironments(to: result, files: files)
    }

    /// `addingEnvironments(to:beside:)` on the files' bytes: the shared file first, then the private one.
    ///
    /// - Throws: `ImportError.invalidFile` naming the file, line and column.
    static func addingEnvironments(to result: ImportResult, files read: [(data: Data, isPrivate: Bool, path: String)])
        throws -> ImportResult
    {
        let files = try read.map {
            (values: try environmentObject($0.data, path: $0.path), isPrivate: $0.isPrivate, path: $0.path)
        }
        guard !files.isEmpty else { return result }
        var copy = result
        let baseURL = result.collection.environments.first?.baseURLTemplate ?? "http://localhost"
        var names: [String] = []
        var variables: [String: [KeyValue]] = [:]
        var secrets: [String: [String]] = [:]
        var tls: [String: TLSSettings] = [:]
        var shared: [KeyValue] = []
        var sharedSecrets: [String] = []
        for file in files {
            for (name, value) in file.values {
                guard let members = value.members else {
                    copy.warnings.append(
                        "\(file.path): \"\(name)\" is not an object of variables; it was left out.")
                    continue
                }
                var pairs: [KeyValue] = []
                for (key, member) in members {
                    if let text = scalarText(member) {
                        pairs.append(KeyValue(key, text))
                    } else if key == "SSLConfiguration", name != "$shared" {
                        tls[name] = tlsSettings(member, into: tls[name])
                    } else {
                        copy.warnings.append(
                            "\(file.path): \"\(name)\" has \(key), which is not imported (it is not a text value).")
                    }
                }
                if name == "$shared" {
                    merge(pairs, into: &shared)
                    if file.isPrivate { sharedSecrets += pairs.map(\.name) }
                    continue
                }
                if !names.contains(name) { names.append(name) }
                merge(pairs, into: &variables[name, default: []])
                if file.isPrivate { secrets[name, default: []] += pairs.map(\.name) }
            }
        }
        if names.isEmpty && !shared.isEmpty { names = ["default"] }
        guard !names.isEmpty else { return result }
        copy.collection.environments = names.map { name in
            var own = variables[name] ?? []
            for pair in shared where own[named: pair.name] == nil { own.append(pair) }
            let ownSecrets = (secrets[name] ?? []) + sharedSecrets.filter { (variables[name] ?? [])[named: $0] == nil }
            return Environment(
                name: name, baseURLTemplate: baseURL, variables: own,
                secrets: ownSecrets.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } },
                tls: tls[name])
        }
        // A variable the files define is no longer "not defined in the file".
        let defined = Set(copy.collection.environments.flatMap { $0.variables.map(\.name) })
        copy.warnings.removeAll { warning in
            defined.contains { warning.hasPrefix("{{\($0)}} is not defined in the file") }
        }
        return copy
    }

    /// The format named in errors.
    private static let environmentFormat = "a JetBrains HTTP Client environment file"

    /// An environment file's bytes, read within the document limits.
    private static func environmentData(at url: URL) throws -> Data {
        do {
            guard let data = try DocumentLimits.current.readFile(at: url) else {
                throw ImportError.unreadableFile(url.path)
            }
            return data
        } catch let error as DocumentLimitError {
            throw ImportError.invalidFile(
                path: url.path, format: environmentFormat,
                reason: "line \(error.line): \(error.problem). \(error.advice)")
        }
    }

    /// An environment file's top-level object.
    private static func environmentObject(_ data: Data, path: String) throws -> [(key: String, value: JSONValue)] {
        let limits = DocumentLimits.current
        let root: JSONValue
        do {
            try limits.checkSize(data.count, file: path)
            root = try JSONValue(parsing: data, maximumDepth: limits.maxDepth)
        } catch let error as DocumentLimitError {
            throw ImportError.invalidFile(
                path: path, format: environmentFormat, reason: "\(error.problem). \(error.advice)")
        } catch {
            throw ImportError.invalidFile(
                path: path, format: environmentFormat, reason: "it is not valid JSON: \(error).")
        }
        guard let members = root.members else {
            throw ImportError.invalidFile(
                path: path, format: environmentFormat, reason: "line 1: the top level is not an object of environments."
            )
        }
        return members
    }

    /// A string, number or boolean as its text; `nil` for null, objects and lists.
    private static func scalarText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }

    /// `SSLConfiguration` as `tls:` settings.
    private static func tlsSettings(_ value: JSONValue, into existing: TLSSettings?) -> TLSSettings {
        var settings = existing ?? TLSSettings()
        if let certificate = value["clientCertificate"].flatMap(scalarText) {
            settings.clientCertificateFile = certificate
        }
        if let key = value["clientCertificateKey"].flatMap(scalarText) { settings.clientKeyFile = key }
        if value["verifyHostCertificate"]?.boolValue == false { settings.insecure = true }
        return settings
    }

    /// Adds pairs to a list, a later value of the same name replacing the earlier one.
    private static func merge(_ pairs: [KeyValue], into list: inout [KeyValue]) {
        for pair in pairs {
            if let index = list.firstIndex(where: { $0.name == pair.name }) {
                list[index] = pair
            } else {
                list.append(pair)
            }
        }
    }
}
