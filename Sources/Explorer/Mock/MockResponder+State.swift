import Contract
import Foundation
import HTTPTypes
import Hummingbird
import NetworkingCore

/// A stateful mock's answers (`--stateful`): a POST to a collection path stores its body, GET,
/// PUT, PATCH and DELETE of the item path read, replace, merge and remove it, and GET of the
/// collection lists what is stored. Status and headers are the operation's documented success
/// answer's; the body is the resource.
extension MockResponder {
    /// The answer of a request to a collection or item path, or `nil` when the route is
    /// neither or the request's body is not a JSON object (the example answers then).
    func statefulAnswer(
        _ request: Request, route: MockRoute, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        body: Data?, store: MockStateStore
    ) -> (Response, String)? {
        if let kind = resources.kind(collection: route.template) {
            switch route.method {
            case "GET": return list(request, kind: kind, operation: operation, contract: contract, store: store)
            case "POST":
                guard let value = Self.object(body) else { return nil }
                return create(request, value: value, kind: kind, operation: operation, contract: contract, store: store)
            default: return nil
            }
        }
        guard let kind = resources.kind(item: route.template) else {
            return pathAnswer(request, route: route, operation: operation, contract: contract, store: store)
        }
        let path = request.uri.path
        let segment = path.split(separator: "/").last.map(String.init) ?? ""
        let id = segment.removingPercentEncoding ?? segment
        guard let stored = store.item(kind.collection, id: id) else {
            if route.method == "PUT" || route.method == "PATCH", Self.object(body) == nil { return nil }
            return missing(request, id: id, kind: kind, operation: operation, contract: contract)
        }
        switch route.method {
        case "GET":
            return (resourceAnswer(request, stored, operation: operation, contract: contract), "state \(id)")
        case "PUT", "PATCH":
            guard let value = Self.object(body) else { return nil }
            var changed: JSONValue
            if route.method == "PATCH" {
                changed = stored.merged(with: value)
            } else {
                // A replacement keeps what the request cannot send (an id, a creation date):
                // the members its schema does not declare.
                let declared = Self.requestProperties(operation, contract: contract)
                changed = .object((stored.members ?? []).filter { declared[$0.key] == nil })
                for member in value.members ?? [] { changed = changed.setting(member.key, to: member.value) }
            }
            if let member = kind.idMember, let keptID = stored[member] { changed = changed.setting(member, to: keptID) }
            changed = completed(changed, operation: operation, contract: contract)
            do {
                _ = try store.replace(kind.collection, id: id, with: changed)
            } catch {
                return refusedByStore(request, error, operation: operation, contract: contract)
            }
            return (resourceAnswer(request, changed, operation: operation, contract: contract), "state \(id) changed")
        case "DELETE":
            _ = store.remove(kind.collection, id: id)
            let (response, note) = example(request, operation: operation, contract: contract, prefer: [:])
            return (response, "\(note), state \(id) removed")
        default:
            return nil
        }
    }

    /// A path with a parameter that no collection path stores (`/rates/{field}` alone): its
    /// examples answer, but a DELETE is remembered (a later GET, PATCH or DELETE is the documented
    /// 404) until a PUT or POST there.
    private func pathAnswer(
        _ request: Request, route: MockRoute, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        store: MockStateStore
    ) -> (Response, String)? {
        guard route.template.contains("{") else { return nil }
        let path = String(request.uri.path.prefix { $0 != "?" })
        switch route.method {
        case "PUT", "POST":
            store.revive(path)
            return nil
        case "DELETE":
            do {
                guard try store.markDeleted(path) else {
                    return missing(request, id: path, kind: nil, operation: operation, contract: contract)
                }
            } catch {
                return refusedByStore(request, error, operation: operation, contract: contract)
            }
            let (response, note) = example(request, operation: operation, contract: contract, prefer: [:])
            return (response, "\(note), state \(path) removed")
        default:
            guard store.isDeleted(path) else { return nil }
            return missing(request, id: path, kind: nil, operation: operation, contract: contract)
        }
    }

