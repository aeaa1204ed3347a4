import Foundation
import NetworkingCore

/// What an OpenAPI document promises of each operation's responses, and the check of a
/// response against it: the status is declared (`2XX` ranges and `default` count), the
/// content type is one the response declares, and a JSON body passes the media type's schema.
///
/// Reads OpenAPI 3.0 (schema objects with `nullable`), 3.1 (JSON Schema 2020-12) and Swagger
/// 2.0 (draft 4 schemas, `produces`). Response objects may be `$ref`s to
/// `#/components/responses/…`. The schemas an operation needs are compiled when it is checked.
package struct OpenAPIContract: Sendable {
    /// An operation: its method and path template, its `operationId`, and where it is.
    package struct Operation: Sendable, Hashable {
        /// Upper case: `GET`.
        package var method: String
        /// The path template as the document writes it: `/pets/{petId}`.
        package var path: String
        package var operationID: String?
        /// `/paths/~1pets~1{petId}/get`.
        package var pointer: String

        /// `GET /pets/{petId}`, or the `operationId` when there is one.
        package var name: String { operationID ?? "\(method) \(path)" }
    }

    /// The document as read.
    package let document: JSONValue
    package let dialect: SchemaDialect
    package let operations: [Operation]
    private let isSwagger2: Bool
    /// The path part of each server URL (`/v1`), to match a request's path against templates.
    private let basePaths: [String]

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Reads a document's operations.
    ///
    /// - Throws: `ContractError.notOpenAPI` when the document has neither `openapi` nor
    ///   `swagger` at the top.
    package init(document: JSONValue) throws(ContractError) {
        self.document = document
        if let version = document["openapi"]?.stringValue {
            dialect = version.hasPrefix("3.0") ? .openAPI30 : .draft2020_12
            isSwagger2 = false
        } else if document["swagger"] != nil {
            dialect = .draft4
            isSwagger2 = true
        } else {
            throw .notOpenAPI
        }
        var operations: [Operation] = []
        for path in document["paths"]?.members ?? [] {
            let pathPointer = "/paths/" + JSONPointer.escape(path.key)
            for member in path.value.members ?? [] where Self.methods.contains(member.key) {
                operations.append(
                    Operation(
                        method: member.key.uppercased(), path: path.key,
                        operationID: member.value["operationId"]?.stringValue,
                        pointer: pathPointer + "/" + member.key))
            }
        }
        self.operations = operations
        if isSwagger2 {
            basePaths = [document["basePath"]?.stringValue ?? ""]
        } else {
            basePaths = (document["servers"]?.arrayValue ?? []).compactMap { server in
                guard let url = server["url"]?.stringValue else { return nil }
                return Self.pathPart(of: url)
            }
        }
    }

    /// The path of a server URL (`https://api.example.com/v1/` gives `/v1`), without a trailing slash.
    static func pathPart(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? ""
        }
        while rest.hasSuffix("/") { rest = rest.dropLast() }
        return String(rest)
    }

    // MARK: - Finding an operation

    /// The operation with this `operationId`.
    package func operation(id: String) -> Operation? {
        operations.first { $0.operationID == id }
    }

    /// The operation of this method and path template (`GET /pets/{id}`).
    package func operation(method: String, template: String) -> Operation? {
        operations.first { $0.method == method.uppercased() && $0.path == template }
    }

    /// The operation a request's method and URL path answer to: templates matched segment by
    /// segment (`{id}` matches one non-empty segment), after the servers' base path; the
    /// template with the most literal segments wins.
    package func operation(method: String, requestPath: String) -> Operation? {
        let path = String(requestPath.prefix { $0 != "?" && $0 != "#" })
        var candidates = [path]
        for base in basePaths where !base.isEmpty && path.hasPrefix(base) {
            candidates.append(String(path.dropFirst(base.count)))
        }
        var best: (Operation, Int)?
        for candidate in candidates {
            let segments = candidate.split(separator: "/", omittingEmptySubsequences: false)
            for operation in operations where operation.method == method.uppercased() {
                guard let literals = Self.match(template: operation.path, segments: segments) else { continue }
                if best == nil || literals > best!.1 { best = (operation, literals) }
            }
        }
        return best?.0
    }

    /// The number of literal segments when `segments` fit the template, else `nil`.
    package static func match(template: String, segments: [Substring]) -> Int? {
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return nil }
        var literals = 0
        for (part, segment) in zip(parts, segments) {
            if part.hasPrefix("{") && part.hasSuffix("}") {
                if segment.isEmpty { return nil }
            } else if part == segment || String(part) == segment.removingPercentEncoding {
                literals += 1
            } else {
                return nil
            }
        }
        return literals
    }

    // MARK: - Checking a response

    /// Follows a `$ref` to the document's own object (responses may be references), at most a
    /// few times.
    private func dereferenced(_ value: JSONValue, at pointer: String) -> (JSONValue, String)? {
        var current = (value, pointer)
        for _ in 0..<8 {
            guard let reference = current.0["$ref"]?.stringValue else { return current }
            guard reference.hasPrefix("#"),
                let target = JSONPointer.resolve(String(reference.dropFirst()), in: document)
            else { return nil }
            current = (target, String(reference.dropFirst()))
        }
        return nil
    }

    /// The media type of a `Content-Type` value, lower case, without parameters.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether a declared media range (`application/json`, `application/*`, `*/*`) covers `type`.
    static func covers(_ range: String, _ type: String) -> Bool {
        let range = mediaType(range)
        if range == type || range == "*/*" { return true }
        if range.hasSuffix("/*") { return type.hasPrefix(String(range.dropLast())) }
        return false
    }

    static func isJSON(_ type: String) -> Bool {
        type == "application/json" || type.hasSuffix("+json")
    }

    /// The violations of a response to `operation`, at most `limit` of the body's.
    ///
    /// - Parameters:
    ///   - status: the response's status code.
    ///   - contentType: its `Content-Type`, if any.
    ///   - body: its body (parsed when the media type is JSON and a schema is declared).
    package func check(
        _ operation: Operation, status: Int, contentType: String?, body: Data, assertsFormats: Bool = false,
        limit: Int = 100
    ) -> ContractReport {
        var report = ContractReport(operation: operation)
        guard let operationValue = JSONPointer.resolve(operation.pointer, in: document),
            let responses = operationValue["responses"]?.members
        else { return report }
        let code = String(status)
        let range = "\(status / 100)XX"
        let declared = responses.map(\.key)
        guard
            let chosen = responses.first(where: { $0.key == code })
                ?? responses.first(where: { $0.key.uppercased() == range })
                ?? responses.first(where: { $0.key == "default" })
        else {
            report.violations.append(
                ContractViolation(
                    kind: .status, instancePointer: "", schemaPointer: operation.pointer + "/responses",
                    message:
                        "status \(status) is not declared for \(operation.name) (declared: "
                        + "\(declared.joined(separator: ", ")))"
                ))
            return report
        }
        let responsePointer = operation.pointer + "/responses/" + JSONPointer.escape(chosen.key)
        guard let (response, resolvedPointer) = dereferenced(chosen.value, at: responsePointer) else {
            report.warnings.append(
                SchemaWarning(schemaPointer: responsePointer + "/$ref", message: "cannot resolve the response's $ref"))
            return report
        }
        let type = contentType.map(Self.mediaType)
        var schemaPointer: String?
        if isSwagger2 {
            let produces =
                (operationValue["produces"] ?? document["produces"])?.arrayValue?.compactMap(\.stringValue) ?? []
            if let type, !produces.isEmpty, !produces.contains(where: { Self.covers($0, type) }), !body.isEmpty {
                report.violations.append(
                    ContractViolation(
                        kind: .contentType, instancePointer: "", schemaPointer: operation.pointer + "/produces",
                        message:
                            "content type \(type) is not one \(operation.name) "
                            + "produces (\(produces.joined(separator: ", ")))"
                    ))
                return report
            }
            if response["schema"] != nil, type.map(Self.isJSON) ?? true { schemaPointer = resolvedPointer + "/schema" }
        } else if let content = response["content"]?.members, !content.isEmpty {
            guard let type else {
                if !body.isEmpty {
                    report.violations.append(
                        ContractViolation(
                            kind: .contentType, instancePointer: "", schemaPointer: resolvedPointer + "/content",
                            message:
                                "the response has a body but no Content-Type (declared: "
                                + "\(content.map(\.key).joined(separator: ", ")))"
                        ))
                }
                return report
            }
            let exact = content.first { Self.mediaType($0.key) == type }
            guard let media = exact ?? content.first(where: { Self.covers($0.key, type) }) else {
                report.violations.append(
                    ContractViolation(
                        kind: .contentType, instancePointer: "", schemaPointer: resolvedPointer + "/content",
                        message:
                            "content type \(type) is not declared for status \(chosen.key) of \(operation.name) "
                            + "(declared: \(content.map(\.key).joined(separator: ", ")))"
                    ))
                return report
            }
            if media.value["schema"] != nil, Self.isJSON(type) {
                schemaPointer = resolvedPointer + "/content/" + JSONPointer.escape(media.key) + "/schema"
            }
        }
        guard let schemaPointer else { return report }
        let instance: JSONValue
        do {
            instance = try JSONValue(parsing: body)
        } catch {
            report.violations.append(
                ContractViolation(
                    kind: .body, instancePointer: "", schemaPointer: schemaPointer,
                    message: "the body is not JSON: \(error.description)"))
            return report
        }
        let identifierRoots = isSwagger2 ? ["/definitions"] : ["/components/schemas"]
        let set = SchemaSet(
            document: document, pointers: [schemaPointer], dialect: dialect, assertsFormats: assertsFormats,
            identifierRoots: identifierRoots)
        report.warnings.append(contentsOf: set.warnings)
        if let schema = set.schemas[schemaPointer] {
            report.violations.append(
                contentsOf: schema.validate(instance, limit: limit).map {
                    ContractViolation(
                        kind: .body, instancePointer: $0.instancePointer, schemaPointer: $0.schemaPointer,
                        message: $0.message)
                })
        }
        return report
    }
}

