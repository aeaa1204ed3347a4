import Workspace

/// What is wrong in the collection file, shown until the file is fixed: the loader's warnings
/// about the collection in use (an unknown key and its did-you-mean, a method sent as written),
/// and the error of the last reload when the file on disk does not load, while the last
/// version that did stays in use.
struct CollectionProblems: Sendable, Hashable {
    /// The warnings of the collection in use, each `file:line:column: warning: …`.
    var warnings: [String] = []
    /// Why the file on disk does not load (`file:line:column: …`), or nil.
    var loadError: String?

    /// Every problem, the load error first.
    var all: [String] { (loadError.map { [$0] } ?? []) + warnings }

    var count: Int { all.count }

    var isEmpty: Bool { all.isEmpty }

    /// The warnings of a collection just loaded; the file loads, so no load error.
    init(_ collection: APICollection?) {
        warnings = collection?.warnings.map(\.description) ?? []
    }
}
