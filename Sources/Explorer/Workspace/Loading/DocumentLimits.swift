import Foundation
import Query

/// What a document read from a file (a collection, an OpenAPI description, another tool's
/// export) may hold: its size, how deeply it nests, and how many nodes YAML aliases may add.
///
/// Every reader of such files goes through these limits (`BoundedYAML` for YAML; for JSON the
/// size check and a parser bounded in depth), so no
/// file can exhaust memory or the stack: a 1 KB "billion laughs" (aliases of aliases) is
/// refused at the line of the alias, not expanded. Each limit is raised by an environment
/// variable, which the error names.
package struct DocumentLimits: Sendable, Hashable {
    /// The largest document, in bytes (`EXPLORER_MAX_DOCUMENT_SIZE`, default 64 MiB).
    package var maxBytes: Int
    /// How deeply mappings and sequences may nest (`EXPLORER_MAX_DOCUMENT_DEPTH`, default 512;
    /// libyaml stops at 1,000 whatever this says).
    package var maxDepth: Int
    /// How many nodes YAML aliases may add to a document when expanded
    /// (`EXPLORER_MAX_YAML_ALIAS_NODES`, default 1,000,000).
    package var maxAliasNodes: Int
    /// How long a document named by URL (`openapi: https://…`) may take to arrive, in seconds
    /// (`EXPLORER_DOCUMENT_TIMEOUT`, default 30).
    package var fetchSeconds: Int

    /// Creates limits.
    package init(maxBytes: Int = 64 << 20, maxDepth: Int = 512, maxAliasNodes: Int = 1_000_000, fetchSeconds: Int = 30)
    {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxAliasNodes = maxAliasNodes
        self.fetchSeconds = fetchSeconds
    }

    /// The environment variables that raise each limit.
    package static let sizeVariable = "EXPLORER_MAX_DOCUMENT_SIZE"
    package static let depthVariable = "EXPLORER_MAX_DOCUMENT_DEPTH"
    package static let aliasVariable = "EXPLORER_MAX_YAML_ALIAS_NODES"
    package static let timeoutVariable = "EXPLORER_DOCUMENT_TIMEOUT"

    /// The limits of this process: the defaults, raised (or lowered) by the environment.
    package static let current = DocumentLimits(environment: ProcessInfo.processInfo.environment)

    /// The defaults, with what `environment` sets; a value that is not a positive number is
    /// ignored. A size may end in `K`, `M` or `G` (binary: `128M` is 128 MiB).
    package init(environment: [String: String]) {
        self.init()
        if let bytes = environment[Self.sizeVariable].flatMap(LimitSetting.size) { maxBytes = bytes }
        if let depth = environment[Self.depthVariable].flatMap({ Int($0) }), depth > 0 { maxDepth = depth }
        if let nodes = environment[Self.aliasVariable].flatMap({ Int($0) }), nodes >= 0 { maxAliasNodes = nodes }
        if let seconds = environment[Self.timeoutVariable].flatMap({ Int($0) }), seconds > 0 { fetchSeconds = seconds }
    }

    /// Throws when `byteCount` is over the size limit.
    ///
    /// - Throws: `DocumentLimitError` at line 1 of `file`.
    /// Reads a file that must be within the size limit: its size is asked of the file system
    /// first, so a file over the limit is refused without reading it into memory.
    ///
    /// - Returns: the bytes, or `nil` when the file cannot be read (the caller names it).
    /// - Throws: `DocumentLimitError` for a file over the limit.
    package func readFile(at url: URL) throws(DocumentLimitError) -> Data? {
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue {
            try checkSize(size, file: url.path)
        }
        guard let data = try? Data(contentsOf: url) else { return nil }
        try checkSize(data.count, file: url.path)
        return data
    }

    /// Reads a UTF-8 text file within the size limit (see `readFile(at:)`).
    ///
    /// - Returns: the text, or `nil` when the file cannot be read or is not UTF-8.
    package func readText(at url: URL) throws(DocumentLimitError) -> String? {
        try readFile(at: url).flatMap { String(data: $0, encoding: .utf8) }
    }

    package func checkSize(_ byteCount: Int, file: String) throws(DocumentLimitError) {
        guard byteCount > maxBytes else { return }
        throw DocumentLimitError(
            location: FileLocation(file: file, line: 1, column: 1),
            problem: "the document is \(byteCount) bytes, over the limit of \(maxBytes) bytes",
            variable: Self.sizeVariable, suggested: byteCount
        )
    }
}

/// A document over one of its `DocumentLimits`: where, what, and how to raise the limit.
package struct DocumentLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the limit was passed (line 1 for the size).
    package var location: FileLocation
    /// What is over the limit.
    package var problem: String
    /// The environment variable that raises the limit; nil when it cannot be raised (libyaml's
    /// own nesting limit).
    package var variable: String?
    /// A value of `variable` that would let this document through, when one is known.
    package var suggested: Int?

    /// The line where the limit was passed.
    package var line: Int { location.line }

    /// The sentence a person reads: where, what, and the variable to set.
    package var description: String { "\(location): \(problem). \(advice)" }

    /// How to read the document anyway.
    package var advice: String {
        guard let variable else { return "The limit cannot be raised." }
        let value = suggested.map { "\($0)" } ?? "a larger number"
        return "If the file is trusted, set \(variable)=\(value) to read it."
    }
}
