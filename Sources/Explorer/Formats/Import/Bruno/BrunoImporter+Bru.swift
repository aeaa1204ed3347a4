import Foundation

/// `.bru` files read into the shape of Bruno's JSON export (an item with `request`, a folder
/// or collection `root`, an environment), as Bruno's file store turns them into its model.
enum BruItems {
    /// The request file's item: `type`, `name`, `seq`, `tags`, `settings` and `request`
    /// (`method`, `url`, `params`, `headers`, `auth`, `body`, `vars`, `assertions`, `script`,
    /// `tests`, `docs`), or `nil` for a file that is not a request (`meta { type: collection }`).
    static func item(of file: BruFile, fallbackName: String) -> LooseObject? {
        let meta = file.block("meta")
        let type = meta?.value("type") ?? "http"
        guard ["http", "graphql", "grpc", "ws"].contains(type) else { return nil }
        var item: LooseObject = [
            "type": type == "http"
                ? "http-request"
                : type == "graphql"
                    ? "graphql-request"
                    : type == "grpc" ? "grpc-request" : "ws-request",
            "name": meta?.value("name").flatMap { $0.isEmpty ? nil : $0 } ?? fallbackName,
            "seq": Double(meta?.value("seq") ?? "") ?? 1,
            "tags": meta?.pairs.first { $0.name == "tags" }?.list ?? [],
        ]
        var request: LooseObject = [:]
        let methods = ["get", "post", "put", "delete", "patch", "options", "head", "connect", "trace"]
        if let block = file.blocks.first(where: { methods.contains($0.name) }) {
            request["method"] = block.name.uppercased()
            request["url"] = block.value("url") ?? ""
            request["bodyMode"] = block.value("body") ?? "none"
            request["authMode"] = block.value("auth") ?? "none"
        } else if let block = file.block("http") {
            request["method"] = block.value("method") ?? "GET"
            request["url"] = block.value("url") ?? ""
            request["bodyMode"] = block.value("body") ?? "none"
            request["authMode"] = block.value("auth") ?? "none"
        } else if let block = file.block("grpc") {
            request["method"] = block.value("method") ?? ""
            request["url"] = block.value("url") ?? ""
            request["methodType"] = block.value("methodType") ?? ""
            request["authMode"] = block.value("auth") ?? "none"
            request["bodyMode"] = "grpc"
        } else if let block = file.block("ws") {
            request["url"] = block.value("url") ?? ""
            request["authMode"] = block.value("auth") ?? "none"
            request["bodyMode"] = "ws"
        }
        request["params"] =
            file.blocks("params:query").flatMap { pairs($0, type: "query") }
            + file.blocks("query").flatMap { pairs($0, type: "query") }
            + file.blocks("params:path").flatMap { pairs($0, type: "path") }
        request["headers"] = file.blocks(type == "grpc" ? "metadata" : "headers").flatMap { pairs($0) }
        request["auth"] = auth(of: file, mode: request["authMode"] as? String ?? "none")
        request["body"] = body(of: file, mode: request["bodyMode"] as? String ?? "none")
        request.merge(common(of: file)) { _, new in new }
        item["request"] = request
        if let settings = file.block("settings") {
            item["settings"] = Dictionary(settings.pairs.map { ($0.name, $0.value as Any) }) { first, _ in first }
        }
        return item
    }

    /// A `collection.bru` or `folder.bru` as a `root`: `request` (`headers`, `auth`, `vars`,
    /// `script`, `tests`), `docs` and `meta` (`name`, `seq`).
    static func root(of file: BruFile) -> LooseObject {
        var request: LooseObject = ["headers": file.blocks("headers").flatMap { pairs($0) }]
        let mode = file.block("auth")?.value("mode") ?? "inherit"
        request["auth"] = auth(of: file, mode: mode)
        request.merge(common(of: file)) { _, new in new }
        var root: LooseObject = ["request": request]
        root["docs"] = file.block("docs")?.text
        if let meta = file.block("meta") {
            var values: LooseObject = [:]
            values["name"] = meta.value("name")
            values["seq"] = meta.value("seq").flatMap { Double($0) }
            root["meta"] = values
        }
        return root
    }