/// Why a document cannot be read as a contract.
package enum ContractError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither `openapi` nor `swagger` at the top.
    case notOpenAPI

    package var description: String {
        switch self {
        case .notOpenAPI:
            return "not an OpenAPI document: it has neither an 'openapi' nor a 'swagger' member at the top"
        }
    }
}

/// One way a response breaks its operation's promise.
package struct ContractViolation: Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case status
        case contentType = "content type"
        case body
    }

    package var kind: Kind
    /// Where in the body (empty for the status, the content type and the whole body).
    package var instancePointer: String
    /// Where in the document.
    package var schemaPointer: String
    package var message: String

    package init(kind: Kind, instancePointer: String, schemaPointer: String, message: String) {
        self.kind = kind
        self.instancePointer = instancePointer
        self.schemaPointer = schemaPointer
        self.message = message
    }

    package var description: String {
        guard kind == .body else { return "\(message) (#\(schemaPointer))" }
        return "\(instancePointer.isEmpty ? "(body)" : instancePointer): \(message) (#\(schemaPointer))"
    }
}

/// The check of one response.
package struct ContractReport: Sendable {
    package var operation: OpenAPIContract.Operation
    package var violations: [ContractViolation] = []
    /// The document's own mistakes met on the way.
    package var warnings: [SchemaWarning] = []
}
