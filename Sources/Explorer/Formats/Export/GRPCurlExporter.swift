import Foundation
import NetworkingCore
import Workspace

/// A resolved gRPC endpoint as a grpcurl command line (github.com/fullstorydev/grpcurl): what
/// `explorer export grpcurl` prints and what the TUI's `c` copies for a gRPC endpoint.
///
/// `-plaintext` for `grpc://`; `-insecure`, `-cacert`, `-cert` and `-key` from the
/// environment's `tls:` for `grpcs://`; `-H 'name: value'` per metadata entry (secrets masked
/// unless revealed); `-d` with the messages as compact JSON, one after another for a stream;
/// `-protoset` or `-import-path`/`-proto` when the collection names its schema files (absolute
/// paths, so the command runs from any folder); then `host:port` and `package.Service/Method`.
/// Every word is quoted for a POSIX shell. `GRPCurlImporter` reads it back to the same endpoint.
package enum GRPCurlExporter {
    /// Names the transport sets itself (`GRPCCallPlan` leaves them out too).
    static let transportNames: Set<String> = [
        "content-type", "te", "host", "grpc-timeout", "grpc-encoding", "connection",
    ]

    /// The grpcurl command for a resolved gRPC endpoint.
    ///
    /// - Parameters:
    ///   - resolved: the endpoint, resolved in its environment.
    ///   - schema: the collection's `protoset:` and `protos:`.
    ///   - collectionFile: the collection's file, where relative schema and TLS paths start.
    ///   - revealSecrets: writes secrets as they are when `true`; masks them otherwise.
    /// - Returns: the command line.
    /// - Throws: `GRPCurlExportError` when the endpoint is not a gRPC call or its server is not
    ///   a `grpc://` or `grpcs://` URL.
    package static func command(
        for resolved: ResolvedRequest, schema: GRPCSchemaFiles, collectionFile: URL?, revealSecrets: Bool = false
    ) throws -> String {
        guard let settings = resolved.endpoint.grpc else {
            throw GRPCurlExportError.notGRPC(endpoint: resolved.endpoint.id)
        }
        let url = revealSecrets ? resolved.url : resolved.maskedURL
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "grpc" || scheme == "grpcs", let host = components.host, !host.isEmpty
        else {
            throw GRPCurlExportError.notAGRPCServer(endpoint: resolved.endpoint.id, url: resolved.maskedURL)
        }
        var words = ["grpcurl"]
        if scheme == "grpc" {
            words.append("-plaintext")
        } else if let tls = resolved.environment.tlsSettings(collectionFile: collectionFile) {
            if tls.insecure { words.append("-insecure") }
            for (flag, file) in [
                ("-cacert", tls.caCertificateFile), ("-cert", tls.clientCertificateFile), ("-key", tls.clientKeyFile),
            ] {
                if let file { words += [flag, file] }
            }
        }
        let headers = revealSecrets ? resolved.request.headers : resolved.masked.headers
        for header in headers where !transportNames.contains(header.name.lowercased()) {
            words += ["-H", ExportText.line("\(header.name.lowercased()): \(header.value)")]
        }
        let messages = resolved.grpcMessages ?? settings.messages
        if messages != [.object([])] && !messages.isEmpty {
            let text = messages.map { $0.serialized() }.joined(separator: " ")
            words += ["-d", revealSecrets ? text : resolved.masker.mask(text)]
        }
        words += schemaFlags(schema, collectionFile: collectionFile)
        let hostText = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        words.append(hostText + ":" + String(components.port ?? (scheme == "grpc" ? 80 : 443)))
        words.append(settings.method)
        return words.map(quote).joined(separator: " ")
    }

    /// `-protoset FILE`, or `-import-path DIR … -proto FILE …`: each `.proto` file named
    /// relative to the import path it is in (its own folder is added when it is in none), as
    /// grpcurl looks them up.
    static func schemaFlags(_ schema: GRPCSchemaFiles, collectionFile: URL?) -> [String] {
        let folder =
            collectionFile?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        func absolute(_ path: String) -> String {
            let expanded = (path as NSString).expandingTildeInPath
            return expanded.hasPrefix("/")
                ? expanded : folder.appendingPathComponent(expanded).standardizedFileURL.path
        }
        var words: [String] = []
        if let set = schema.descriptorSet { words += ["-protoset", absolute(set)] }
        var importPaths = schema.importPaths.map(absolute)
        var names: [String] = []
        for file in schema.protoFiles.map(absolute) {
            if let path = importPaths.first(where: { file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) {
                names.append(String(file.dropFirst(path.hasSuffix("/") ? path.count : path.count + 1)))
            } else {
                let url = URL(fileURLWithPath: file)
                importPaths.append(url.deletingLastPathComponent().path)
                names.append(url.lastPathComponent)
            }
        }
        if !names.isEmpty {
            words += importPaths.flatMap { ["-import-path", $0] }
            words += names.flatMap { ["-proto", $0] }
        }
        return words
    }

    /// A word as a POSIX shell reads it back: as it is when it holds only safe characters,
    /// else single-quoted (`it's` → `'it'\''s'`).
    static func quote(_ word: String) -> String {
        let safe =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "-_./:=@%+,".unicodeScalars.contains(scalar))
            }
        return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Why an endpoint cannot be written as a grpcurl command.
package enum GRPCurlExportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// It is an HTTP endpoint.
    case notGRPC(endpoint: String)
    /// Its server is not `grpc://` or `grpcs://`.
    case notAGRPCServer(endpoint: String, url: String)

    package var description: String {
        switch self {
        case .notGRPC(let endpoint):
            "\(endpoint) is not a gRPC endpoint; explorer export curl gives it."
        case .notAGRPCServer(let endpoint, let url):
            "\(endpoint) is a gRPC call but goes to \(url): give its environment a base_url of grpc://host:port "
                + "(or grpcs:// for TLS), or the endpoint a server:."
        }
    }
}
