import Contract
import Foundation
import NetworkingCore
import Synchronization
import Workspace

/// What checking one response against the collection's OpenAPI document found: the operation
/// it answers to and its violations, or why no operation was found.
package struct SchemaCheck: Sendable, Hashable {
    /// `listUsers`, or `GET /users/{id}`; `nil` when no operation was found.
    package var operation: String?
    /// Each way the response breaks the operation's promise (the status, the content type,
    /// the body by JSON pointer).
    package var violations: [ContractViolation] = []
    /// Why there is no operation to check against (`operation: listUser` names none); a
    /// failure when the endpoint asks for the check, a note otherwise.
    package var unmatched: String?
    /// Whether the endpoint asked for the check (`operation:` or `assert: - schema`): then an
    /// endpoint the document does not describe fails.
    package var isRequired = false
    /// The document, as the collection names it (for messages).
    package var document: String
    /// Where each violation's place in the body is shown: its line in the pretty-printed
    /// body (0-based), by instance pointer; filled in by whoever shows the body.
    package var bodyLines: [String: Int] = [:]

    /// Creates a result.
    package init(
        document: String, operation: String?, violations: [ContractViolation] = [], unmatched: String? = nil,
        isRequired: Bool = false
    ) {
        self.document = document
        self.operation = operation
        self.violations = violations
        self.unmatched = unmatched
        self.isRequired = isRequired
    }

    /// Whether the response keeps the document's promise (an undescribed endpoint passes
    /// unless it asked to be checked).
    package var passed: Bool { violations.isEmpty && (unmatched == nil || !isRequired) }

    /// `✗ 2 schema` for a status line, `nil` when it passed.
    package var badge: String? {
        if !violations.isEmpty { return "✗ \(violations.count) schema" }
        return passed ? nil : "✗ schema"
    }

    /// Why it failed, in one line: `2 violations of listUsers in openapi.yaml` or why no
    /// operation was found.
    package var reason: String {
        if violations.isEmpty { return unmatched ?? "passed" }
        let count = violations.count == 1 ? "1 violation" : "\(violations.count) violations"
        return "\(count) of \(operation ?? "its operation") in \(document)"
    }

    /// The lines a terminal shows when it failed: a head line, then each violation (at most
    /// `limit`, then how many more).
    package func failureLines(limit: Int = 20) -> [String] {
        guard !passed else { return [] }
        var lines = ["✗ schema: \(reason)"]
        lines += violations.prefix(limit).map { "    \($0)" }
        if violations.count > limit { lines.append("    … and \(violations.count - limit) more") }
        return lines
    }
}

extension SchemaCheck {
    /// The check as JSON (the history's column, `send --json`, `run --json`): `document`, `operation`,
    /// `passed`, `unmatched`, `required` and each violation (`kind`, `at` in the body,
    /// `schema` in the document, `message`).
    package var jsonObject: [String: Any] {
        [
            "document": document, "operation": operation ?? NSNull(), "passed": passed,
            "unmatched": unmatched ?? NSNull(),
            "required": isRequired,
            "violations": violations.map { violation -> [String: Any] in
                [
                    "kind": violation.kind.rawValue, "at": violation.instancePointer, "schema": violation.schemaPointer,
                    "message": violation.message,
                ]
            },
        ]
    }

    /// A check read back from `jsonObject`.
    package init?(jsonObject object: [String: Any]) {
        guard let document = object["document"] as? String else { return nil }
        let violations = (object["violations"] as? [[String: Any]] ?? []).compactMap { item -> ContractViolation? in
            guard let kind = (item["kind"] as? String).flatMap(ContractViolation.Kind.init(rawValue:)) else {
                return nil
            }
            return ContractViolation(
                kind: kind, instancePointer: item["at"] as? String ?? "",
                schemaPointer: item["schema"] as? String ?? "",
                message: item["message"] as? String ?? "")
        }
        self.init(
            document: document, operation: object["operation"] as? String, violations: violations,
            unmatched: object["unmatched"] as? String, isRequired: object["required"] as? Bool ?? false)
    }
}

