import Foundation
import NetworkingCore

extension RequestResolver {
    /// A request's body: its bytes, and the file they were read from when the body is a file.
    struct ResolvedBody {
        var data: Data?
        var file: URL?
    }

    /// The body, expanded and encoded, with the `Content-Type` it implies unless the endpoint
    /// sets one (a multipart body always writes its own, with its boundary).
    ///
    /// - Throws: `ResolveError` for an undefined variable or a file that cannot be read.
    func resolvedBody(with templates: EndpointTemplates, directory: URL, headers: inout HTTPHeaders) throws
        -> ResolvedBody
    {
        switch templates.endpoint.body {
        case nil:
            return ResolvedBody()
        case .json(let json):
            let expanded = try json.mapStrings { try templates.expand($0, "json body", at: "body") }
            if !headers.contains("Content-Type") { headers.add(name: "Content-Type", value: "application/json") }
            return ResolvedBody(data: Data(expanded.serialized(pretty: false).utf8))
        case .raw(let text):
            return ResolvedBody(data: Data(try templates.expand(text, "body", at: "body").utf8))
        case .file(let path):
            let url = Self.fileURL(path, in: directory)
            try checkReadable(
                url, collectionFile: templates.scope.collectionFile, for: templates.endpoint,
                at: templates.place("body"))
            guard let data = try? Data(contentsOf: url) else {
                throw ResolveError.unreadableFile(
                    endpoint: templates.endpoint.id, path: url.path, at: templates.place("body"))
            }
            return ResolvedBody(data: data, file: url)
        case .form(let fields):
            let items = try fields.enumerated().map { index, field in
                URLQueryItem(
                    name: try templates.expand(field.name, "form", at: "form[\(index)]"),
                    value: try templates.expand(field.value, "form", at: "form[\(index)]"))
            }
            if !headers.contains("Content-Type") {
                headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            }
            return ResolvedBody(data: Data(PercentEncoding.form(items).utf8))
        case .multipart(let fields):
            let multipart = MultipartBody(
                parts: try fields.enumerated().map { index, field in
                    try multipartPart(field, at: "multipart[\(index)]", templates: templates, directory: directory)
                })
            headers.remove(name: "Content-Type")
            headers.add(name: "Content-Type", value: multipart.contentType)
            return ResolvedBody(data: multipart.data)
        }
    }

    /// One multipart part: its fields expanded; a file part read now, named after its file
    /// unless it sets a `filename`.
    ///
    /// - Throws: `ResolveError` for an undefined variable or a file that cannot be read.
    private func multipartPart(_ field: MultipartField, at key: String, templates: EndpointTemplates, directory: URL)
        throws -> MultipartPart
    {
        let name = try templates.expand(field.name, "multipart", at: key)
        let value = try templates.expand(field.value, "multipart", at: key)
        let filename = try field.filename.map { try templates.expand($0, "multipart", at: key) }
        let contentType = try field.contentType.map { try templates.expand($0, "multipart", at: key) }
        guard field.isFile else {
            return MultipartPart(name: name, filename: filename, contentType: contentType, data: Data(value.utf8))
        }
        let url = Self.fileURL(value, in: directory)
        try checkReadable(
            url, collectionFile: templates.scope.collectionFile, for: templates.endpoint, at: templates.place(key))
        guard let data = try? Data(contentsOf: url) else {
            throw ResolveError.unreadableFile(endpoint: templates.endpoint.id, path: url.path, at: templates.place(key))
        }
        return MultipartPart(
            name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, data: data)
    }
}

extension RequestResolver {
    /// Refuses a file that is now outside the collection's folder when the collection was not
    /// trusted to read it (`SendTimeFiles`).
    ///
    /// - Throws: `ResolveError.untrustedFile`.
    func checkReadable(_ url: URL, collectionFile: URL?, for endpoint: Endpoint, at place: FileLocation?) throws {
        guard let collectionFile else { return }
        if let reason = SendTimeFiles(collectionFile: collectionFile, environment: processEnvironment).refusal(
            toRead: url)
        {
            throw ResolveError.untrustedFile(endpoint: endpoint.id, reason: reason, at: place)
        }
    }
}
