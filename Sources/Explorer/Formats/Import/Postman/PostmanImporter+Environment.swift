import Foundation
import Workspace
import Yams

/// A Postman environment file on its own (`.postman_environment.json`): users export
/// environments apart from their collections and add them to a collection they have.
extension PostmanImporter {
    /// What adding an environment to a collection did.
    package enum EnvironmentChange: Sendable, Hashable {
        /// A new environment of this name was added.
        case added(String)
        /// The environment of this name had its variables and secrets replaced; its base URL,
        /// headers, auth and other settings were kept.
        case replaced(String)
    }

    /// Whether a file's bytes are a Postman environment rather than a collection.
    package static func isEnvironmentFile(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? LooseObject else { return false }
        return isEnvironment(object)
    }

    /// Whether a parsed file is an environment: `values` and no `item`.
    static func isEnvironment(_ root: LooseObject) -> Bool {
        root["values"] is [Any] && root["item"] == nil
    }

    /// Adds an environment file to a collection, or replaces the variables of the environment
    /// of the same name.
    ///
    /// Disabled values are left out; `type: secret` values are listed as secrets, so they are
    /// masked wherever they are shown; Postman's dynamic variables become explorer's
    /// (`{{$guid}}` → `{{uuid}}`). A new environment takes the base URL of the collection's
    /// first environment (`http://localhost` when it has none); an environment replaced keeps
    /// everything but its variables and secrets (base URL, headers, auth, description …).
    ///
    /// - Parameters:
    ///   - url: the environment file.
    ///   - collection: the collection it goes into.
    /// - Returns: the collection file's new text, what changed, and warnings.
    /// - Throws: `ImportError` when the file cannot be read or is not an environment; an
    ///   emitter error from the YAML library.
    package func addingEnvironment(at url: URL, to collection: APICollection) throws -> (
        text: String, change: EnvironmentChange, warnings: [String]
    ) {
        guard let data = try DocumentLimits.current.readFile(at: url) else {
            throw ImportError.unreadableFile(url.path)
        }
        return try addingEnvironment(data, path: url.path, to: collection)
    }

    /// `addingEnvironment(at:to:)` on a file's bytes.
    func addingEnvironment(_ data: Data, path: String, to collection: APICollection) throws -> (
        text: String, change: EnvironmentChange, warnings: [String]
    ) {
        let root = try LooseJSON.object(from: data, path: path, format: "a Postman environment")
        guard Self.isEnvironment(root) else {
            throw ImportError.invalidFile(
                path: path, format: "a Postman environment", reason: "it has no \"values\" list.")
        }
        var state = State()
        let name = root.text("name") ?? Self.fileStem(path)
        let existingIndex = collection.environments.firstIndex { $0.name == name }
        let base = collection.environments.first?.baseURLTemplate ?? "http://localhost"
        let imported = try Self.environment(data, path: path, baseURL: base, state: &state)
        guard let index = existingIndex else {
            var copy = collection
            copy.environments.append(imported)
            return (try CollectionWriter.yaml(for: copy), .added(name), state.warnings)
        }
        // The environment as the collection writes it, with the imported variables and secrets.
        let written = CollectionWriter.node(for: APICollection(name: "", environments: [imported]))
        let fresh = written["environments"]?.sequence?.first?.mapping
        var rootPairs = Array(CollectionWriter.node(for: collection).mapping ?? [:])
        guard let slot = rootPairs.firstIndex(where: { $0.key.string == "environments" }),
            var list = rootPairs[slot].value.sequence.map(Array.init),
            let old = list[index].mapping
        else {
            return (try CollectionWriter.yaml(for: collection), .replaced(name), state.warnings)
        }
        let order = ["name", "description", "base_url", "protected", "variables", "headers", "secrets"]
        var pairs = old.filter { $0.key.string != "variables" && $0.key.string != "secrets" }
        for key in ["variables", "secrets"] {
            guard let value = fresh?[key] else { continue }
            let rank = order.firstIndex(of: key) ?? order.count
            let position =
                pairs.firstIndex { (order.firstIndex(of: $0.key.string ?? "") ?? order.count) > rank } ?? pairs.count
            pairs.insert((Node(key), value), at: position)
        }
        list[index] = Node(pairs, old.tag, old.style)
        rootPairs[slot].value = Node(list, .implicit)
        let text = try Yams.serialize(node: Node(rootPairs, .implicit), indent: 2, width: -1, allowUnicode: true)
        return (text, .replaced(name), state.warnings)
    }

    /// An environment file as an environment with the given base URL.
    static func environment(_ data: Data, path: String, baseURL: String, state: inout State) throws -> Environment {
        let file = try LooseJSON.object(from: data, path: path, format: "a Postman environment")
        let values = file.objects("values").filter { $0["enabled"] as? Bool ?? true }
        return Environment(
            name: file.text("name") ?? fileStem(path),
            baseURLTemplate: baseURL,
            variables: values.compactMap { value in
                value.text("key").map { KeyValue($0, converted(value.text("value") ?? "", state: &state)) }
            },
            secrets: values.filter { $0.text("type") == "secret" }.compactMap { $0.text("key") }
        )
    }

    /// The file's name without its extensions (`staging.postman_environment.json` → `staging`).
    private static func fileStem(_ path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        return String(name.split(separator: ".").first ?? Substring(name))
    }
}
