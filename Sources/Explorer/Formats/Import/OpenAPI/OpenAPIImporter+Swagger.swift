import Foundation

/// Swagger 2.0 rewritten as the OpenAPI 3.0 document it describes, so one importer reads both
/// (the mapping the OpenAPI 3.0 specification's own migration notes describe).
extension OpenAPIImporter {
    /// Rewrites a Swagger 2.0 tree as OpenAPI 3.0.3.
    ///
    /// `host` + `basePath` + `schemes` become servers; `definitions`, global `parameters`,
    /// `responses` and `securityDefinitions` move under `components`; `body` and `formData`
    /// parameters become request bodies (in the operation's `consumes` type); a parameter's
    /// or a response's type becomes its `schema`; `type: file` becomes a binary string.
    static func convertingSwagger2(_ swagger: LooseObject) -> LooseObject {
        var root: LooseObject = ["openapi": "3.0.3", "info": swagger["info"] ?? ["title": "Swagger", "version": "1"]]
        for key in ["tags", "externalDocs", "security"] { if let value = swagger[key] { root[key] = value } }
        for (key, value) in swagger where key.hasPrefix("x-") { root[key] = value }

        // Servers.
        if let host = swagger.text("host") {
            let schemes = (swagger["schemes"] as? [String]).flatMap { $0.isEmpty ? nil : $0 } ?? ["https"]
            let basePath = swagger.text("basePath") ?? ""
            root["servers"] = schemes.map {
                ["url": "\($0)://\(host)\(basePath == "/" ? "" : basePath)"] as LooseObject
            }
        } else if let basePath = swagger.text("basePath"), basePath != "/" {
            root["servers"] = [["url": basePath] as LooseObject]
        }

        let consumes = swagger["consumes"] as? [String] ?? ["application/json"]
        let produces = swagger["produces"] as? [String] ?? ["application/json"]
        let globalParameters = swagger.object("parameters") ?? [:]

        // Components.
        var components: LooseObject = [:]
        if let definitions = swagger.object("definitions") { components["schemas"] = definitions.mapValues(schema) }
        var parameters: LooseObject = [:]
        var requestBodies: LooseObject = [:]
        for (name, value) in globalParameters {
            guard let parameter = value as? LooseObject else { continue }
            if parameter.text("in") == "body" {
                requestBodies[name] = requestBody(fromBody: parameter, consumes: consumes)
            } else if parameter.text("in") != "formData" {
                parameters[name] = self.parameter(parameter)
            }
        }
        if !parameters.isEmpty { components["parameters"] = parameters }
        if !requestBodies.isEmpty { components["requestBodies"] = requestBodies }
        if let responses = swagger.object("responses") {
            components["responses"] = responses.mapValues {
                ($0 as? LooseObject).map { response($0, produces: produces) } ?? $0
            }
        }
        if let definitions = swagger.object("securityDefinitions") {
            components["securitySchemes"] = definitions.mapValues(securityScheme)
        }
        if !components.isEmpty { root["components"] = components }

        // Paths.
        var paths: LooseObject = [:]
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch"]
        for (template, value) in swagger.object("paths") ?? [:] {
            guard let item = value as? LooseObject else { continue }
            var converted: LooseObject = [:]
            let shared = item.objects("parameters")
            if !shared.isEmpty {
                converted["parameters"] = shared.filter { !isBodyLike($0, globals: globalParameters) }.map {
                    convertParameterOrReference($0)
                }
            }
            for (method, operationValue) in item {
                guard methods.contains(method), var operation = operationValue as? LooseObject else {
                    if method.hasPrefix("x-") || method == "summary" || method == "description" {
                        converted[method] = operationValue
                    }
                    continue
                }
                let operationConsumes = operation["consumes"] as? [String] ?? consumes
                let operationProduces = operation["produces"] as? [String] ?? produces
                let all = shared.filter { isBodyLike($0, globals: globalParameters) } + operation.objects("parameters")
                var plain: [Any] = []
                var formFields: [LooseObject] = []
                for parameter in all {
                    if let ref = parameter.text("$ref") {
                        let name = String(ref.split(separator: "/").last ?? "")
                        let global = globalParameters[name] as? LooseObject
                        switch global?.text("in") {
                        case "body":
                            operation["requestBody"] = ["$ref": "#/components/requestBodies/\(name)"] as LooseObject
                        case "formData": formFields.append(global ?? [:])
                        default: plain.append(parameter)
                        }
                        continue
                    }
                    switch parameter.text("in") {
                    case "body":
                        operation["requestBody"] = requestBody(fromBody: parameter, consumes: operationConsumes)
                    case "formData": formFields.append(parameter)
                    default: plain.append(self.parameter(parameter))
                    }
                }
                if !formFields.isEmpty {
                    operation["requestBody"] = requestBody(fromForm: formFields, consumes: operationConsumes)
                }
                if plain.isEmpty {
                    operation.removeValue(forKey: "parameters")
                } else {
                    operation["parameters"] = plain
                }
                if let responses = operation.object("responses") {
                    operation["responses"] = responses.mapValues {
                        ($0 as? LooseObject).map { response($0, produces: operationProduces) } ?? $0
                    }
                }
                operation.removeValue(forKey: "consumes")
                operation.removeValue(forKey: "produces")
                operation.removeValue(forKey: "schemes")
                converted[method] = operation
            }
            paths[template] = converted
        }
        root["paths"] = paths
        return rewritingReferences(root) as? LooseObject ?? root
    }

    private static func isBodyLike(_ parameter: LooseObject, globals: LooseObject) -> Bool {
        if let ref = parameter.text("$ref"),
            let global = globals[String(ref.split(separator: "/").last ?? "")] as? LooseObject
        {
            return global.text("in") == "body" || global.text("in") == "formData"
        }
        return parameter.text("in") == "body" || parameter.text("in") == "formData"
    }

