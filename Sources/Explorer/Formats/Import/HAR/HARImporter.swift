import Foundation
import NetworkingCore
import Workspace

/// Imports an HTTP Archive (HAR 1.2), what browsers' developer tools export: every http(s)
/// entry becomes an endpoint, or the one entry chosen.
///
/// The origin with the most entries is the environment's `base_url`; an entry on another
/// origin keeps its whole URL, so it is sent where the browser sent it. Headers are kept as the browser
/// sent them, except those the connection makes (HTTP/2 pseudo-headers, `Host`,
/// `Content-Length`, `Connection` …) and `Accept-Encoding` (explorer negotiates its own).
/// A request's `cookies` list becomes a `Cookie` header when the headers list none, or, with
/// `HARCookiePlacement.jar`, cookies for the jar of the environment the import goes into (its
/// `Cookie` headers left out; see `jarCookies`). A body is
/// kept byte for byte from `postData.text`; a `multipart/form-data` body (or one with a file
/// among its `params`) becomes its parts (read from `postData.text` when it holds them all,
/// files' contents included, else from `params`), each file part named by its base name with its
/// content type; other `params` without text become a form.
package struct HARImporter: Sendable {
    /// Creates an importer.
    package init() {}

    /// Headers the connection itself writes.
    private static let connectionHeaders: Set<String> = [
        "host", "content-length", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "upgrade",
        "accept-encoding",
    ]

    /// Imports a HAR file.
    ///
    /// - Parameter entry: the 1-based number of the one entry to import; all when `nil`.
    /// - Parameter cookies: where each request's cookies go.
    /// - Throws: `ImportError`.
    package func importFile(at url: URL, entry: Int? = nil, cookies: HARCookiePlacement = .header) throws
        -> ImportResult
    {
        guard let data = try DocumentLimits.current.readFile(at: url) else {
            throw ImportError.unreadableFile(url.path)
        }
        return try importData(data, path: url.path, entry: entry, cookies: cookies)
    }

    /// Imports a HAR file's bytes.
    ///
    /// - Throws: `ImportError.invalidFile`.
    func importData(
        _ data: Data, path: String = "<har>", entry chosen: Int? = nil, cookies placement: HARCookiePlacement = .header,
        now: Date = Date()
    ) throws -> ImportResult {
        let format = "a HAR file (HTTP Archive 1.2)"
        let root = try LooseJSON.value(from: data, path: path, format: format)
        // A whole archive; or, as tools copy them, a list of entries, one entry, or one request.
        let log: LooseObject
        switch root {
        case let object as LooseObject where object.object("log")?["entries"] is [Any]:
            log = object.object("log") ?? [:]
        case let list as [Any]: log = ["entries": list]
        case let object as LooseObject where object["request"] is LooseObject: log = ["entries": [object]]
        case let object as LooseObject where object["method"] is String && object["url"] is String:
            log = ["entries": [["request": object]]]
        default:
            throw ImportError.invalidFile(
                path: path, format: format,
                reason: "it has no \"log\" with \"entries\" (nor is it a list of entries, an entry or a request).")
        }
        var entries = log.objects("entries").enumerated().map {
            (number: $0.offset + 1, request: $0.element.object("request") ?? [:])
        }
        var warnings: [String] = []
        if let chosen {
            guard let found = entries.first(where: { $0.number == chosen }) else {
                throw ImportError.invalidFile(
                    path: path, format: format, reason: "it has \(entries.count) entries; there is no entry \(chosen).")
            }
            entries = [found]
        }
        let web = entries.filter { ($0.request.text("url") ?? "").lowercased().hasPrefix("http") }
        if web.count < entries.count {
            warnings.append(
                "\(entries.count - web.count) entries that are not http(s) "
                    + "(data:, blob: …) were left out.")
        }
        guard !web.isEmpty else {
            throw ImportError.invalidFile(path: path, format: format, reason: "it has no http(s) request to import.")
        }
        var usedNames: Set<String> = []
        var items: [CollectionItem] = []
        var inHeaders = (cookies: 0, endpoints: 0)
        var jar = JarCookies()
        for item in web {
            let request = item.request
            var parts = URLParts(request.text("url") ?? "")
            if parts.query.isEmpty {
                // Tools that write HAR by hand may list the query here only (it is the URL's).
                parts.query = request.objects("queryString").compactMap { item in
                    item.text("name").flatMap { $0.isEmpty ? nil : KeyValue($0, item.text("value") ?? "") }
                }
            }
            let method = request.text("method") ?? "GET"
            var headers: [KeyValue] = []
            for header in request.objects("headers") {
                guard let name = header.text("name"), !name.hasPrefix(":"),
                    !HARImporter.connectionHeaders.contains(name.lowercased())
                else { continue }
                headers.append(KeyValue(name, header.text("value") ?? ""))
            }
            switch placement {
            case .header:
                if let cookie = Self.cookieHeader(request.objects("cookies")),
                    !headers.contains(where: { $0.name.lowercased() == "cookie" })
                {
                    headers.append(KeyValue("Cookie", cookie))
                    inHeaders.cookies += request.objects("cookies").filter { !($0.text("name") ?? "").isEmpty }.count
                    inHeaders.endpoints += 1
                }
            case .jar:
                let sent = headers.filter { $0.name.lowercased() == "cookie" }.map(\.value)
                headers.removeAll { $0.name.lowercased() == "cookie" }
                if let url = URL(string: request.text("url") ?? "") {
                    jar.add(request.objects("cookies"), orHeaders: sent, sentTo: url, now: now)
                }
            }
            var body: EndpointBody?
            if let postData = request.object("postData") {
                let params = postData.objects("params")
                let mimeType = (postData.text("mimeType") ?? "").lowercased()
                let isMultipart = mimeType.hasPrefix("multipart/form-data") || params.contains { $0["fileName"] != nil }
                let textParts =
                    isMultipart
                    ? Self.multipartParts(of: postData.text("text") ?? "", mimeType: postData.text("mimeType") ?? "")
                    : nil
                if let textParts, textParts.count >= params.count {
                    // The text holds every part, files' contents included (Firefox lists the
                    // files among `params` with no value): the parts as the text has them.
                    body = .multipart(
                        textParts.map { part in
                            MultipartField(
                                name: part.name, value: part.content, filename: part.filename.map(Self.baseName),
                                contentType: part.contentType)
                        })
                    headers.removeAll { $0.name.lowercased() == "content-type" }
                } else if isMultipart && !params.isEmpty {
                    // The parts, rather than a text whose boundary and file contents a browser may have left out.
                    if params.contains(where: { $0["fileName"] != nil && ($0.text("value") ?? "").isEmpty }) {
                        warnings.append(
                            "Entry \(item.number) uploads files the HAR file does not hold; their parts are sent empty."
                        )
                    }
                    body = .multipart(
                        params.map { param in
                            MultipartField(
                                name: param.text("name") ?? "", value: param.text("value") ?? "",
                                filename: param.text("fileName").map(Self.baseName),
                                contentType: param.text("contentType"))
                        })
                    headers.removeAll { $0.name.lowercased() == "content-type" }
                } else if let text = postData.text("text"), !text.isEmpty {
                    body = .raw(text)
                } else if !params.isEmpty {
                    body = .form(params.map { KeyValue($0.text("name") ?? "", $0.text("value") ?? "") })
                }
            }
            let pathName = parts.path.split(separator: "?").first.map(String.init) ?? parts.path
            var name = "\(method) \(pathName)"
            var counter = 2
            while !usedNames.insert(name).inserted {
                name = "\(method) \(pathName) (\(counter))"
                counter += 1
            }
            items.append(
                .endpoint(
                    Endpoint(
                        name: name, method: HTTPMethod(exactly: method), path: parts.origin + parts.path,
                        query: parts.query,
                        headers: headers, body: body,
                        description: request.text("comment").flatMap { $0.isEmpty ? nil : $0 })))
        }
        let creator = log.object("creator")?.text("name").map { " (\($0))" } ?? ""
        let (placed, main) = ImportedOrigins.relativeToMainOrigin(items)
        let collection = APICollection(
            name: "Imported from HAR\(creator)",
            environments: [Environment(name: "default", baseURLTemplate: main ?? "http://localhost")],
            items: placed)
        if inHeaders.cookies > 0 {
            warnings.append(
                "\(inHeaders.cookies) cookie\(inHeaders.cookies == 1 ? "" : "s") "
                    + "of the requests' cookies lists went into the Cookie header of "
                    + "\(inHeaders.endpoints) endpoint\(inHeaders.endpoints == 1 ? "" : "s"), "
                    + "in the collection file; --cookies jar keeps them "
                    + "in the environment's cookie jar (a private file in the state folder) instead.")
        }
        warnings += jar.warnings
        var result = ImportResult(collection: collection, warnings: warnings)
        result.cookies = jar.cookies
        return result
    }

    /// The last component of a path as a browser or a tool wrote it (`C:\\Users\\a\\photo.png`,
    /// `/home/a/photo.png`): what a server is told the file is called, never where it was.
    static func baseName(_ path: String) -> String {
        let name = path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? path
        return name.isEmpty ? path : name
    }
}
