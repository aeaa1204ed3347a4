import Foundation

/// OpenCollection YAML (`opencollection.yml` and its request files, Bruno 3's and later
/// default) read into the shape of Bruno's JSON export, as Bruno's file store reads it.
enum OpenCollectionItems {
    /// A request file's item (`info.type` `http`, `graphql`, `grpc` or `websocket`), or `nil`
    /// for a file that is not a request (a folder, a script).
    static func item(of document: LooseObject, fallbackName: String) -> LooseObject? {
        let info = document.object("info") ?? [:]
        let type = info.text("type") ?? (document["http"] != nil ? "http" : "")
        let key: String
        let itemType: String
        switch type {
        case "http": (key, itemType) = ("http", "http-request")
        case "graphql": (key, itemType) = ("graphql", "graphql-request")
        case "grpc": (key, itemType) = ("grpc", "grpc-request")
        case "websocket", "ws": (key, itemType) = ("websocket", "ws-request")
        default: return nil
        }
        let details = document.object(key) ?? [:]
        let runtime = document.object("runtime") ?? [:]
        var item: LooseObject = [
            "type": itemType, "name": info.text("name").flatMap { $0.isEmpty ? nil : $0 } ?? fallbackName,
            "seq": Double(info.text("seq") ?? "") ?? 1,
            "tags": (info["tags"] as? [Any])?.compactMap { $0 as? String } ?? [],
        ]
        var request: LooseObject = [
            "url": details.text("url") ?? "",
            "method": details.text("method") ?? (type == "grpc" ? "" : "GET"),
            "params": (details["params"] as? [Any] ?? []).compactMap { $0 as? LooseObject }.map { param in
                [
                    "name": param.text("name") ?? "", "value": param.text("value") ?? "",
                    "type": param.text("type") ?? "query", "enabled": !param.flag("disabled"),
                ] as LooseObject
            },
            "headers": pairs(details.objects(type == "grpc" ? "metadata" : "headers")),
            "auth": auth(details["auth"]),
        ]
        request["methodType"] = details.text("methodType")
        var body: LooseObject = ["mode": "none"]
        switch type {
        case "graphql":
            let graphql = details.object("body") ?? [:]
            body = [
                "mode": "graphql",
                "graphql": ["query": graphql.text("query") ?? "", "variables": graphql.text("variables") ?? ""],
            ]
        case "grpc":
            body = ["mode": "grpc", "grpc": messages(details["message"], name: "title", content: "message")]
        case "websocket", "ws":
            let messages = messages(details["message"], name: "title", content: "message")
            body = ["mode": "ws", "ws": messages]
        default:
            body = self.body(details.object("body"))
        }
        request["body"] = body
        request.merge(common(runtime: runtime, docs: document["docs"])) { _, new in new }
        if request["docs"] == nil { request["docs"] = text(info["description"]) }
        item["request"] = request
        if let settings = document.object("settings") { item["settings"] = settings }
        return item
    }

    /// An `opencollection.yml` or `folder.yml` as a `root` (`request`, `docs`, `meta`).
    static func root(of document: LooseObject) -> LooseObject {
        let info = document.object("info") ?? [:]
        let requestDefaults = document.object("request") ?? [:]
        let inherited: LooseObject = ["mode": "inherit"]
        var request: LooseObject = ["headers": pairs(requestDefaults.objects("headers"))]
        request["auth"] = requestDefaults["auth"] == nil ? inherited : auth(requestDefaults["auth"])
        request.merge(common(runtime: requestDefaults, docs: document["docs"])) { _, new in new }
        var meta: LooseObject = [:]
        meta["name"] = info.text("name")
        meta["seq"] = info.text("seq").flatMap { Double($0) }
        return ["request": request, "docs": request["docs"] as Any, "meta": meta]
    }

    /// A whole collection in one file (`opencollection:` with `items:`, as Bruno exports it):
    /// the tree of Bruno's JSON export.
    static func tree(ofBundle document: LooseObject, fallbackName: String) -> LooseObject {
        func items(_ list: [LooseObject]) -> [LooseObject] {
            list.compactMap { entry in
                let info = entry.object("info") ?? [:]
                if info.text("type") == "folder" || (entry["items"] != nil && entry["http"] == nil) {
                    var folder: LooseObject = ["type": "folder", "name": info.text("name") ?? "Untitled"]
                    folder["seq"] = info.text("seq").flatMap { Double($0) }
                    folder["items"] = items(entry.objects("items"))
                    folder["root"] = root(of: entry)
                    return folder
                }
                return item(of: entry, fallbackName: info.text("name") ?? "Untitled")
            }
        }
        return [
            "name": document.object("info")?.text("name") ?? fallbackName, "root": root(of: document),
            "items": items(document.objects("items")), "environments": environments(of: document),
        ]
    }

