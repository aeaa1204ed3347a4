import Foundation
import NetworkingCore
import Yams

/// What makes an endpoint a gRPC call (`grpc: package.Service/Method`): the messages it sends
/// and the server it sends them to when that is not the environment's `base_url`.
///
/// ```yaml
/// - name: Say hello
///   grpc: explorer.demo.v1.Notes/GetNote
///   server: "{{grpc_url}}"          # optional: the environment's base_url when left out
///   message: {id: "{{note_id}}"}    # one request message, proto3 JSON; templates in strings
///   metadata: {authorization: "Bearer {{token}}"}
/// - name: Chat
///   grpc: explorer.demo.v1.Notes/Chat
///   messages: [{text: hi}, {text: bye}]   # client and bidi streams send each in turn
/// ```
///
/// The endpoint's `path` is the call's HTTP/2 path (`/package.Service/Method`), after the
/// server when `server:` is written: the URL history keeps, the resolver expands and the
/// trust rule names is the one the call goes to. `metadata:` is kept in the endpoint's
/// `headers`, so that an environment's headers, `auth:` and masking apply to it as to HTTP's.
package struct GRPCSettings: Sendable, Hashable {
    /// `package.Service/Method`.
    package var method: String
    /// The server (`grpc://host:port` or `grpcs://host:port`, a template) when it is not the
    /// environment's `base_url`.
    package var server: String?
    /// The request messages in proto3 JSON, their strings templates.
    package var messages: [JSONValue]
    /// Whether the file wrote `messages:` (a list) rather than `message:`.
    package var writtenAsList: Bool
    /// The call's deadline in seconds (`timeout:`), when the endpoint gives one.
    package var timeout: Double?
    /// The largest message either way, in bytes (`max_message_size:`), when the endpoint gives one.
    package var maximumMessageSize: Int?

    /// Creates settings.
    package init(
        method: String, server: String? = nil, messages: [JSONValue] = [.object([])], writtenAsList: Bool = false
    ) {
        self.method = method
        self.server = server
        self.messages = messages
        self.writtenAsList = writtenAsList
    }

    /// The endpoint path these settings give: `/package.Service/Method`, after the server when
    /// there is one.
    package var path: String {
        let methodPath = "/" + method.drop { $0 == "/" }
        guard let server else { return methodPath }
        return server.hasSuffix("/") ? String(server.dropLast()) + methodPath : server + methodPath
    }

    /// Whether a method name has the form `package.Service/Method` (a service name, a slash, a
    /// method name; a leading slash allowed).
    package static func isMethodName(_ text: String) -> Bool {
        let trimmed = text.hasPrefix("/") ? text.dropFirst() : Substring(text)
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_."))
        return parts.allSatisfy { $0.unicodeScalars.allSatisfy { allowed.contains($0) && $0.isASCII } }
    }
}

/// Where a collection's gRPC schema is read from when the server has no reflection service:
/// `protoset:` (a descriptor set, as `protoc --descriptor_set_out --include_imports` writes it)
/// and `protos:` (`.proto` files compiled with protoc). Paths are relative to the collection.
package struct GRPCSchemaFiles: Sendable, Codable, Hashable {
    /// The descriptor set file.
    package var descriptorSet: String?
    /// The `.proto` files.
    package var protoFiles: [String] = []
    /// Where protoc looks for the files those import (`-I`).
    package var importPaths: [String] = []

    /// Creates a description of the schema files.
    package init(descriptorSet: String? = nil, protoFiles: [String] = [], importPaths: [String] = []) {
        self.descriptorSet = descriptorSet
        self.protoFiles = protoFiles
        self.importPaths = importPaths
    }

    /// Whether it names no file.
    package var isEmpty: Bool { descriptorSet == nil && protoFiles.isEmpty }

    /// Every file it names (the import paths are folders: what protoc reads in them is what the
    /// files import).
    package var files: [String] { (descriptorSet.map { [$0] } ?? []) + protoFiles }
}

extension Endpoint {
    /// Whether the endpoint is a gRPC call.
    package var isGRPC: Bool { grpc != nil }

    /// Whether a URL's scheme is grpc or grpcs.
    package static func isGRPCURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("grpc://") || lowered.hasPrefix("grpcs://")
    }

    /// An endpoint on the environment's own server that no collection has: what resolves the
    /// server, its metadata and `tls:` when the schema is asked of it (`explorer grpc list`,
    /// `Ctrl-N` in the TUI) rather than one of the collection's calls.
    package static let serverReflection: Endpoint = {
        let settings = GRPCSettings(method: "grpc.reflection.v1.ServerReflection/ServerReflectionInfo")
        var endpoint = Endpoint(name: "(server reflection)", method: .post, path: settings.path)
        endpoint.grpc = settings
        return endpoint
    }()
}
