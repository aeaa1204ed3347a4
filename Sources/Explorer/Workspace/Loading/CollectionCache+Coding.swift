import Foundation
import NetworkingCore

// How the parsed-collection cache writes the model types whose own `Codable` would not keep
// them whole: `JSONValue` (its `Codable` is JSON's, which loses a number's text and cannot
// tell its kinds apart in a format without them) and `Environment` (a class, its `.env`
// values never written: they are read again at each load).

/// A JSON value written kind first, its numbers as written and its members in order, in one
/// flat sequence (no container per node).
struct CachedJSON: Codable {
    /// The value.
    var value: JSONValue

    /// Wraps a value to write.
    init(_ value: JSONValue) { self.value = value }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        value = try Self.read(&container, depth: 0)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try Self.write(value, to: &container)
    }

    private static func write(_ value: JSONValue, to container: inout any UnkeyedEncodingContainer) throws {
        switch value {
        case .null: try container.encode(UInt8(0))
        case .bool(let flag):
            try container.encode(UInt8(1))
            try container.encode(flag)
        case .number(let text):
            try container.encode(UInt8(2))
            try container.encode(text)
        case .string(let text):
            try container.encode(UInt8(3))
            try container.encode(text)
        case .array(let elements):
            try container.encode(UInt8(4))
            try container.encode(elements.count)
            for element in elements { try write(element, to: &container) }
        case .object(let members):
            try container.encode(UInt8(5))
            try container.encode(members.count)
            for member in members {
                try container.encode(member.key)
                try write(member.value, to: &container)
            }
        }
    }

    private static func read(_ container: inout any UnkeyedDecodingContainer, depth: Int) throws -> JSONValue {
        // The loader bounded the nesting of what was written; a damaged cache is not trusted
        // to be, so the stack is not.
        guard depth <= DocumentLimits.current.maxDepth else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "JSON nested too deeply")
        }
        switch try container.decode(UInt8.self) {
        case 0: return .null
        case 1: return .bool(try container.decode(Bool.self))
        case 2: return .number(try container.decode(String.self))
        case 3: return .string(try container.decode(String.self))
        case 4:
            let count = try container.decode(Int.self)
            var elements: [JSONValue] = []
            for _ in 0..<max(count, 0) { elements.append(try read(&container, depth: depth + 1)) }
            return .array(elements)
        case 5:
            let count = try container.decode(Int.self)
            var members: [(key: String, value: JSONValue)] = []
            for _ in 0..<max(count, 0) {
                let key = try container.decode(String.self)
                members.append((key, try read(&container, depth: depth + 1)))
            }
            return .object(members)
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value's kind")
        }
    }
}

extension EndpointBody: Codable {
    private enum Kind: UInt8, Codable { case json, raw, file, form, multipart }

    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        switch try container.decode(Kind.self) {
        case .json: self = .json(try container.decode(CachedJSON.self).value)
        case .raw: self = .raw(try container.decode(String.self))
        case .file: self = .file(try container.decode(String.self))
        case .form: self = .form(try container.decode([KeyValue].self))
        case .multipart: self = .multipart(try container.decode([MultipartField].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .json(let value):
            try container.encode(Kind.json)
            try container.encode(CachedJSON(value))
        case .raw(let text):
            try container.encode(Kind.raw)
            try container.encode(text)
        case .file(let path):
            try container.encode(Kind.file)
            try container.encode(path)
        case .form(let rows):
            try container.encode(Kind.form)
            try container.encode(rows)
        case .multipart(let fields):
            try container.encode(Kind.multipart)
            try container.encode(fields)
        }
    }
}

extension GRPCSettings: Codable {
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(
            method: try container.decode(String.self), server: try container.decode(String?.self),
            messages: try container.decode([CachedJSON].self).map(\.value),
            writtenAsList: try container.decode(Bool.self))
        timeout = try container.decode(Double?.self)
        maximumMessageSize = try container.decode(Int?.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(method)
        try container.encode(server)
        try container.encode(messages.map(CachedJSON.init))
        try container.encode(writtenAsList)
        try container.encode(timeout)
        try container.encode(maximumMessageSize)
    }
}

extension GraphQLOperation: Codable {
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(
            document: try container.decode(Document.self),
            variables: try container.decode(CachedJSON?.self)?.value,
            operationName: try container.decode(String?.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(document)
        try container.encode(variables.map(CachedJSON.init))
        try container.encode(operationName)
    }
}

extension CodingUserInfoKey {
    /// The `.env` values of the collection being decoded (`[String: String]`): an
    /// environment's are not written to the cache, but read beside the collection each load.
    static let dotEnv = CodingUserInfoKey(rawValue: "explorer.dotEnv")!
}

extension Environment: Codable {
    private enum Field: String, CodingKey {
        case name, baseURLTemplate, isProtected, variables, headers, secrets, collectionVariables, location
        case baseURLLocation, summary, auth, keepsCookies, tls, proxy, insecureRedirects, followRedirects
        case resolve, proxyTunnel, collectionAllowsInsecureRedirects, traces, collectionTraces
    }

