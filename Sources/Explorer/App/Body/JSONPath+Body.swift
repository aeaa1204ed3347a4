import Foundation
import NetworkingCore
import Query
import Terminal
import Workspace

extension JSONPath {
    /// The largest body the filter reads: it parses the whole document into values, several
    /// times the body's size in memory.
    static let filterLimit = 64 * 1024 * 1024

    /// Parses `expression` and applies it to a JSON document, giving the matches as a document;
    /// on an event view (server-sent events, JSON lines), to each event's data: the events whose
    /// data has a match are listed with their header line and the matches.
    ///
    /// - Parameter limits: how many nodes and how long the query may take (the TUI's live
    ///   filter runs within `EvaluationLimits.betweenKeys`).
    static func filter(_ document: BodyDocument, _ expression: String, limits: EvaluationLimits = .current) throws
        -> BodyDocument
    {
        let path = try JSONPath(expression)
        guard document.kind == .events else {
            guard document.raw.count <= filterLimit else {
                let size = ByteCountText.binary(document.raw.count)
                let limit = ByteCountText.binary(filterLimit)
                throw Failure(
                    description:
                        "The body is \(size); the JSONPath filter reads bodies up to \(limit), as it holds the "
                        + "whole document in memory. Search it with /, fold it with z, or save it with s and filter it with jq."
                )
            }
            // The process's depth limit, fixed at launch (EXPLORER_MAX_DOCUMENT_DEPTH), as the CLI's.
            return BodyDocument.make(
                try path.evaluate(document.raw, maximumDepth: DocumentLimits.current.maxDepth, limits: limits),
                contentType: "application/json")
        }
        var blocks: [String] = []
        var events = 0
        var jsonEvents = 0
        for (header, data) in Self.events(in: document.text) {
            events += 1
            guard let root = try? JSONValue(parsing: data) else { continue }
            jsonEvents += 1
            let matches = try path.evaluate(root, limits: limits)
            guard !matches.isEmpty else { continue }
            try path.checkWritable(matches, limits: limits)
            let pretty = JSONValue.array(matches).serialized(pretty: true).replacingOccurrences(of: "\n", with: "\n  ")
            blocks.append(header + "\n  " + pretty)
        }
        guard jsonEvents > 0 else {
            throw Failure(
                description: events == 0
                    ? "No event has arrived yet to filter."
                    : "No event's data is JSON, so a JSONPath filter cannot apply.")
        }
        let text = (["\(blocks.count) of \(events) events match \(expression)"] + blocks).joined(separator: "\n")
        return BodyDocument.events(
            text, contentType: document.contentType, byteCount: document.byteCount, raw: document.raw,
            rawLines: document.rawLines)
    }

    /// The events of an event view's text: each header line (`▸ …`) with its data (the lines
    /// below it, their two-space indent taken off).
    private static func events(in text: BodyLines) -> [(header: String, data: String)] {
        var events: [(header: String, data: [String])] = []
        for index in 0..<text.lineCount {
            let line = text.line(index)
            if line.hasPrefix("▸ ") {
                events.append((line, []))
            } else if !events.isEmpty {
                events[events.count - 1].data.append(line.hasPrefix("  ") ? String(line.dropFirst(2)) : line)
            }
        }
        return events.map { ($0.header, $0.data.joined(separator: "\n")) }
    }
}