    /// An `environments/*.bru` file: `name` and `variables` (`name`, `value`, `enabled`, `secret`).
    static func environment(of file: BruFile, name: String) -> LooseObject {
        var variables: [LooseObject] = file.blocks("vars").flatMap { block in
            block.pairs.map { ["name": $0.name, "value": $0.value, "enabled": $0.enabled, "secret": false] }
        }
        for block in file.blocks("vars:secret") {
            guard case .list(let names) = block.content else { continue }
            for name in names {
                let enabled = !name.hasPrefix("~")
                variables.append(
                    [
                        "name": enabled ? name : String(name.dropFirst()), "value": "", "enabled": enabled,
                        "secret": true,
                    ])
            }
        }
        return ["name": name, "variables": variables]
    }

    // MARK: - Blocks

    /// The vars, assertions, scripts, tests and docs a request, folder and collection share.
    private static func common(of file: BruFile) -> LooseObject {
        var out: LooseObject = [:]
        out["vars"] =
            [
                "req": file.blocks("vars:pre-request").flatMap { variables($0) },
                "res": file.blocks("vars:post-response").flatMap { variables($0) },
            ] as LooseObject
        out["assertions"] = file.blocks("assert").flatMap { pairs($0) }
        var script: LooseObject = [:]
        script["req"] = file.block("script:pre-request")?.text
        script["res"] = file.block("script:post-response")?.text
        out["script"] = script
        out["tests"] = file.block("tests")?.text
        out["docs"] = file.block("docs")?.text
        return out
    }

    /// A dictionary's pairs as `name`, `value`, `enabled` (and `type` for params).
    private static func pairs(_ block: BruFile.Block, type: String? = nil) -> [LooseObject] {
        block.pairs.map { pair in
            var object: LooseObject = ["name": pair.name, "value": pair.value, "enabled": pair.enabled]
            object["type"] = type
            return object
        }
    }

    /// `vars:pre-request` / `vars:post-response` pairs; a leading `@` marks a local one.
    private static func variables(_ block: BruFile.Block) -> [LooseObject] {
        block.pairs.map { pair in
            let local = pair.name.hasPrefix("@")
            return [
                "name": local ? String(pair.name.dropFirst()) : pair.name, "value": pair.value,
                "enabled": pair.enabled, "local": local,
            ]
        }
    }

    /// The `auth:MODE` block of the chosen mode, with Bruno's JSON names.
    private static func auth(of file: BruFile, mode: String) -> LooseObject {
        var auth: LooseObject = ["mode": mode]
        /// Every pair, `~` kept as written (Bruno reads auth blocks without the switch).
        func values(_ name: String) -> [String: String] {
            Dictionary(
                (file.block("auth:\(name)")?.pairs ?? []).map { (($0.enabled ? "" : "~") + $0.name, $0.value) }
            ) { first, _ in first }
        }
        switch mode {
        case "basic", "digest", "wsse":
            let pairs = values(mode)
            auth[mode] = ["username": pairs["username"] ?? "", "password": pairs["password"] ?? ""]
        case "ntlm":
            let pairs = values(mode)
            auth[mode] = [
                "username": pairs["username"] ?? "", "password": pairs["password"] ?? "",
                "domain": pairs["domain"] ?? "",
            ]
        case "bearer":
            auth["bearer"] = ["token": values("bearer")["token"] ?? ""]
        case "apikey":
            let pairs = values("apikey")
            auth["apikey"] = [
                "key": pairs["key"] ?? "", "value": pairs["value"] ?? "", "placement": pairs["placement"] ?? "header",
            ]
        case "awsv4":
            auth["awsv4"] = values("awsv4")
        case "oauth1":
            let pairs = values("oauth1")
            let names = [
                "consumer_key": "consumerKey", "consumer_secret": "consumerSecret", "access_token": "accessToken",
                "token_secret": "accessTokenSecret", "callback_url": "callbackUrl", "verifier": "verifier",
                "signature_method": "signatureMethod", "private_key": "privateKey", "timestamp": "timestamp",
                "nonce": "nonce", "version": "version", "realm": "realm", "placement": "placement",
            ]
            var oauth1: LooseObject = [:]
            for (bru, json) in names { oauth1[json] = pairs[bru] ?? "" }
            auth["oauth1"] = oauth1
        case "oauth2":
            let pairs = values("oauth2")
            let names = [
                "grant_type": "grantType", "callback_url": "callbackUrl", "authorization_url": "authorizationUrl",
                "access_token_url": "accessTokenUrl", "refresh_token_url": "refreshTokenUrl", "client_id": "clientId",
                "client_secret": "clientSecret", "scope": "scope", "state": "state", "username": "username",
                "password": "password", "credentials_placement": "credentialsPlacement",
                "token_placement": "tokenPlacement", "token_header_prefix": "tokenHeaderPrefix",
                "token_query_key": "tokenQueryKey",
            ]
            var oauth2: LooseObject = [:]
            for (bru, json) in names { if let value = pairs[bru] { oauth2[json] = value } }
            auth["oauth2"] = oauth2
        default:
            break
        }
        return auth
    }