/// The collection's `openapi:` document, ready to check responses: it finds the operation
/// each endpoint answers to and checks a response against it. Its document's own mistakes
/// (an unresolvable `$ref`) are reported once each, however many responses meet them.
///
/// An endpoint answers to the operation its `operation:` names (an `operationId`, or
/// `METHOD /template`), else the operation whose method and template its path fits (the
/// request's path relative to the environment's base URL, then the URL's whole path).
package final class ResponseContract: Sendable {
    /// The contract read from the document.
    package let contract: OpenAPIContract
    /// The document as the collection names it.
    package let document: String
    private let reported = Mutex<Set<SchemaWarning>>([])
    private let warn: @Sendable (String) -> Void

    /// Creates a contract checker.
    ///
    /// - Parameters:
    ///   - contract: the document's operations.
    ///   - document: its name in messages (`openapi.yaml`).
    ///   - warn: told each of the document's own mistakes once.
    package init(_ contract: OpenAPIContract, document: String, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.contract = contract
        self.document = document
        self.warn = warn
    }

    /// The operation a request of `endpoint` answers to, or why there is none.
    package func operation(for endpoint: Endpoint, request: BasicRequest, url: String) -> Result<
        OpenAPIContract.Operation, SchemaLookupFailure
    > {
        let method = request.method.rawValue
        if let named = endpoint.operation?.trimmingCharacters(in: .whitespaces), !named.isEmpty {
            if let found = contract.operation(id: named) { return .success(found) }
            let parts = named.split(separator: " ", maxSplits: 1)
            if parts.count == 2, let found = contract.operation(method: String(parts[0]), template: String(parts[1])) {
                return .success(found)
            }
            return .failure(SchemaLookupFailure(message: "operation: \(named) names no operation of \(document)"))
        }
        let relative = request.path.hasPrefix("/") ? request.path : "/" + request.path
        if let found = contract.operation(method: method, requestPath: relative) { return .success(found) }
        if let path = URLComponents(string: url)?.percentEncodedPath, path != relative,
            let found = contract.operation(method: method, requestPath: path)
        {
            return .success(found)
        }
        return .failure(SchemaLookupFailure(message: "\(document) describes no operation for \(method) \(relative)"))
    }

    /// Checks one response of `endpoint`.
    ///
    /// - Parameters:
    ///   - isRequired: whether the endpoint asked for the check (`assert: - schema`); an
    ///     endpoint that names its `operation:` asks for it too.
    package func check(
        _ endpoint: Endpoint, request: BasicRequest, url: String, response: CheckedResponse, isRequired: Bool
    ) -> SchemaCheck {
        let required = isRequired || endpoint.operation != nil
        switch operation(for: endpoint, request: request, url: url) {
        case .failure(let failure):
            return SchemaCheck(document: document, operation: nil, unmatched: failure.message, isRequired: required)
        case .success(let operation):
            let report = contract.check(
                operation, status: response.status, contentType: response.headers["Content-Type"], body: response.body)
            let fresh = reported.withLock { seen in report.warnings.filter { seen.insert($0).inserted } }
            for warning in fresh { warn("\(document): \(warning)") }
            return SchemaCheck(
                document: document, operation: operation.name, violations: report.violations, isRequired: required)
        }
    }
}

/// Which responses are checked against the collection's `openapi:` document: those of
/// endpoints that ask (`assert: - schema`), or every one (`validate: true`, `send
/// --validate`, the TUI).
package struct ResponseValidation: Sendable {
    /// The document's contract.
    package let contract: ResponseContract
    /// Whether every response is checked, not only those of endpoints that ask.
    package let everyResponse: Bool

    /// Creates a validation.
    package init(_ contract: ResponseContract, everyResponse: Bool) {
        self.contract = contract
        self.everyResponse = everyResponse
    }

    /// Checks a response of `resolved` when its endpoint asks or every response is checked.
    package func check(_ resolved: ResolvedRequest, response: CheckedResponse) -> SchemaCheck? {
        let endpoint = resolved.endpoint
        let asked = endpoint.assertions.contains { $0.query == .schema }
        guard everyResponse || asked else { return nil }
        return contract.check(
            endpoint, request: resolved.request, url: resolved.url, response: response, isRequired: asked)
    }
}

/// Why no operation of the document answers to an endpoint.
package struct SchemaLookupFailure: Error, Sendable, Hashable {
    /// One sentence.
    package var message: String
}
