import Checks
import Formats
import Foundation
import Synchronization
import Workspace

/// What checks every response against the collection's `openapi:` document: a file is read
/// again when it changed, a URL is fetched once per session; a document that cannot be read is
/// told once, as an error.
package final class ContractCache: Sendable {
    /// What checks a response when it is known without waiting: `nil` inside when the
    /// collection names no document or it does not read.
    package enum Known: Sendable {
        case ready(ResponseValidation?)
        /// The document is named by URL and not fetched yet.
        case fetching
    }

    /// The document as last read: its key (`key(_:)`) and the contract, or `nil` when it
    /// could not be read.
    private let last = Mutex<(key: String, validation: ResponseValidation?)?>(nil)

    package init() {}

    /// The validation when it is known without waiting.
    ///
    /// - Parameter report: told each note of the document, and why it cannot be used.
    package func known(
        for collection: APICollection, report: @escaping @Sendable (_ sentence: String, _ isError: Bool) -> Void
    )
        -> Known
    {
        guard let location = OpenAPILocation(collection) else { return .ready(nil) }
        let key = Self.key(location)
        if let known = last.withLock({ $0 }), known.key == key { return .ready(known.validation) }
        guard case .file = location else { return .fetching }
        var validation: ResponseValidation?
        do {
            let loaded = try ResponseContract.loading(for: collection) { report("openapi: \($0)", false) }
            validation = loaded.map { ResponseValidation($0, everyResponse: true) }
        } catch {
            report("Responses are not checked against openapi: \(error)", true)
        }
        last.withLock { $0 = (key, validation) }
        return .ready(validation)
    }

    /// The validation, fetching a document named by URL the first time.
    package func validation(
        for collection: APICollection, report: @escaping @Sendable (_ sentence: String, _ isError: Bool) -> Void
    ) async -> ResponseValidation? {
        if case .ready(let validation) = known(for: collection, report: report) { return validation }
        guard let location = OpenAPILocation(collection) else { return nil }
        var validation: ResponseValidation?
        do {
            let loaded = try await ResponseContract.linked(for: collection) { report("openapi: \($0)", false) }
            validation = loaded.map { ResponseValidation($0, everyResponse: true) }
        } catch {
            report("Responses are not checked against openapi: \(error)", true)
        }
        last.withLock { $0 = (Self.key(location), validation) }
        return validation
    }

    /// What the contract read last is kept under: a file's path and modification date, a URL.
    private static func key(_ location: OpenAPILocation) -> String {
        switch location {
        case .remote(let url): return url.absoluteString
        case .file(let file):
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
                .map { "\($0.timeIntervalSince1970)" } ?? "-"
            return file.path + "@" + modified
        }
    }
}
