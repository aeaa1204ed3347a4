import Foundation
import NetworkingCore
import Synchronization

/// Documents a collection names by URL (`openapi: https://…`), fetched through the project's
/// transport within the `DocumentLimits` (size, time) and kept for the life of the process: the
/// CLI reads one once per command, the TUI once per session, never once per response.
///
/// A fetch that fails is not kept, so a later command (or `explorer openapi refresh`) asks
/// again; callers that read the document for every response keep their own answer.
package final class RemoteDocuments: Sendable {
    /// The process's documents.
    package static let shared = RemoteDocuments()

    private let fetches = Mutex<[URL: Task<String, any Error>]>([:])
    private let configuration: AsyncHTTPClientTransport.Configuration

    /// - Parameter configuration: the transport's settings (the process's proxy variables apply
    ///   by default, as for every request the explorer sends).
    package init(configuration: AsyncHTTPClientTransport.Configuration = .init()) {
        self.configuration = configuration
    }

    /// The document at `url`, as text: fetched the first time (callers asking meanwhile wait for
    /// the same fetch), kept after.
    ///
    /// - Throws: `RemoteDocumentError`: not `2xx`, over the size limit, no answer in time, not
    ///   UTF-8, or the transport's failure.
    package func text(at url: URL, limits: DocumentLimits = .current) async throws(RemoteDocumentError) -> String {
        let task = fetches.withLock { fetches in
            if let running = fetches[url] { return running }
            let configuration = self.configuration
            let started = Task { try await Self.fetch(url, limits: limits, configuration: configuration) }
            fetches[url] = started
            return started
        }
        do {
            return try await task.value
        } catch {
            fetches.withLock { fetches in
                if fetches[url] == task { fetches[url] = nil }
            }
            throw error as? RemoteDocumentError ?? RemoteDocumentError(url: url, problem: String(describing: error))
        }
    }

    private static func fetch(_ url: URL, limits: DocumentLimits, configuration: AsyncHTTPClientTransport.Configuration)
        async throws -> String
    {
        let transport = AsyncHTTPClientTransport(configuration: configuration)
        defer { Task { try? await transport.shutdown() } }
        let options = TransferOptions(
            timeout: .seconds(limits.fetchSeconds), maximumBodySize: limits.maxBytes, followsRedirects: true)
        let request = PreparedRequest(
            method: .get, url: url, headers: ["Accept": "application/json, application/yaml, text/yaml, */*"])
        let response: TransportResponse
        do {
            response = try await transport.send(request, options: options) { _ in }
        } catch TransportError.bodyTooLarge {
            throw RemoteDocumentError(
                url: url, problem: "the document is over the limit of \(limits.maxBytes) bytes",
                advice: "If it is trusted, set \(DocumentLimits.sizeVariable) to a larger size (128M) to read it.")
        } catch TransportError.timedOut {
            throw RemoteDocumentError(
                url: url, problem: "it did not arrive within \(limits.fetchSeconds) s",
                advice: "Set \(DocumentLimits.timeoutVariable)=\(limits.fetchSeconds * 4) to wait longer.")
        } catch {
            throw RemoteDocumentError(url: url, problem: String(describing: error))
        }
        guard (200..<300).contains(response.status.code) else {
            throw RemoteDocumentError(
                url: url, problem: "the server answered \(response.status.code)",
                advice: "Check the URL in openapi:.")
        }
        let body = response.body ?? Data()
        try limits.checkSizeOfFetched(body.count, url: url)
        guard let text = String(data: body, encoding: .utf8) else {
            throw RemoteDocumentError(url: url, problem: "the document is not UTF-8 text")
        }
        return text
    }
}

extension DocumentLimits {
    /// A fetched document over the size limit (a server that sent more than it announced).
    fileprivate func checkSizeOfFetched(_ byteCount: Int, url: URL) throws(RemoteDocumentError) {
        guard byteCount > maxBytes else { return }
        throw RemoteDocumentError(
            url: url, problem: "the document is \(byteCount) bytes, over the limit of \(maxBytes) bytes",
            advice: "If it is trusted, set \(Self.sizeVariable)=\(byteCount) to read it.")
    }
}

/// A document named by URL that could not be fetched: which, why, and what to do.
package struct RemoteDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    package var url: URL
    package var problem: String
    package var advice: String?

    package init(url: URL, problem: String, advice: String? = nil) {
        self.url = url
        self.problem = problem
        self.advice = advice
    }

    /// What went wrong, then what to do (without the URL: `description` has it).
    package var reason: String { problem + "." + (advice.map { " " + $0 } ?? "") }

    package var description: String { "\(url.absoluteString) cannot be fetched: \(reason)" }
}
