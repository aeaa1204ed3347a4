import Foundation
import NetworkingCore
import Query
import Workspace

/// Insomnia's templates in explorer's words, and what an import noticed on the way.
///
/// `{{ _.name }}` is `{{name}}`. A tag (`{% name 'arg', … %}`) becomes:
///
/// | Insomnia | explorer |
/// | --- | --- |
/// | `{% response 'body', 'req_…', '$.token' … %}` | `{{login_token}}`, captured by that request (see below) |
/// | `{% uuid 'v4' %}`, `{% faker 'randomUUID' %}` | `{{uuid}}` |
/// | `{% now 'iso-8601' %}`, `'unix'`, `'millis'` | `{{now}}`, `{{timestamp}}`, `{{timestamp ms}}` |
/// | `{% faker 'timestamp' %}`, `'isoTimestamp'`, `'randomInt'` | `{{timestamp}}`, `{{now}}`, `{{random_int 0 1000}}` |
/// | `{% prompt 'Title' … %}` | `{{prompt "Title"}}` |
/// | `{% base64 'encode', 'normal', 'x' %}`, `'decode'` | `{{base64 "x"}}`, `{{base64_decode "x"}}` |
/// | `{% hash 'sha256', 'hex', 'x' %}` | `{{sha256 "x"}}` |
/// | `{% file 'path' %}` | `{{file "path"}}` |
///
/// A `{% response %}` value is captured by the request it names (`jsonpath`, `xpath`, `header`,
/// the body), which every request using it `requires:`.
///
/// Any other tag stays as written, and the import says which (explorer sends it as text).
struct InsomniaTags {
    /// A value captured from another request's response.
    struct Reference: Hashable {
        /// The variable the tag becomes.
        var variable: String
        /// The Insomnia id of the request whose response it reads.
        var requestID: String
        /// Where in the response.
        var source: Capture.Source
        /// How old a value may be before the request is sent again, from the tag's trigger.
        var maxAge: Double?
    }

    /// Every request's Insomnia id and name.
    let requestNames: [String: String]
    /// Each request's address in the collection, by Insomnia id, filled by the walk.
    var addresses: [String: String] = [:]
    /// The environment values of the folders around the request being read, the innermost's winning.
    var folderValues: [String: String] = [:]
    /// The response references found.
    var references: [Reference] = []
    /// The environment variables whose value holds a captured variable, by that variable.
    var holders: [String: Set<String>] = [:]
    /// The environment variable being converted, if any.
    private var variableBeingRead: String?
    /// Tags kept as written, by name, with how often.
    var keptTags: [String: Int] = [:]
    /// `{% faker %}` values explorer has no function for.
    var unknownFaker: Set<String> = []
    /// Owners of scripts, which are not run.
    var scripts: [String] = []
    /// gRPC requests, which are not imported.
    var grpcRequests: [String] = []
    /// Socket.IO requests (Insomnia 11.4 and later), which are not imported.
    var socketIORequests: [String] = []
    /// Kinds of content not imported (cookie jar, spec …).
    var skipped: Set<String> = []
    /// Other warnings, in order.
    var warnings: [String] = []

    /// `{{ _.name }}`, `{{_.name}}`: Insomnia's spelling of a variable.
    private static let insomniaVariable = try! NSRegularExpression(pattern: #"\{\{\s*_\.([^{}]*?)\s*\}\}"#)

    init(requestNames: [String: String]) {
        self.requestNames = requestNames
    }

    // MARK: - Text

    /// A text with Insomnia's templates in explorer's words, and the folder values in effect
    /// written in.
    mutating func convert(_ text: String) -> String {
        var plain =
            text.contains("_.")
            ? Self.insomniaVariable.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "{{$1}}") : text
        if plain.contains("{%") { plain = convertingTags(in: plain) }
        guard !folderValues.isEmpty, plain.contains("{{") else { return plain }
        let values = folderValues
        return Template.rewritingVariables(in: plain) { values[$0] ?? "{{\($0)}}" }
    }