    /// GET of a collection: the example answer with its items replaced by the stored resources
    /// (a `limit`/`per_page` and `offset`/`page` query parameter honoured).
    private func list(
        _ request: Request, kind: MockResourceKind, operation: OpenAPIContract.Operation, contract: OpenAPIContract,
        store: MockStateStore
    ) -> (Response, String)? {
        let answer = exampleAnswer(request, operation: operation, contract: contract, prefer: [:])
        guard (200..<300).contains(answer.status.code), let example = Self.json(answer),
            let (_, member) = MockResources.listItems(in: example)
        else { return nil }
        var items = store.list(kind.collection)
        let query = request.uri.queryParameters
        let size = ["limit", "per_page", "page_size", "size"].lazy.compactMap { query.get($0).flatMap { Int($0) } }
            .first
        var start = query.get("offset").flatMap { Int($0) } ?? 0
        // Any integers a request sends (`page=1000000000000000000`): a page past the end is empty.
        if let page = query.get("page").flatMap({ Int($0) }), let size, size > 0 {
            let (skipped, overflow) = (page > 1 ? page - 1 : 0).multipliedReportingOverflow(by: size)
            start = overflow ? Int.max : skipped
        }
        items = Array(items.dropFirst(max(0, start)))
        if let size, size >= 0 { items = Array(items.prefix(size)) }
        let value: JSONValue = member.map { example.setting($0, to: .array(items)) } ?? .array(items)
        return (
            Self.replacingBody(answer, with: value).response,
            "state, \(items.count) of \(store.list(kind.collection).count) \(kind.collection)"
        )
    }

    /// POST to a collection: the body (over the documented answer's example, its id left out)
    /// stored with its id, and answered as the documented success.
    private func create(
        _ request: Request, value: JSONValue, kind: MockResourceKind, operation: OpenAPIContract.Operation,
        contract: OpenAPIContract, store: MockStateStore
    ) -> (Response, String) {
        let answer = exampleAnswer(request, operation: operation, contract: contract, prefer: [:])
        var resource = Self.json(answer).flatMap { $0.members == nil ? nil : $0 } ?? .object([])
        if let member = kind.idMember { resource = resource.removing(member) }
        for member in value.members ?? [] { resource = resource.setting(member.key, to: member.value) }
        resource = completed(resource, operation: operation, contract: contract)
        // The id, when the body has none, is the store's to make.
        if let member = kind.idMember, value[member] == nil { resource = resource.removing(member) }
        let stored: (id: String, value: JSONValue)
        do {
            stored = try store.create(resource, kind: kind)
        } catch {
            return refusedByStore(request, error, operation: operation, contract: contract)
        }
        var kept = Self.replacingBody(answer, with: stored.value)
        if kept.headers[.location] != nil {
            let base = plan.basePaths.first { request.uri.path.hasPrefix($0) } ?? ""
            let segments = kind.item.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            kept.headers[.location] = base + segments.joined(separator: "/") + "/" + stored.id
        }
        return (kept.response, "state \(stored.id) stored")
    }

    /// The value with the members the operation's success answer requires and it lacks (a
    /// replacement that left one out, a body that never had it).
    private func completed(_ value: JSONValue, operation: OpenAPIContract.Operation, contract: OpenAPIContract)
        -> JSONValue
    {
        guard let schema = MockResources.jsonSchema(of: operation, response: true, document: contract.document)
        else { return value }
        return MockResources.completed(value, schema: schema, document: contract.document)
    }

    /// The documented success of an operation with `value` as its body.
    private func resourceAnswer(
        _ request: Request, _ value: JSONValue, operation: OpenAPIContract.Operation, contract: OpenAPIContract
    ) -> Response {
        Self.replacingBody(exampleAnswer(request, operation: operation, contract: contract, prefer: [:]), with: value)
            .response
    }