    /// Every body block, with Bruno's JSON names (`json`, `formUrlEncoded`, `multipartForm`,
    /// `file`, `graphql`, `grpc`, `ws` …); `mode` is the one the request sends.
    private static func body(of file: BruFile, mode: String) -> LooseObject {
        var body: LooseObject = ["mode": mode]
        for (block, key) in [
            ("body:json", "json"), ("body", "json"), ("body:text", "text"), ("body:xml", "xml"),
            ("body:sparql", "sparql"),
        ] {
            if let text = file.block(block)?.text { body[key] = text }
        }
        if file.block("body") != nil, mode == "none" { body["mode"] = "json" }
        body["formUrlEncoded"] = file.blocks("body:form-urlencoded").flatMap { pairs($0) }
        body["multipartForm"] = file.blocks("body:multipart-form").flatMap { block in
            block.pairs.map { pair in
                var (value, contentType) = splitContentType(pair.value, trimming: false)
                var entry: LooseObject = ["name": pair.name, "enabled": pair.enabled, "contentType": contentType]
                if value.hasPrefix("@file("), value.hasSuffix(")") {
                    value = String(value.dropFirst(6).dropLast())
                    entry["type"] = "file"
                    entry["value"] = value.split(separator: "|").map(String.init)
                } else {
                    entry["type"] = "text"
                    entry["value"] = value
                }
                return entry
            }
        }
        body["file"] = file.blocks("body:file").flatMap { block in
            block.pairs.map { pair in
                let (value, contentType) = splitContentType(pair.value, trimming: true)
                let path =
                    value.hasPrefix("@file(") && value.hasSuffix(")") ? String(value.dropFirst(6).dropLast()) : value
                return ["filePath": path, "contentType": contentType, "selected": pair.enabled] as LooseObject
            }
        }
        var graphql: LooseObject = [:]
        graphql["query"] = file.block("body:graphql")?.text
        graphql["variables"] = file.block("body:graphql:vars")?.text
        if !graphql.isEmpty { body["graphql"] = graphql }
        body["grpc"] = file.blocks("body:grpc").map { block in
            ["name": block.value("name") ?? "", "content": block.value("content") ?? ""] as LooseObject
        }
        body["ws"] = file.blocks("body:ws").map { block in
            [
                "name": block.value("name") ?? "", "type": block.value("type") ?? "",
                "content": block.value("content") ?? "",
            ] as LooseObject
        }
        return body
    }

    /// `value @contentType(type)` as the value and the type (`""` when none), as Bruno splits
    /// a multipart or file line.
    static func splitContentType(_ text: String, trimming: Bool) -> (String, String) {
        guard text.hasSuffix(")"), let marker = text.range(of: "@contentType(", options: .backwards) else {
            return (text, "")
        }
        var value = String(text[..<marker.lowerBound])
        while value.last?.isWhitespace == true { value.removeLast() }
        let type = String(text[marker.upperBound..<text.index(before: text.endIndex)])
        return (
            trimming ? value.trimmingCharacters(in: .whitespaces) : value,
            trimming ? type.trimmingCharacters(in: .whitespaces) : type
        )
    }
}
