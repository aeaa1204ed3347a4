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

// Key-value rows and places, which environments hold too, are written by position, not by key
// (a keyed container costs a key comparison per field): `CollectionCacheTests` holds each to
// its count of stored properties, so a new one is not left out. The endpoint tree is written by
// hand (CollectionCache+Items.swift).

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
        // A place after an edited endpoint, moved (`CollectionPatch`).
        if let shift = decoder.userInfo[.lineShift] as? LineShift { self = shift.apply(self) }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(file)
        try container.encode(line)
        try container.encode(column)
    }
}
