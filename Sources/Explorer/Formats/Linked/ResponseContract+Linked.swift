import Checks
import Contract
import Foundation
import NetworkingCore
import Workspace

/// The OpenAPI document a collection names with `openapi:`, from a file or from a URL: what
/// responses are checked against (`send --validate`, `run`, the TUI), what `explorer mock`
/// serves and what `explorer openapi refresh` compares the collection with.
///
/// A document named by URL is fetched once per process (`RemoteDocuments`), within the size
/// limit (`EXPLORER_MAX_DOCUMENT_SIZE`) and a time limit (`EXPLORER_DOCUMENT_TIMEOUT`). It is
/// read alone: its `$ref`s to other documents are not fetched (a file's are read from its own
/// folder, and a URL has no folder of the user's to keep them to), and such a document is
/// refused with what to do.
extension ResponseContract {
    /// The contract of the document the collection names, or `nil` when it names none.
    ///
    /// - Parameters:
    ///   - collection: the collection.
    ///   - limits: what the document may hold, and how long a URL may take.
    ///   - warn: told the document's own mistakes, once each.
    /// - Throws: `ImportError` naming the document and what is wrong with it.
    package static func linked(
        for collection: APICollection, limits: DocumentLimits = .current,
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> ResponseContract? {
        guard let location = OpenAPILocation(collection) else { return nil }
        guard case .remote(let url) = location else { return try loading(for: collection, limits: limits, warn: warn) }
        var warnings: [String] = []
        let tree = try await OpenAPIImporter.remoteTree(url, limits: limits, warnings: &warnings)
        let contract: OpenAPIContract
        do {
            contract = try OpenAPIContract(document: tree)
        } catch {
            throw ImportError.invalidOpenAPI(path: url.absoluteString, reason: error.description)
        }
        warnings.forEach(warn)
        return ResponseContract(contract, document: collection.openAPI ?? url.absoluteString, warn: warn)
    }
}

extension OpenAPIImporter {
    /// Imports the document a collection names, from its file or its URL (`openapi refresh`).
    ///
    /// - Throws: `ImportError` naming the document.
    package func importLinked(_ location: OpenAPILocation, limits: DocumentLimits = .current) async throws
        -> ImportResult
    {
        switch location {
        case .file(let file):
            return try importFile(at: file, limits: limits)
        case .remote(let url):
            var warnings: [String] = []
            // Fetched (once), checked for references to other documents, then imported as text.
            _ = try await Self.remoteTree(url, limits: limits, warnings: &warnings)
            let text = try await Self.remoteText(url, limits: limits)
            return try importText(text, path: url.absoluteString, file: nil, limits: limits)
        }
    }

    /// The text of a document named by URL.
    static func remoteText(_ url: URL, limits: DocumentLimits) async throws -> String {
        do {
            return try await RemoteDocuments.shared.text(at: url, limits: limits)
        } catch {
            throw ImportError.invalidOpenAPI(path: url.absoluteString, reason: error.reason)
        }
    }

    /// The tree of a document named by URL, refused when it refers to another document.
    static func remoteTree(_ url: URL, limits: DocumentLimits, warnings: inout [String]) async throws -> JSONValue {
        let text = try await remoteText(url, limits: limits)
        let tree = try documentTree(text, path: url.absoluteString, limits: limits, warnings: &warnings)
        if let reference = firstExternalReference(in: tree) {
            throw ImportError.invalidOpenAPI(
                path: url.absoluteString,
                reason: "its $ref \"\(reference)\" names another document, and a document named by URL is read alone "
                    + "(its references are not fetched). "
                    + "Download the documents beside the collection and name the main one in openapi:."
            )
        }
        return tree
    }

    /// The first `$ref` under `value` that names another document, in document order (one in
    /// example data is data, not a reference).
    static func firstExternalReference(in value: JSONValue) -> String? {
        var found: String?
        OpenAPIImporter.forEachReference(in: value, at: []) { reference, _ in
            guard !reference.hasPrefix("#") else { return true }
            found = reference
            return false
        }
        return found
    }
}