    /// A resource that is not stored: the operation's documented 404 (or `4XX`), else a 404
    /// problem that says the document declares none.
    private func missing(
        _ request: Request, id: String, kind: MockResourceKind?, operation: OpenAPIContract.Operation,
        contract: OpenAPIContract
    ) -> (Response, String) {
        let place = kind.map { "no \(id) in \($0.collection)" } ?? "\(id) deleted"
        let declared =
            JSONPointer.resolve(operation.pointer + "/responses", in: contract.document)?.members?
            .map { $0.key.uppercased() } ?? []
        if declared.contains("404") || declared.contains("4XX") || declared.contains("DEFAULT") {
            let (response, note) = example(request, operation: operation, contract: contract, prefer: ["code": "404"])
            return (response, "\(note), \(place)")
        }
        return (
            Self.problem(
                .notFound, type: "not-found", title: "Not Found",
                detail:
                    "explorer mock (--stateful) has \(place). \(operation.name) declares no 404 response, so this "
                    + "problem stands for one.",
                instance: request.uri.path),
            place
        )
    }

    /// A resource the store has no room for: the operation's documented 507, else a 507 problem
    /// that says what the limit is and how to raise it.
    private func refusedByStore(
        _ request: Request, _ refusal: MockStateStore.Refusal, operation: OpenAPIContract.Operation,
        contract: OpenAPIContract
    ) -> (Response, String) {
        let reason: String
        switch refusal {
        case .full(let limit):
            reason =
                "explorer mock keeps at most \(limit) resources and keeps that many: start it with a larger "
                + "--state-limit, or delete some (the TUI's mock: reset its state)"
        case .tooLarge(let limit):
            reason = "explorer mock keeps at most \(limit) bytes of resources: delete some, or send smaller bodies"
        }
        let declared =
            JSONPointer.resolve(operation.pointer + "/responses", in: contract.document)?.members?.map(\.key) ?? []
        if declared.contains("507") {
            let (response, note) = example(request, operation: operation, contract: contract, prefer: ["code": "507"])
            return (response, "\(note), state full: \(reason)")
        }
        return (
            Self.problem(
                Self.status(507), type: "state-full", title: "Insufficient Storage",
                detail: "\(reason). \(operation.name) declares no 507 response, so this problem stands for one.",
                instance: request.uri.path),
            "state full: \(reason)"
        )
    }

    /// The operation whose path fits `path` and that documents `code`, when one does.
    func documenting(_ code: String, path: String) -> (OpenAPIContract.Operation, OpenAPIContract)? {
        guard let contract = plan.contract else { return nil }
        let bare = String(path.prefix { $0 != "?" && $0 != "#" })
        var candidates = [bare]
        for base in plan.basePaths where bare.hasPrefix(base) {
            let rest = String(bare.dropFirst(base.count))
            candidates.append(rest.isEmpty ? "/" : rest)
        }
        for route in plan.routes {
            guard let operation = route.operation,
                candidates.contains(where: { MockPlan.literals(template: route.template, path: $0) != nil }),
                JSONPointer.resolve(operation.pointer + "/responses/" + code, in: contract.document) != nil
            else { continue }
            return (operation, contract)
        }
        return nil
    }

    // MARK: - Bodies

    /// A JSON object body, parsed.
    static func object(_ body: Data?) -> JSONValue? {
        guard let body, let value = try? JSONValue(parsing: body), value.members != nil else { return nil }
        return value
    }

    /// An answer's body, when it is JSON.
    static func json(_ answer: MockAnswerCache.Answer) -> JSONValue? {
        guard let type = answer.headers[.contentType], OpenAPIContractMedia.isJSON(type) else { return nil }
        return try? JSONValue(parsing: Data(answer.body.readableBytesView))
    }

    /// The answer with `value` as its body, when its body is JSON (else unchanged: a 204 stays empty).
    static func replacingBody(_ answer: MockAnswerCache.Answer, with value: JSONValue) -> MockAnswerCache.Answer {
        guard let type = answer.headers[.contentType], OpenAPIContractMedia.isJSON(type) else { return answer }
        var changed = answer
        changed.body = ByteBuffer(string: value.serialized(pretty: true))
        return changed
    }

    /// The properties an operation's JSON request body declares.
    static func requestProperties(_ operation: OpenAPIContract.Operation, contract: OpenAPIContract)
        -> [String: JSONValue]
    {
        guard let schema = MockResources.jsonSchema(of: operation, response: false, document: contract.document)
        else { return [:] }
        return MockResources.properties(of: schema, document: contract.document)
    }
}