    /// A JSON value with its strings converted.
    mutating func convert(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(convert(text))
        case .array(let items): return .array(items.map { convert($0) })
        case .object(let pairs): return .object(pairs.map { ($0.key, convert($0.value)) })
        default: return value
        }
    }

    /// An environment's data as variables, in the export's order of keys (sorted when the
    /// parser gave none); an object or a list is kept as JSON text, with a warning.
    mutating func pairs(_ data: LooseObject?) -> [KeyValue] {
        // A row without a name (Insomnia's key-value editor keeps an empty last one) is no variable.
        (data ?? [:]).filter { !$0.key.trimmingCharacters(in: .whitespaces).isEmpty }.sorted { $0.key < $1.key }.map {
            key, value in
            variableBeingRead = key
            defer { variableBeingRead = nil }
            if let text = value as? String { return KeyValue(key, convert(text)) }
            if let number = value as? NSNumber { return KeyValue(key, number.stringValue) }
            if value is NSNull { return KeyValue(key, "") }
            warnings.append(
                "The environment value \(key) is not text (an object or a list); it is kept as JSON text: Insomnia's "
                    + "{{ _.\(key).field }} cannot reach inside it here."
            )
            let json = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map {
                String(decoding: $0, as: UTF8.self)
            }
            return KeyValue(key, json ?? "")
        }
    }

    /// Every `{% … %}` of a text replaced by what explorer has, or kept.
    private mutating func convertingTags(in text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{%") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "%}") else {
                rest = rest[open.lowerBound...]
                break
            }
            let inner = rest[open.upperBound..<close.lowerBound]
            let original = String(rest[open.lowerBound..<close.upperBound])
            out +=
                replacement(for: Self.parse(inner))
                ?? {
                    let name = Self.parse(inner).name
                    keptTags[name.isEmpty ? "(empty)" : name, default: 0] += 1
                    return original
                }()
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// A tag's name and arguments: quoted strings (either quote, backslash escapes), numbers
    /// and words, separated by commas.
    static func parse(_ inner: Substring) -> (name: String, arguments: [String]) {
        let trimmed = inner.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = String(trimmed.prefix { !$0.isWhitespace })
        var arguments: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        var started = false
        for character in trimmed.dropFirst(name.count) {
            if let open = quote {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                started = true
            } else if character == "," {
                arguments.append(current)
                current = ""
                started = false
            } else if !character.isWhitespace {
                current.append(character)
                started = true
            }
        }
        if started || !current.isEmpty { arguments.append(current) }
        return (name, arguments)
    }

    /// What a tag becomes, or `nil` to keep it.
    private mutating func replacement(for tag: (name: String, arguments: [String])) -> String? {
        let arguments = tag.arguments
        func argument(_ index: Int) -> String? { index < arguments.count ? arguments[index] : nil }
        func quoted(_ text: String) -> String? { text.contains("\"") || text.contains("}}") ? nil : "\"\(text)\"" }
        switch tag.name {
        case "response":
            return response(
                attribute: argument(0) ?? "body", requestID: argument(1) ?? "", filter: argument(2) ?? "",
                trigger: argument(3) ?? "never", maxAge: argument(4).flatMap(Double.init))
        case "uuid":
            return "{{uuid}}"
        case "now":
            switch argument(0) ?? "iso-8601" {
            case "iso-8601": return "{{now}}"
            case "unix": return "{{timestamp}}"
            case "millis": return "{{timestamp ms}}"
            default: return nil
            }
        case "faker":
            switch argument(0) ?? "" {
            case "guid", "randomUUID": return "{{uuid}}"
            case "timestamp": return "{{timestamp}}"
            case "isoTimestamp": return "{{now}}"
            case "randomInt": return "{{random_int 0 1000}}"
            case let other:
                unknownFaker.insert(other)
                return nil
            }
        case "prompt":
            return argument(0).flatMap(quoted).map { "{{prompt \($0)}}" }
        case "base64":
            guard argument(1) == nil || argument(1) == "normal", let value = argument(2).flatMap(quoted) else {
                return nil
            }
            switch argument(0) {
            case "encode": return "{{base64 \(value)}}"
            case "decode": return "{{base64_decode \(value)}}"
            default: return nil
            }
        case "hash":
            guard argument(0) == "sha256", argument(1) == "hex", let value = argument(2).flatMap(quoted) else {
                return nil
            }
            return "{{sha256 \(value)}}"
        case "file":
            return argument(0).flatMap(quoted).map { "{{file \($0)}}" }
        default:
            return nil
        }
    }

    // MARK: - Chaining

    /// A `{% response %}` tag: the variable it becomes, noted as a capture of that request.
    private mutating func response(
        attribute: String, requestID: String, filter rawFilter: String, trigger: String, maxAge: Double?
    ) -> String? {
        guard let requestName = requestNames[requestID] else {
            warnings.append(
                "A {% response %} tag names the request \(requestID), "
                    + "which is not in the export; it is kept as written."
            )
            return nil
        }
        // Insomnia 8 and later write the filter as b64::BASE64::46b.
        var filter = rawFilter
        if filter.hasPrefix("b64::"), let end = filter.range(of: "::", options: .backwards),
            end.lowerBound > filter.index(filter.startIndex, offsetBy: 4),
            let data = Data(
                base64Encoded: String(filter[filter.index(filter.startIndex, offsetBy: 5)..<end.lowerBound]))
        {
            filter = String(decoding: data, as: UTF8.self)
        }
        let source: Capture.Source
        switch attribute {
        case "body" where filter.isEmpty, "raw":
            source = .body
        case "body" where filter.hasPrefix("$") && (try? JSONPath(filter)) != nil:
            source = .jsonpath(filter)
        case "body" where filter.hasPrefix("/") && (try? XPath(filter)) != nil:
            source = .xpath(filter)
        case "header" where !filter.isEmpty:
            source = .header(filter)
        default:
            warnings.append(
                "A {% response '\(attribute)' %} tag of \"\(requestName)\"\(filter.isEmpty ? "" : " (\(filter))") "
                    + "cannot be captured (only the body, a JSONPath, an XPath or a header); it is kept as written."
            )
            return nil
        }
        let age: Double? =
            switch trigger {
            case "always": 0
            case "when-expired": maxAge
            default: nil
            }
        let variable: String
        if let known = references.first(where: { $0.requestID == requestID && $0.source == source }) {
            variable = known.variable
        } else {
            let last: String =
                switch source {
                case .jsonpath(let text), .xpath(let text), .header(let text):
                    text.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).last.map(String.init)
                        ?? "value"
                default: "body"
                }
            var candidate = Self.identifier("\(requestName)_\(last)")
            var counter = 2
            let stem = candidate
            while references.contains(where: { $0.variable == candidate }) {
                candidate = "\(stem)_\(counter)"
                counter += 1
            }
            variable = candidate
            references.append(Reference(variable: variable, requestID: requestID, source: source, maxAge: age))
        }
        if let holder = variableBeingRead { holders[variable, default: []].insert(holder) }
        return "{{\(variable)}}"
    }

    /// A variable name from any text: letters, digits and `_`, lower-cased.
    static func identifier(_ text: String) -> String {
        var out = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                out.append(character)
            } else if !out.hasSuffix("_") {
                out.append("_")
            }
        }
        let trimmed = out.trimmingCharacters(in: CharacterSet(charactersIn: "_"))
        return trimmed.isEmpty ? "value" : (trimmed.first!.isNumber ? "v_" + trimmed : trimmed)
    }

    /// The items with each reference a capture of the request it reads, and a `requires:` on
    /// every other request that uses the variable (or an environment value holding it).
    func chaining(_ items: [CollectionItem]) -> [CollectionItem] {
        guard !references.isEmpty else { return items }
        var captures: [String: [Capture]] = [:]
        for reference in references {
            guard let address = addresses[reference.requestID] else { continue }
            captures[address, default: []].append(Capture(name: reference.variable, source: reference.source))
        }
        func chained(_ item: CollectionItem) -> CollectionItem {
            switch item {
            case .folder(var folder):
                folder.items = folder.items.map(chained)
                return .folder(folder)
            case .endpoint(var endpoint):
                for capture in captures[endpoint.id] ?? []
                where !endpoint.captures.contains(where: { $0.name == capture.name }) {
                    endpoint.captures.append(capture)
                }
                let used = Self.variables(of: endpoint)
                for reference in references {
                    guard let address = addresses[reference.requestID], address != endpoint.id,
                        used.contains(reference.variable) || !used.isDisjoint(with: holders[reference.variable] ?? []),
                        !endpoint.requirements.contains(where: { $0.endpoint == address })
                    else { continue }
                    endpoint.requirements.append(Requirement(endpoint: address, maxAge: reference.maxAge))
                }
                return .endpoint(endpoint)
            }
        }
        return items.map(chained)
    }

    /// The variables an endpoint's texts use.
    static func variables(of endpoint: Endpoint) -> Set<String> {
        var texts = [endpoint.path] + endpoint.query.map(\.value) + endpoint.headers.map(\.value)
        switch endpoint.body {
        case .raw(let text)?: texts.append(text)
        case .form(let fields)?: texts += fields.map(\.value)
        case .multipart(let fields)?: texts += fields.map(\.value)
        case .json(let value)?: texts.append(value.serialized(pretty: false))
        case .file?, nil: break
        }
        if let graphql = endpoint.graphql {
            if case .inline(let text) = graphql.document { texts.append(text) }
            if let variables = graphql.variables { texts.append(variables.serialized(pretty: false)) }
        }
        switch endpoint.auth?.scheme {
        case .basic(let user, let password)?, .digest(let user, let password)?: texts += [user, password]
        case .bearer(let token)?: texts.append(token)
        case .apiKey(_, let value, _)?: texts.append(value)
        case .oauth2(let settings)?: texts += settings.values.values
        case .awsSigV4(let settings)?: texts += settings.templates
        case .oauth1(let settings)?: texts += settings.templates
        case .none?, nil: break
        }
        return Set(texts.flatMap { Template($0).variableNames })
    }

    // MARK: - Report

    /// The warnings of the import, the collected ones last.
    func report() -> [String] {
        var out = warnings
        if !keptTags.isEmpty {
            let list = keptTags.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            out.append(
                "Insomnia template tags explorer has no equivalent for are kept as written and would be sent as text: "
                    + "\(list); edit them before sending."
            )
        }
        if !unknownFaker.isEmpty {
            out.append(
                "{% faker %} values with no explorer function: \(unknownFaker.sorted().joined(separator: ", ")); "
                    + "define variables for them."
            )
        }
        if !grpcRequests.isEmpty {
            out.append(
                "gRPC requests are not imported (explorer speaks HTTP and WebSocket): "
                    + "\(grpcRequests.joined(separator: ", "))."
            )
        }
        if !socketIORequests.isEmpty {
            out.append(
                "Socket.IO requests are not imported (Socket.IO is a protocol of its own over a WebSocket, "
                    + "which explorer does not speak): "
                    + "\(socketIORequests.joined(separator: ", ")).")
        }
        if !scripts.isEmpty {
            out.append(
                "Scripts are not run by explorer and were not imported: those of "
                    + "\(scripts.prefix(10).joined(separator: ", "))\(scripts.count > 10 ? ", …" : "")."
            )
        }
        if !skipped.isEmpty {
            out.append("Not imported: \(skipped.sorted().joined(separator: ", ")) (Insomnia's own).")
        }
        return out
    }
}