    /// The environments a collection file holds itself (`config.environments`).
    static func environments(of document: LooseObject) -> [LooseObject] {
        (document.object("config")?.objects("environments") ?? []).map { environment(of: $0, name: "default") }
    }

    /// An `environments/*.yml` file: `name` and `variables`.
    static func environment(of document: LooseObject, name: String) -> LooseObject {
        let variables: [LooseObject] = document.objects("variables").map { variable in
            [
                "name": variable.text("name") ?? "", "value": value(variable["value"]),
                "enabled": !variable.flag("disabled"), "secret": variable.flag("secret"),
            ]
        }
        return ["name": document.text("name") ?? name, "variables": variables]
    }

    // MARK: - Parts

    /// A variable's value: text, or a typed value's `data` (`{type: number, data: "42"}`).
    private static func value(_ value: Any?) -> String {
        if let object = value as? LooseObject { return object.text("data") ?? "" }
        if let text = value as? String { return text }
        if let number = value as? NSNumber { return number.stringValue }
        if let number = value as? OpenAPIImporter.NumberText { return number.text }
        return ""
    }

    /// A description or docs: text, or an object's `content`.
    private static func text(_ value: Any?) -> String? {
        let text = (value as? String) ?? (value as? LooseObject)?.text("content")
        return text.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
    }

    /// `- {name, value, disabled}` entries as `name`, `value`, `enabled`.
    private static func pairs(_ entries: [LooseObject]) -> [LooseObject] {
        entries.map { ["name": $0.text("name") ?? "", "value": value($0["value"]), "enabled": !$0.flag("disabled")] }
    }

    /// A gRPC or WebSocket `message`: one, or a list of `{title, message}` variants.
    private static func messages(_ value: Any?, name: String, content: String) -> [LooseObject] {
        if let list = value as? [Any] {
            return list.compactMap { $0 as? LooseObject }.enumerated().map { index, variant in
                let message = variant[content]
                let object = message as? LooseObject
                return [
                    "name": variant.text(name) ?? "message \(index + 1)",
                    "type": object?.text("type") ?? "text",
                    "content": object.map { $0.text("data") ?? "" } ?? (message as? String ?? ""),
                ]
            }
        }
        if let object = value as? LooseObject {
            let data = object.text("data") ?? ""
            return data.isEmpty ? [] : [["name": "message 1", "type": object.text("type") ?? "text", "content": data]]
        }
        if let text = value as? String, !text.isEmpty {
            return [["name": "message 1", "type": "text", "content": text]]
        }
        return []
    }

    /// The runtime part: variables, post-response actions, assertions, scripts; and docs.
    private static func common(runtime: LooseObject, docs: Any?) -> LooseObject {
        var out: LooseObject = [:]
        let requestVariables: [LooseObject] = runtime.objects("variables").map { variable in
            [
                "name": variable.text("name") ?? "", "value": value(variable["value"]),
                "enabled": !variable.flag("disabled"),
            ]
        }
        let responseVariables: [LooseObject] = runtime.objects("actions").compactMap { action in
            guard action.text("type") == "set-variable" else { return nil }
            return [
                "name": action.object("variable")?.text("name") ?? "",
                "value": action.object("selector")?.text("expression") ?? "", "enabled": !action.flag("disabled"),
            ]
        }
        out["vars"] = ["req": requestVariables, "res": responseVariables] as LooseObject
        out["assertions"] = runtime.objects("assertions").map { assertion in
            let operatorText = assertion.text("operator") ?? ""
            let valueText = assertion["value"] == nil ? "" : value(assertion["value"])
            return [
                "name": assertion.text("expression") ?? "",
                "value": valueText.isEmpty ? operatorText : "\(operatorText) \(valueText)",
                "enabled": !assertion.flag("disabled"),
            ] as LooseObject
        }
        var script: LooseObject = [:]
        for entry in runtime.objects("scripts") {
            switch entry.text("type") {
            case "before-request": script["req"] = entry.text("code")
            case "after-response": script["res"] = entry.text("code")
            case "tests": out["tests"] = entry.text("code")
            default: break
            }
        }
        out["script"] = script
        out["docs"] = text(docs)
        return out
    }

