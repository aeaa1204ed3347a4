import Foundation
import NetworkingCore

/// Expands the templates of one endpoint in one scope: every part of a request (path, query,
/// headers, auth, body) is expanded the same way, and an error names the part and the endpoint
/// and points at the line and column to fix.
struct EndpointTemplates {
    /// The endpoint whose parts are expanded.
    let endpoint: Endpoint
    /// The variables the request sees.
    let scope: VariableScope

    /// Where a part is written: `key` names it in `Endpoint.locations` (`path`, `query[2]` …);
    /// the endpoint's own line when the part has none.
    func place(_ key: String) -> FileLocation? {
        endpoint.locations[key] ?? endpoint.location
    }

    /// A part's text with its variables expanded.
    ///
    /// - Throws: `ResolveError` naming the part and the endpoint, at the part's place.
    func expand(_ text: String, _ part: String, at key: String) throws -> String {
        try expand(text, part, placedAt: place(key))
    }

    /// A text with its variables expanded, an error pointing at `location` (an inherited
    /// `auth:` is written elsewhere than the endpoint).
    ///
    /// - Throws: `ResolveError` naming the part and the endpoint.
    func expand(_ text: String, _ part: String, placedAt location: FileLocation?) throws -> String {
        do {
            return try scope.expand(text).text
        } catch {
            throw ResolveError(scopeFailure: error, context: "the \(part) of endpoint \"\(endpoint.id)\"", at: location)
        }
    }

    /// Expands a part of the URL piece by piece, appending each piece to `text` encoded on its
    /// own, so that the span of each variable's value in the encoded text is exact.
    ///
    /// - Parameter encode: how a piece is percent-encoded where it stands.
    /// - Returns: the expanded text (not encoded), and the spans of the variables in `text`.
    /// - Throws: `ResolveError` naming the part and the endpoint, at the part's place.
    func expand(
        _ template: String, _ part: String, at key: String, encodingInto text: inout String,
        with encode: (String) -> String
    ) throws -> (text: String, spans: [VariableSpan]) {
        var expanded = ""
        var spans: [VariableSpan] = []
        for segment in Template(template).segments {
            switch segment {
            case .literal(let literal):
                expanded += literal
                text += encode(literal)
            case .variable(let name):
                let value = try expand("{{\(name)}}", part, at: key)
                let encoded = encode(value)
                spans.append(VariableSpan(name: name, range: text.count..<(text.count + encoded.count)))
                expanded += value
                text += encoded
            }
        }
        return (expanded, spans)
    }
}