    /// `TLSSettings` (a public type of the networking library, not `Codable`) as the cache
    /// writes it.
    private struct TLSFields: Codable {
        var caCertificateFile, clientCertificateFile, clientKeyFile, clientKeyPassword: String?
        var insecure: Bool
        var minimumVersion: String?
    }

    package convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Field.self)
        let tls = try container.decode(TLSFields?.self, forKey: .tls).map { fields in
            TLSSettings(
                caCertificateFile: fields.caCertificateFile, clientCertificateFile: fields.clientCertificateFile,
                clientKeyFile: fields.clientKeyFile, clientKeyPassword: fields.clientKeyPassword,
                insecure: fields.insecure,
                minimumVersion: fields.minimumVersion.flatMap(TLSSettings.Version.init(rawValue:)))
        }
        self.init(
            name: try container.decode(String.self, forKey: .name),
            baseURLTemplate: try container.decode(String.self, forKey: .baseURLTemplate),
            isProtected: try container.decode(Bool.self, forKey: .isProtected),
            variables: try container.decode([KeyValue].self, forKey: .variables),
            headers: try container.decode([KeyValue].self, forKey: .headers),
            secrets: try container.decode([String].self, forKey: .secrets),
            collectionVariables: try container.decode([KeyValue].self, forKey: .collectionVariables),
            dotEnv: decoder.userInfo[.dotEnv] as? [String: String] ?? [:],
            location: try container.decode(FileLocation?.self, forKey: .location),
            baseURLLocation: try container.decode(FileLocation?.self, forKey: .baseURLLocation),
            summary: try container.decode(String?.self, forKey: .summary),
            auth: try container.decode(Authentication?.self, forKey: .auth),
            keepsCookies: try container.decode(Bool.self, forKey: .keepsCookies),
            tls: tls,
            proxy: try container.decode(ProxySetting?.self, forKey: .proxy),
            insecureRedirects: try container.decode(Bool?.self, forKey: .insecureRedirects),
            followRedirects: try container.decode(Bool?.self, forKey: .followRedirects),
            resolve: try container.decode([KeyValue].self, forKey: .resolve),
            proxyTunnel: try container.decode(Bool.self, forKey: .proxyTunnel))
        collectionAllowsInsecureRedirects = try container.decode(Bool.self, forKey: .collectionAllowsInsecureRedirects)
        traces = try container.decode(Bool?.self, forKey: .traces)
        collectionTraces = try container.decode(Bool.self, forKey: .collectionTraces)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        try container.encode(name, forKey: .name)
        try container.encode(baseURLTemplate, forKey: .baseURLTemplate)
        try container.encode(isProtected, forKey: .isProtected)
        try container.encode(variables, forKey: .variables)
        try container.encode(headers, forKey: .headers)
        try container.encode(secrets, forKey: .secrets)
        try container.encode(collectionVariables, forKey: .collectionVariables)
        try container.encode(location, forKey: .location)
        try container.encode(baseURLLocation, forKey: .baseURLLocation)
        try container.encode(summary, forKey: .summary)
        try container.encode(auth, forKey: .auth)
        try container.encode(keepsCookies, forKey: .keepsCookies)
        let tlsFields = tls.map { settings in
            TLSFields(
                caCertificateFile: settings.caCertificateFile, clientCertificateFile: settings.clientCertificateFile,
                clientKeyFile: settings.clientKeyFile, clientKeyPassword: settings.clientKeyPassword,
                insecure: settings.insecure, minimumVersion: settings.minimumVersion?.rawValue)
        }
        try container.encode(tlsFields, forKey: .tls)
        try container.encode(proxy, forKey: .proxy)
        try container.encode(insecureRedirects, forKey: .insecureRedirects)
        try container.encode(followRedirects, forKey: .followRedirects)
        try container.encode(resolve, forKey: .resolve)
        try container.encode(proxyTunnel, forKey: .proxyTunnel)
        try container.encode(collectionAllowsInsecureRedirects, forKey: .collectionAllowsInsecureRedirects)
        try container.encode(traces, forKey: .traces)
        try container.encode(collectionTraces, forKey: .collectionTraces)
    }
}

// The types a large collection holds tens of thousands of are written by position, not by key
// (a keyed container costs a key comparison per field): `CollectionCacheTests` holds each to
// its count of stored properties, so a new one is not left out.

extension KeyValue: Codable {
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(try container.decode(String.self), try container.decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(name)
        try container.encode(value)
    }
}

