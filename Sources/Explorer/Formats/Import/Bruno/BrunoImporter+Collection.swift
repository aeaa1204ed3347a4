import Foundation
import NetworkingCore
import Workspace

/// Bruno's model (the shape of its JSON export, which the `.bru` and OpenCollection readers
/// give too) mapped onto a collection.
enum BrunoCollection {
    /// What the folders around an item give it, as Bruno merges them when it sends.
    struct Scope {
        /// The enabled headers of the collection and the folders, outer first.
        var headers: [KeyValue] = []
        /// The folders' pre-request variables (they win over the environment's in Bruno).
        var variables: [String: String] = [:]
        /// The collection's and folders' post-response variables (run after every request).
        var captures: [LooseObject] = []
        /// Whether a folder or the collection around has auth (so `none` must say so).
        var hasAuth = false
        /// The folders' names.
        var folderPath: [String] = []
    }

    /// The collection of a Bruno tree (`name`, `items`, `environments`, `root`).
    static func collection(of tree: LooseObject, report: inout BrunoReport) -> ImportResult {
        let name = tree.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? "Imported from Bruno"
        let root = tree.object("root") ?? [:]
        let rootRequest = root.object("request") ?? [:]
        var mapper = BrunoRequestMapper(report: report)
        var scope = Scope()
        scope.headers = mapper.enabledPairs(rootRequest.objects("headers"))
        scope.captures = mapper.enabled(rootRequest.object("vars")?.objects("res") ?? [])
        let collectionAuth = mapper.authentication(rootRequest.object("auth"), owner: "the collection", turnsOff: false)
        scope.hasAuth = collectionAuth.map { $0.scheme != .none } ?? false
        mapper.noteScripts(rootRequest, owner: "the collection")
        let variables = mapper.enabledPairs(rootRequest.object("vars")?.objects("req") ?? []).map {
            KeyValue(BrunoTemplates.variableName($0.name), $0.value)
        }

        var items = mapper.items(tree.objects("items"), scope: scope)
        // gRPC endpoints keep their own server; the others share the main origin.
        let (placed, found) = ImportedOrigins.relativeToMainOrigin(withoutGRPC(items))
        items = restoringGRPC(placed, from: items)
        let baseURL = found ?? "http://localhost"

        var environments: [Environment] = []
        var usedNames: Set<String> = []
        for environment in tree.objects("environments") {
            let variables = environment.objects("variables").filter { $0["enabled"] as? Bool ?? true }
            let secrets = variables.filter { $0.flag("secret") }.compactMap { $0.text("name") }
                .map(BrunoTemplates.variableName)
            for secret in secrets { mapper.report.secretVariables.insert(secret) }
            var environmentName = environment.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? "default"
            var counter = 2
            while !usedNames.insert(environmentName).inserted {
                environmentName = "\(environment.text("name") ?? "default") (\(counter))"
                counter += 1
            }
            environments.append(
                Environment(
                    name: environmentName, baseURLTemplate: baseURL,
                    variables: variables.compactMap { variable in
                        variable.text("name").flatMap {
                            $0.isEmpty
                                ? nil
                                : KeyValue(
                                    BrunoTemplates.variableName($0),
                                    mapper.templates.convert(variable.text("value") ?? ""))
                        }
                    }, secrets: secrets))
        }
        if environments.isEmpty { environments = [Environment(name: "default", baseURLTemplate: baseURL)] }
        var collection = APICollection(name: name, variables: variables, environments: environments, items: items)
        collection.auth = collectionAuth.flatMap { $0.scheme == .none ? nil : $0 }
        collection.description = (root.text("docs") ?? rootRequest.text("docs")).flatMap {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0
        }
        mapper.report.dynamicVariables.formUnion(mapper.templates.unknownDynamic)
        if !mapper.templates.renamed.isEmpty {
            mapper.report.other.append(
                "the variables " + mapper.templates.renamed.sorted().joined(separator: ", ")
                    + " were renamed env_…: explorer reads {{env.NAME}} from the process environment.")
        }
        report = mapper.report
        return ImportResult(collection: collection, warnings: report.warnings)
    }

    /// The items without gRPC endpoints (for the origins, which they do not share).
    private static func withoutGRPC(_ items: [CollectionItem]) -> [CollectionItem] {
        items.compactMap { item in
            switch item {
            case .endpoint(let endpoint): return endpoint.isGRPC ? nil : item
            case .folder(var folder):
                folder.items = withoutGRPC(folder.items)
                return .folder(folder)
            }
        }
    }

    /// The placed items with the gRPC endpoints of `original` back in their places.
    private static func restoringGRPC(_ placed: [CollectionItem], from original: [CollectionItem]) -> [CollectionItem] {
        var remaining = placed[...]
        return original.map { item in
            switch item {
            case .endpoint(let endpoint):
                if endpoint.isGRPC { return item }
                return remaining.popFirst() ?? item
            case .folder(var folder):
                guard case .folder(let placedFolder)? = remaining.popFirst() else { return item }
                folder.items = restoringGRPC(placedFolder.items, from: folder.items)
                return .folder(folder)
            }
        }
    }
}