    private static func convertParameterOrReference(_ parameter: LooseObject) -> LooseObject {
        parameter["$ref"] != nil ? parameter : self.parameter(parameter)
    }

    /// A query, header or path parameter: its type moves into `schema`.
    private static func parameter(_ parameter: LooseObject) -> LooseObject {
        var out: LooseObject = [:]
        let schemaKeys: Set<String> = [
            "type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
            "multipleOf",
        ]
        var schemaPart: LooseObject = [:]
        for (key, value) in parameter {
            if schemaKeys.contains(key) {
                schemaPart[key] = value
            } else if key == "allowEmptyValue" {
                if parameter.text("in") == "query" { out[key] = value }
            } else if key != "collectionFormat" && key != "x-example" {
                out[key] = value
            }
        }
        if !schemaPart.isEmpty { out["schema"] = schema(schemaPart) }
        if let example = parameter["x-example"] { out["example"] = example }
        return out
    }

    private static func requestBody(fromBody parameter: LooseObject, consumes: [String]) -> LooseObject {
        var content: LooseObject = [:]
        for type in consumes.isEmpty ? ["application/json"] : consumes {
            var media: LooseObject = ["schema": schema(parameter["schema"] ?? [:] as LooseObject)]
            if let example = parameter["x-example"] { media["example"] = example }
            content[type] = media
        }
        var body: LooseObject = ["content": content]
        if let description = parameter["description"] { body["description"] = description }
        if let required = parameter["required"] { body["required"] = required }
        return body
    }

    private static func requestBody(fromForm fields: [LooseObject], consumes: [String]) -> LooseObject {
        var properties: LooseObject = [:]
        var required: [String] = []
        var hasFile = false
        for field in fields {
            guard let name = field.text("name") else { continue }
            var property = parameter(field)["schema"] as? LooseObject ?? ["type": "string"]
            if field.text("type") == "file" { hasFile = true }
            if let description = field["description"] { property["description"] = description }
            properties[name] = property
            if field.flag("required") { required.append(name) }
        }
        var formSchema: LooseObject = ["type": "object", "properties": properties]
        if !required.isEmpty { formSchema["required"] = required }
        let type =
            hasFile || consumes.contains("multipart/form-data")
            ? "multipart/form-data" : "application/x-www-form-urlencoded"
        return ["content": [type: ["schema": formSchema] as LooseObject] as LooseObject]
    }

    private static func response(_ response: LooseObject, produces: [String]) -> LooseObject {
        if response["$ref"] != nil { return response }
        var out: LooseObject = ["description": response["description"] ?? ""]
        if let responseSchema = response["schema"] {
            var content: LooseObject = [:]
            let examples = response.object("examples") ?? [:]
            for type in produces.isEmpty ? ["application/json"] : produces {
                var media: LooseObject = ["schema": schema(responseSchema)]
                if let example = examples[type] { media["example"] = example }
                content[type] = media
            }
            out["content"] = content
        }
        if let headers = response.object("headers") {
            out["headers"] = headers.mapValues { value -> Any in
                guard let header = value as? LooseObject else { return value }
                var converted = parameter(header)
                converted.removeValue(forKey: "name")
                converted.removeValue(forKey: "in")
                return converted
            }
        }
        return out
    }

    private static func securityScheme(_ value: Any) -> Any {
        guard let scheme = value as? LooseObject else { return value }
        switch scheme.text("type") {
        case "basic": return ["type": "http", "scheme": "basic"] as LooseObject
        case "oauth2":
            var flow: LooseObject = ["scopes": scheme["scopes"] ?? [:] as LooseObject]
            if let url = scheme["authorizationUrl"] { flow["authorizationUrl"] = url }
            if let url = scheme["tokenUrl"] { flow["tokenUrl"] = url }
            let names = [
                "implicit": "implicit", "password": "password", "application": "clientCredentials",
                "accessCode": "authorizationCode",
            ]
            return ["type": "oauth2", "flows": [names[scheme.text("flow") ?? ""] ?? "implicit": flow] as LooseObject]
                as LooseObject
        default: return scheme
        }
    }

    /// A schema: `type: file` is a binary string; nested schemas likewise.
    private static func schema(_ value: Any) -> Any {
        if var object = value as? LooseObject {
            if object.text("type") == "file" {
                object["type"] = "string"
                object["format"] = "binary"
            }
            if let discriminator = object.text("discriminator") {
                object["discriminator"] = ["propertyName": discriminator] as LooseObject
            }
            for key in ["items", "additionalProperties", "not"] {
                if let nested = object[key] as? LooseObject { object[key] = schema(nested) }
            }
            for key in ["allOf", "anyOf", "oneOf"] {
                if let list = object[key] as? [Any] { object[key] = list.map(schema) }
            }
            if let properties = object.object("properties") { object["properties"] = properties.mapValues(schema) }
            return object
        }
        return value
    }

    /// `#/definitions/X` → `#/components/schemas/X`, and the other moved components alike.
    private static func rewritingReferences(_ value: Any) -> Any {
        if var object = value as? LooseObject {
            if let ref = object["$ref"] as? String {
                for (old, new) in [
                    ("#/definitions/", "#/components/schemas/"), ("#/parameters/", "#/components/parameters/"),
                    ("#/responses/", "#/components/responses/"),
                ] where ref.hasPrefix(old) {
                    object["$ref"] = new + ref.dropFirst(old.count)
                }
            }
            return object.mapValues(rewritingReferences)
        }
        if let array = value as? [Any] { return array.map(rewritingReferences) }
        return value
    }
}