extension FileLocation: Codable {
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        self.init(
            file: try container.decode(String.self), line: try container.decode(Int.self),
            column: try container.decode(Int.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(file)
        try container.encode(line)
        try container.encode(column)
    }
}

extension CollectionItem: Codable {
    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        if try container.decode(Bool.self) {
            self = .folder(try container.decode(Folder.self))
        } else {
            self = .endpoint(try container.decode(Endpoint.self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .folder(let folder):
            try container.encode(true)
            try container.encode(folder)
        case .endpoint(let endpoint):
            try container.encode(false)
            try container.encode(endpoint)
        }
    }
}

extension Endpoint: Codable {
    /// How many stored properties the coding below knows of.
    static let codedFieldCount = 23

    /// The parts an endpoint may leave empty, a bit each: only those it has are written (most
    /// endpoints have a name, a path and a few more), after the bits.
    private enum Part: Int, CaseIterable {
        case query, headers, body, disabled, captures, assertions, retry, requirements, auth, graphql, operation
        case followRedirects, webSocket, grpc, tags, traces, location, description, locations

        var bit: UInt32 { 1 << UInt32(rawValue) }
    }

    package init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let parts = try container.decode(UInt32.self)
        func has(_ part: Part) -> Bool { parts & part.bit != 0 }
        self.init(
            name: try container.decode(String.self), folderPath: try container.decode([String].self),
            method: try container.decode(HTTPMethod.self), path: try container.decode(String.self))
        if has(.query) { query = try container.decode([KeyValue].self) }
        if has(.headers) { headers = try container.decode([KeyValue].self) }
        if has(.body) { body = try container.decode(EndpointBody.self) }
        if has(.disabled) { disabled = try container.decode(DisabledRows.self) }
        if has(.captures) { captures = try container.decode([Capture].self) }
        if has(.assertions) { assertions = try container.decode([Assertion].self) }
        if has(.retry) { retry = try container.decode(CheckRetry.self) }
        if has(.requirements) { requirements = try container.decode([Requirement].self) }
        if has(.auth) { auth = try container.decode(Authentication.self) }
        if has(.graphql) { graphql = try container.decode(GraphQLOperation.self) }
        if has(.operation) { operation = try container.decode(String.self) }
        if has(.followRedirects) { followRedirects = try container.decode(Bool.self) }
        if has(.webSocket) { webSocket = try container.decode(WebSocketSettings.self) }
        if has(.grpc) { grpc = try container.decode(GRPCSettings.self) }
        if has(.tags) { tags = try container.decode([String].self) }
        if has(.traces) { traces = try container.decode(Bool.self) }
        if has(.location) { location = try container.decode(FileLocation.self) }
        if has(.description) { description = try container.decode(String.self) }
        if has(.locations) {
            // The places of its parts, as two lists: a dictionary's keys cost a container each.
            let places = try container.decode([String].self)
            let locations = try container.decode([FileLocation].self)
            guard places.count == locations.count else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "places and locations differ")
            }
            self.locations = Dictionary(zip(places, locations), uniquingKeysWith: { first, _ in first })
        }
    }

    package func encode(to encoder: any Encoder) throws {
        let present: [Part: Bool] = [
            .query: !query.isEmpty, .headers: !headers.isEmpty, .body: body != nil, .disabled: !disabled.isEmpty,
            .captures: !captures.isEmpty, .assertions: !assertions.isEmpty, .retry: retry != nil,
            .requirements: !requirements.isEmpty, .auth: auth != nil, .graphql: graphql != nil,
            .operation: operation != nil, .followRedirects: followRedirects != nil, .webSocket: webSocket != nil,
            .grpc: grpc != nil, .tags: !tags.isEmpty, .traces: traces != nil, .location: location != nil,
            .description: description != nil, .locations: !locations.isEmpty,
        ]
        var container = encoder.unkeyedContainer()
        try container.encode(Part.allCases.reduce(UInt32(0)) { present[$1] == true ? $0 | $1.bit : $0 })
        try container.encode(name)
        try container.encode(folderPath)
        try container.encode(method)
        try container.encode(path)
        if !query.isEmpty { try container.encode(query) }
        if !headers.isEmpty { try container.encode(headers) }
        if let body { try container.encode(body) }
        if !disabled.isEmpty { try container.encode(disabled) }
        if !captures.isEmpty { try container.encode(captures) }
        if !assertions.isEmpty { try container.encode(assertions) }
        if let retry { try container.encode(retry) }
        if !requirements.isEmpty { try container.encode(requirements) }
        if let auth { try container.encode(auth) }
        if let graphql { try container.encode(graphql) }
        if let operation { try container.encode(operation) }
        if let followRedirects { try container.encode(followRedirects) }
        if let webSocket { try container.encode(webSocket) }
        if let grpc { try container.encode(grpc) }
        if !tags.isEmpty { try container.encode(tags) }
        if let traces { try container.encode(traces) }
        if let location { try container.encode(location) }
        if let description { try container.encode(description) }
        if !locations.isEmpty {
            let places = locations.sorted { $0.key < $1.key }
            try container.encode(places.map(\.key))
            try container.encode(places.map(\.value))
        }
    }
}
