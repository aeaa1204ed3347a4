import Checks
import Contract
import Foundation
import NetworkingCore
import Workspace

extension ResponseContract {
    /// Reads the OpenAPI document a collection names with `openapi:` (a path relative to the
    /// collection's file), as tolerantly as `explorer import openapi` reads one: YAML or JSON,
    /// within the document limits, `$ref`s to other files of its folder put in place.
    ///
    /// - Parameters:
    ///   - collection: the collection.
    ///   - limits: what the document may hold.
    ///   - warn: told the document's own mistakes, once each.
    /// - Returns: the contract, or `nil` when the collection names no document.
    /// - Throws: `ImportError` naming the document and what is wrong with it.
    package static func loading(
        for collection: APICollection, limits: DocumentLimits = .current,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) throws -> ResponseContract? {
        guard let named = collection.openAPI?.trimmingCharacters(in: .whitespaces), !named.isEmpty else { return nil }
        if named.contains("://") {
            throw ImportError.invalidOpenAPI(
                path: named,
                reason:
                    "explorer checks responses against a document on disk; "
                    + "download it beside the collection and name that file in openapi:."
            )
        }
        let folder =
            collection.sourceURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let file = named.hasPrefix("/") ? URL(fileURLWithPath: named) : folder.appendingPathComponent(named)
        // Where the document really is now: a file of the folder swapped for a link out of it
        // after the collection was trusted is not read on that trust's word.
        if let refusal = SendTimeFiles(
            collectionFile: collection.sourceURL, environment: ProcessInfo.processInfo.environment
        ).refusal(toRead: file) {
            throw ImportError.invalidOpenAPI(path: file.path, reason: refusal + ".")
        }
        let read: String?
        do {
            read = try limits.readText(at: file)
        } catch {
            throw ImportError.invalidOpenAPI(path: file.path, reason: "\(error.problem). \(error.advice)")
        }
        guard let text = read else {
            throw ImportError.invalidOpenAPI(
                path: file.path,
                reason:
                    "the file named by openapi: cannot be read; check the path (relative to the collection's folder).")
        }
        var warnings: [String] = []
        var tree = try OpenAPIImporter.documentTree(text, path: file.path, limits: limits, warnings: &warnings)
        if OpenAPIImporter.hasExternalReference(tree) {
            var references = OpenAPIImporter.ExternalReferences(document: file, tree: tree, limits: limits)
            references.keepsResponses = true
            tree = try references.resolving(tree, in: references.document, keys: [], stack: [])
            warnings += references.warnings
        }
        let contract: OpenAPIContract
        do {
            contract = try OpenAPIContract(document: tree)
        } catch {
            throw ImportError.invalidOpenAPI(path: file.path, reason: error.description)
        }
        warnings.forEach(warn)
        return ResponseContract(contract, document: named, warn: warn)
    }
}