    /// An OpenCollection `body` (`type` and `data`) as Bruno's.
    private static func body(_ body: LooseObject?) -> LooseObject {
        // Bruno 3's first previews wrote Bruno's own shape (mode, json …).
        if let body, body["mode"] != nil, body["type"] == nil { return body }
        guard let body, let type = body.text("type") else { return ["mode": "none"] }
        switch type {
        case "json", "text", "xml", "sparql":
            return ["mode": type, type: body.text("data") ?? ""]
        case "form-urlencoded":
            return ["mode": "formUrlEncoded", "formUrlEncoded": pairs(body.objects("data"))]
        case "multipart-form":
            return [
                "mode": "multipartForm",
                "multipartForm": body.objects("data").map { entry in
                    let isFile = entry.text("type") == "file"
                    return [
                        "name": entry.text("name") ?? "", "type": isFile ? "file" : "text",
                        "value": isFile
                            ? ((entry["value"] as? [Any])?.compactMap { $0 as? String } ?? [entry.text("value") ?? ""])
                            : value(entry["value"]) as Any,
                        "contentType": entry.text("contentType") ?? "", "enabled": !entry.flag("disabled"),
                    ] as LooseObject
                },
            ]
        case "file":
            return [
                "mode": "file",
                "file": body.objects("data").map { entry in
                    [
                        "filePath": entry.text("filePath") ?? "", "contentType": entry.text("contentType") ?? "",
                        "selected": entry.flag("selected"),
                    ] as LooseObject
                },
            ]
        default:
            return ["mode": type]
        }
    }

    /// An OpenCollection `auth` (`inherit`, or a mapping with `type`) as Bruno's.
    static func auth(_ value: Any?) -> LooseObject {
        if let text = value as? String { return ["mode": text == "inherit" ? "inherit" : "none"] }
        guard let auth = value as? LooseObject, let type = auth.text("type") else { return ["mode": "none"] }
        func text(_ key: String) -> String { auth.text(key) ?? "" }
        switch type {
        case "basic", "digest", "wsse":
            return ["mode": type, type: ["username": text("username"), "password": text("password")]]
        case "ntlm":
            return [
                "mode": type,
                type: ["username": text("username"), "password": text("password"), "domain": text("domain")],
            ]
        case "bearer":
            return ["mode": "bearer", "bearer": ["token": text("token")]]
        case "apikey":
            return [
                "mode": "apikey",
                "apikey": [
                    "key": text("key"), "value": text("value"),
                    "placement": auth.text("placement") == "query" ? "queryparams" : "header",
                ],
            ]
        case "awsv4":
            var values: LooseObject = [:]
            for key in ["accessKeyId", "secretAccessKey", "sessionToken", "service", "region", "profileName"] {
                values[key] = text(key)
            }
            return ["mode": "awsv4", "awsv4": values]
        case "oauth1":
            var values: LooseObject = [:]
            for key in [
                "consumerKey", "consumerSecret", "accessToken", "accessTokenSecret", "callbackUrl", "verifier",
                "signatureMethod", "timestamp", "nonce", "version", "realm", "placement",
            ] {
                values[key] = text(key)
            }
            values["privateKey"] = auth.object("privateKey")?.text("value") ?? text("privateKey")
            return ["mode": "oauth1", "oauth1": values]
        case "oauth2":
            let flows = ["resource_owner_password_credentials": "password"]
            let flow = auth.text("flow") ?? "client_credentials"
            let credentials = auth.object("credentials") ?? [:]
            var values: LooseObject = [
                "grantType": flows[flow] ?? flow, "accessTokenUrl": text("accessTokenUrl"),
                "authorizationUrl": text("authorizationUrl"), "clientId": credentials.text("clientId") ?? "",
                "clientSecret": credentials.text("clientSecret") ?? "", "scope": text("scope"),
                "username": auth.object("resourceOwner")?.text("username") ?? "",
                "password": auth.object("resourceOwner")?.text("password") ?? "",
                "credentialsPlacement": credentials.text("placement") ?? "body",
            ]
            if let placement = auth.object("tokenConfig")?.object("placement") {
                if let query = placement.text("query") {
                    values["tokenPlacement"] = "url"
                    values["tokenQueryKey"] = query
                } else {
                    values["tokenPlacement"] = "header"
                    values["tokenHeaderPrefix"] = placement.text("header") ?? "Bearer"
                }
            }
            return ["mode": "oauth2", "oauth2": values]
        default:
            return ["mode": type]
        }
    }
}
