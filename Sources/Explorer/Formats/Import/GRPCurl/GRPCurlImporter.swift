import Foundation
import NetworkingCore
import Workspace

/// Imports grpcurl command lines (github.com/fullstorydev/grpcurl) into a collection: one gRPC
/// endpoint per call, and one environment whose `base_url` is the first call's server.
///
/// The command line is read as grpcurl's Go `flag` package reads it: `-flag` or `--flag`,
/// `-flag=value` or `-flag value` (a boolean flag takes only `=value`), flags before the first
/// other word, which is the address (`host:port`), then the method (`pkg.Service/Method` or
/// `pkg.Service.Method`). `-plaintext` gives `grpc://`, TLS `grpcs://` with `-insecure`,
/// `-cacert`, `-cert` and `-key` as the environment's `tls:`; `-H` and `-rpc-header` give the
/// metadata (credentials such as `authorization` go into a secret variable); `-d` gives the
/// messages (`-d @` reads a heredoc or here-string when the pasted text has one); `-protoset`,
/// `-proto` and `-import-path` give the collection's `protoset:` and `protos:`. `list` and
/// `describe` are not calls and are refused. Flags that do not change the call are ignored
/// and listed; flags a collection does not keep, and unknown flags, are warned about.
package struct GRPCurlImporter: Sendable {
    /// Where relative files (`-cacert`, `-protoset`, `-proto` …) are found.
    var baseDirectory: URL

    /// Creates an importer reading relative paths from a directory (the working one by default).
    package init(baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.baseDirectory = baseDirectory
    }

    /// The call one grpcurl command line describes.
    struct Command: Sendable, Hashable {
        /// The server, `grpc://host:port` or `grpcs://host:port`.
        var server: String
        /// `package.Service/Method`.
        var method: String
        /// The metadata of `-H` and `-rpc-header`, names lower-cased as grpcurl sends them.
        var metadata: [KeyValue] = []
        /// The request messages of `-d`; `nil` without one (grpcurl sends an empty message).
        var messages: [JSONValue]?
        /// `-insecure`, `-cacert`, `-cert`, `-key` (files made absolute) on a TLS call.
        var tls: TLSSettings?
        /// The schema files of `-protoset`, `-proto` and `-import-path` (made absolute).
        var schema = GRPCSchemaFiles()
        /// What the user should know.
        var warnings: [String] = []
    }

    /// How a grpcurl flag takes its value.
    enum FlagKind: Sendable {
        /// `-flag` or `-flag=true|false`.
        case boolean
        /// `-flag value` or `-flag=value`.
        case value
    }

    /// grpcurl's flags (its `-help`), with how each takes its value.
    static let flags: [String: FlagKind] = [
        "plaintext": .boolean, "insecure": .boolean, "alts": .boolean, "expand-headers": .boolean,
        "allow-unknown-fields": .boolean, "format-error": .boolean, "emit-defaults": .boolean,
        "msg-template": .boolean, "v": .boolean, "vv": .boolean, "help": .boolean, "version": .boolean,
        "unix": .boolean, "use-reflection": .boolean,
        "cacert": .value, "cert": .value, "key": .value, "alts-handshaker-service": .value,
        "alts-target-service-account": .value, "authority": .value, "user-agent": .value, "d": .value,
        "format": .value, "connect-timeout": .value, "keepalive-time": .value, "max-time": .value,
        "max-msg-sz": .value, "protoset-out": .value, "proto-out-dir": .value, "servername": .value, "H": .value,
        "rpc-header": .value, "reflect-header": .value, "protoset": .value, "proto": .value, "import-path": .value,
    ]

    /// Flags that change what grpcurl prints or how long it waits, not the call: ignored.
    static let outputOnly: Set<String> = [
        "v", "vv", "format-error", "emit-defaults", "msg-template", "connect-timeout", "keepalive-time",
        "allow-unknown-fields", "use-reflection", "protoset-out", "proto-out-dir", "help", "version",
    ]

    /// Metadata names whose values are credentials: kept in a secret variable, never in clear.
    static let credentialNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "x-api-key", "api-key", "apikey", "x-auth-token",
    ]

    // MARK: - Parsing

    /// Parses every grpcurl command of a pasted text, in order; other commands are skipped
    /// with a warning on the next call.
    ///
    /// - Throws: `GRPCurlImportError` (no grpcurl command, a `list` or `describe` verb, a
    ///   missing address or method, a flag without its value, messages that are not JSON).
    func parseAll(_ text: String) throws -> [Command] {
        let commands: [ShellWords.Command]
        do {
            commands = try ShellWords.commands(text)
        } catch {
            throw GRPCurlImportError(error.description)
        }
        var calls: [Command] = []
        var skipped: [String] = []
        for command in commands {
            guard let words = Self.grpcurlArguments(command.words) else {
                if let program = command.words.first { skipped.append(program) }
                continue
            }
            var call = try parse(words, standardInput: command.standardInput)
            if !skipped.isEmpty {
                call.warnings.insert(
                    "Commands that are not grpcurl were skipped: \(skipped.joined(separator: ", ")).", at: 0)
                skipped = []
            }
            call.warnings += command.notes
            calls.append(call)
        }
        guard !calls.isEmpty else {
            throw GRPCurlImportError(
                commands.isEmpty
                    ? "it has no command." : "it has no grpcurl command (found \(skipped.joined(separator: ", "))).")
        }
        return calls
    }

    /// The words after the program when a command runs grpcurl (a pasted prompt, `sudo`,
    /// and `docker run … fullstorydev/grpcurl` in front allowed); `nil` for another program.
    static func grpcurlArguments(_ words: [String]) -> [String]? {
        var words = words[...]
        while let first = words.first, ["$", "%", "#", ">", "sudo", "time", "command", "exec"].contains(first) {
            words = words.dropFirst()
        }
        guard let program = words.first else { return nil }
        if program == "grpcurl" || program.hasSuffix("/grpcurl") || program == "grpcurl.exe" {
            return Array(words.dropFirst())
        }
        // `docker run [options] fullstorydev/grpcurl[:tag] …`, as grpcurl's README runs it.
        if program == "docker", words.dropFirst().first == "run",
            let image = words.firstIndex(where: { $0.split(separator: ":").first?.hasSuffix("/grpcurl") == true })
        {
            return Array(words[(image + 1)...])
        }
        return nil
    }

    /// Reads the words after `grpcurl`.
    private func parse(_ words: [String], standardInput: ShellWords.StandardInput?) throws -> Command {
        var booleans: [String: Bool] = [:]
        var values: [String: [String]] = [:]
        var unknown: [String] = []
        var positionals: [String] = []
        var valueOfUnknown: String?
        var headers: [String] = []
        var index = 0
        // Go's flag package: flags until the first word that is not one, or `--`.
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" { break }
            guard word.hasPrefix("-"), word != "-" else {
                index -= 1
                break
            }
            let body = word.hasPrefix("--") ? word.dropFirst(2) : word.dropFirst()
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            switch Self.flags[name] {
            case .boolean?:
                guard let inline else {
                    booleans[name] = true
                    continue
                }
                guard let value = Self.goBool(inline) else {
                    throw GRPCurlImportError("-\(name)=\(inline) is not a boolean (grpcurl refuses it too).")
                }
                booleans[name] = value
            case .value?:
                let value: String
                if let inline {
                    value = inline
                } else if index < words.count {
                    value = words[index]
                    index += 1
                } else {
                    throw GRPCurlImportError("-\(name) needs a value (grpcurl refuses it too).")
                }
                values[name, default: []].append(value)
                if name == "H" || name == "rpc-header" { headers.append(value) }
            case nil:
                unknown.append("-" + name)
                // Its arity is not known: the next word is taken as its value below only
                // when the call would otherwise have a word too many.
                if inline == nil, index < words.count, !words[index].hasPrefix("-") { valueOfUnknown = words[index] }
            }
        }
        positionals = Array(words[index...])
        var warnings: [String] = []
        if !unknown.isEmpty {
            warnings.append(
                "grpcurl has no flag \(unknown.joined(separator: ", ")) (as of its 1.9 -help); "
                    + "it is not imported, the rest is.")
            if positionals.count == 3, let value = valueOfUnknown, positionals.first == value {
                positionals.removeFirst()
                warnings.append("\"\(value)\" after \(unknown.last ?? "it") was taken for its value.")
            }
        }
        if positionals.contains("list") || positionals.contains("describe") {
            let verb = positionals.contains("list") ? "list" : "describe"
            throw GRPCurlImportError(
                "grpcurl … \(verb) \(verb == "list" ? "lists services or methods" : "describes a symbol"), "
                    + "which is not a call, so there is no endpoint to import; "
                    + "explorer grpc \(verb) does the same against a collection's server.")
        }
        guard positionals.count >= 2 else {
            throw GRPCurlImportError(
                positionals.isEmpty
                    ? "it has no address and no method (grpcurl HOST:PORT package.Service/Method)."
                    : "it names \(positionals[0]) but not both an address and a method "
                        + "(grpcurl HOST:PORT package.Service/Method).")
        }
        guard positionals.count == 2 else {
            throw GRPCurlImportError(
                "it has words after the method (\(positionals.dropFirst(2).joined(separator: " "))); "
                    + "grpcurl takes its flags before the address and refuses these too.")
        }
        if booleans["unix"] == true {
            throw GRPCurlImportError(
                "-unix calls a server on a Unix socket (\(positionals[0])), which a collection cannot name.")
        }
        guard let method = Self.methodName(positionals[1]) else {
            throw GRPCurlImportError(
                "\(positionals[1]) is not a method (package.Service/Method or package.Service.Method).")
        }
        let plaintext = booleans["plaintext"] ?? false
        var command = Command(server: try Self.server(positionals[0], plaintext: plaintext), method: method)
        command.warnings = warnings
        try readTLS(into: &command, booleans: booleans, values: values, plaintext: plaintext)
        readMetadata(
            headers, into: &command, reflection: values["reflect-header"] ?? [],
            expands: booleans["expand-headers"] ?? false)
        try readMessages(into: &command, values: values, standardInput: standardInput)
        readSchema(into: &command, values: values)
        noteOtherFlags(into: &command, booleans: booleans, values: values)
        return command
    }

    /// Go's `strconv.ParseBool`.
    private static func goBool(_ text: String) -> Bool? {
        switch text {
        case "1", "t", "T", "true", "TRUE", "True": true
        case "0", "f", "F", "false", "FALSE", "False": false
        default: nil
        }
    }

    /// `pkg.Service/Method`, also from grpcurl's `pkg.Service.Method`; `nil` when it is neither.
    static func methodName(_ text: String) -> String? {
        var name = text.hasPrefix("/") ? String(text.dropFirst()) : text
        if !name.contains("/"), let dot = name.lastIndex(of: ".") {
            name.replaceSubrange(dot...dot, with: "/")
        }
        return GRPCSettings.isMethodName(name) ? name : nil
    }

    /// The server URL of grpcurl's address; a missing port is 443, as grpc-go dials it.
    private static func server(_ address: String, plaintext: Bool) throws -> String {
        var host = address
        for prefix in ["dns:///", "passthrough:///"] where host.hasPrefix(prefix) { host.removeFirst(prefix.count) }
        if Endpoint.isGRPCURL(host) || host.contains("://") || host.contains("/") || host.isEmpty {
            throw GRPCurlImportError("\(address) is not an address as grpcurl takes it (host:port).")
        }
        let hasPort =
            host.hasSuffix("}}") || (host.hasPrefix("[") ? host.contains("]:") : host.contains(":"))
        return (plaintext ? "grpc://" : "grpcs://") + host + (hasPort ? "" : ":443")
    }

    /// The `tls:` of a TLS call, refusing what grpcurl refuses.
    private func readTLS(
        into command: inout Command, booleans: [String: Bool], values: [String: [String]], plaintext: Bool
    ) throws {
        let insecure = booleans["insecure"] ?? false
        let cacert = values["cacert"]?.last
        let cert = values["cert"]?.last
        let key = values["key"]?.last
        if plaintext {
            for (name, given) in [("insecure", insecure), ("cert", cert != nil), ("key", key != nil)] where given {
                throw GRPCurlImportError("the -\(name) argument can only be used with TLS (grpcurl refuses it too).")
            }
            if cacert != nil { command.warnings.append("-cacert is not used with -plaintext; it was left out.") }
            return
        }
        if (cert == nil) != (key == nil) {
            throw GRPCurlImportError(
                "the -cert and -key arguments must be used together and both be present (grpcurl refuses it too).")
        }
        guard insecure || cacert != nil || cert != nil else { return }
        var tls = TLSSettings()
        tls.insecure = insecure
        tls.caCertificateFile = cacert.map(absolutePath)
        tls.clientCertificateFile = cert.map(absolutePath)
        tls.clientKeyFile = key.map(absolutePath)
        command.tls = tls
        for file in [cacert, cert, key].compactMap({ $0 })
        where !Template.containsVariables(file) && !FileManager.default.fileExists(atPath: absolutePath(file)) {
            command.warnings.append("\(absolutePath(file)) does not exist; the call fails until it does.")
        }
    }

    /// The metadata of `-H` and `-rpc-header`, in order, as grpcurl splits a header: the name
    /// before the first `:`, lower-cased, the value after it, both trimmed.
    private func readMetadata(_ headers: [String], into command: inout Command, reflection: [String], expands: Bool) {
        for header in headers {
            let parts = header.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            var value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            if expands { value = Self.expandingVariables(value) }
            command.metadata.append(KeyValue(name, value))
        }
        if !reflection.isEmpty {
            command.warnings.append(
                "-reflect-header \(reflection.map { $0.prefix { $0 != ":" } }.joined(separator: ", ")) "
                    + "is sent only to grpcurl's reflection requests; it was left out "
                    + "(a collection's reflection requests carry the endpoint's metadata).")
        }
    }

    /// `${NAME}` as `{{env.NAME}}`: what `-expand-headers` reads from the environment.
    static func expandingVariables(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${"), let close = rest[open.upperBound...].firstIndex(of: "}") {
            let name = rest[open.upperBound..<close]
            out += rest[..<open.lowerBound]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                out += "{{env.\(name)}}"
            } else {
                out += rest[open.lowerBound...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The messages of `-d`: JSON objects one after another; `@` reads the pasted heredoc or
    /// here-string, and is warned about without one.
    private func readMessages(
        into command: inout Command, values: [String: [String]], standardInput: ShellWords.StandardInput?
    ) throws {
        guard let data = values["d"]?.last, !data.isEmpty else { return }
        if values["format"]?.last == "text" {
            command.warnings.append(
                "-format text messages (protobuf text format) cannot be imported; the endpoint sends an empty "
                    + "message: write it in JSON under message:.")
            return
        }
        var text = data
        if data == "@" {
            guard case .text(let input) = standardInput else {
                command.warnings.append(
                    "-d @ reads the messages from grpcurl's standard input, which the command line does not hold, "
                        + "so they cannot be imported; the endpoint sends an empty message until you write one.")
                return
            }
            text = input
        }
        do {
            command.messages = try Self.messages(in: text)
        } catch {
            throw GRPCurlImportError("-d: \(error)")
        }
    }

    /// The JSON objects of a text, one after another (grpcurl's `-d` stream).
    ///
    /// - Throws: `GRPCurlImportError` for text that is not JSON objects.
    static func messages(in text: String) throws -> [JSONValue] {
        var messages: [JSONValue] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start: String.Index?
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
                continue
            }
            switch character {
            case "\"" where depth > 0:
                inString = true
            case "{", "[":
                if depth == 0 {
                    guard character == "{" else {
                        throw GRPCurlImportError("message \(messages.count + 1) is not an object")
                    }
                    start = index
                }
                depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0, let first = start {
                    let slice = String(text[first...index])
                    do {
                        messages.append(try JSONValue(parsing: slice))
                    } catch {
                        throw GRPCurlImportError("message \(messages.count + 1) is not JSON: \(error)")
                    }
                    start = nil
                }
            case _ where depth == 0 && !character.isWhitespace:
                throw GRPCurlImportError("message \(messages.count + 1) is not a JSON object")
            default:
                break
            }
        }
        guard depth == 0 else { throw GRPCurlImportError("message \(messages.count + 1) is not closed") }
        return messages
    }

    /// `-protoset`, `-proto` and `-import-path`: a `-proto` file is found in the import
    /// paths, as grpcurl finds it, else in the working directory.
    private func readSchema(into command: inout Command, values: [String: [String]]) {
        let importPaths = (values["import-path"] ?? []).map(absolutePath)
        let sets = values["protoset"] ?? []
        command.schema.descriptorSet = sets.first.map(absolutePath)
        if sets.count > 1 {
            command.warnings.append(
                "a collection reads one protoset: \(sets.dropFirst().joined(separator: ", ")) "
                    + "\(sets.count == 2 ? "was" : "were") left out; merge them with protoc into one.")
        }
        command.schema.importPaths = importPaths
        command.schema.protoFiles = (values["proto"] ?? []).map { file in
            guard !file.hasPrefix("/"), !importPaths.isEmpty else { return absolutePath(file) }
            let candidates = importPaths.map { URL(fileURLWithPath: $0).appendingPathComponent(file).path }
            return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[0]
        }
        if command.schema.descriptorSet != nil, !command.schema.protoFiles.isEmpty {
            command.warnings.append("grpcurl refuses -protoset and -proto together; both were imported.")
        }
    }

    /// Warnings for the flags a collection does not keep, and one line for those ignored.
    private func noteOtherFlags(into command: inout Command, booleans: [String: Bool], values: [String: [String]]) {
        let notKept: [(flag: String, advice: String)] = [
            ("authority", "explorer send --authority gives it"), ("servername", "explorer send --authority gives it"),
            ("max-time", "explorer send --max-time gives it"),
            ("max-msg-sz", "explorer send --max-message-size gives it"),
            ("user-agent", "add a user-agent metadata entry if the server needs it"),
            ("alts", "ALTS is not supported"), ("alts-handshaker-service", "ALTS is not supported"),
            ("alts-target-service-account", "ALTS is not supported"),
        ]
        for (flag, advice) in notKept where values[flag] != nil || booleans[flag] == true {
            let value = values[flag]?.last.map { " \($0)" } ?? ""
            command.warnings.append("-\(flag)\(value) is not kept in a collection (\(advice)).")
        }
        let ignored =
            Self.outputOnly.filter { values[$0] != nil || booleans[$0] != nil }.sorted()
            + (values["format"] != nil && values["d"] == nil ? ["format"] : [])
        if !ignored.isEmpty {
            command.warnings.append(
                "Ignored (they change what grpcurl prints or waits, not the call): "
                    + ignored.map { "-" + $0 }.joined(separator: ", ") + ".")
        }
    }

    // MARK: - Importing

    /// Imports grpcurl command lines as a collection with one environment and one gRPC
    /// endpoint per call.
    ///
    /// The first call's server is the `default` environment's `base_url` (with its `tls:`); a
    /// call to another server keeps it as its `server:`. Credentials in the metadata go into
    /// secret variables of the environment.
    /// - Parameter name: the name of the (first) endpoint; `Service/Method` when `nil`.
    /// - Throws: what `parseAll` throws.
    package func importCommand(_ text: String, name: String? = nil) throws -> ImportResult {
        let commands = try parseAll(text)
        var warnings: [String] = []
        var items: [CollectionItem] = []
        var usedNames: Set<String> = []
        var variables: [KeyValue] = []
        let baseURL = commands[0].server
        for (number, command) in commands.enumerated() {
            let prefix = commands.count > 1 ? "\(command.method): " : ""
            warnings += command.warnings.map { prefix + $0 }
            var settings = GRPCSettings(
                method: command.method, server: command.server == baseURL ? nil : command.server,
                messages: command.messages ?? [.object([])], writtenAsList: (command.messages?.count ?? 1) != 1)
            if settings.messages.isEmpty { settings.messages = [.object([])] }
            let metadata = command.metadata.map { Self.keepingSecret($0, in: &variables) }
            let shortName = command.method.split(separator: ".").last.map(String.init) ?? command.method
            var endpoint = Endpoint(
                name: Self.unusedName((number == 0 ? name : nil) ?? shortName, in: &usedNames),
                method: .post, path: settings.path, headers: metadata)
            endpoint.grpc = settings
            items.append(.endpoint(endpoint))
        }
        let tls = commands.compactMap(\.tls).first
        if Set(commands.map(\.tls)).count > 1 {
            warnings.append("The calls use different TLS flags; the environment keeps the first ones given.")
        }
        let schemas = Set(commands.map(\.schema).filter { !$0.isEmpty })
        if schemas.count > 1 {
            warnings.append("The calls name different schema files; the collection keeps the first ones given.")
        }
        let environment = Environment(
            name: "default", baseURLTemplate: baseURL, variables: variables, secrets: variables.map(\.name), tls: tls)
        var collection = APICollection(name: "Imported from grpcurl", environments: [environment], items: items)
        collection.grpcSchema = commands.map(\.schema).first { !$0.isEmpty } ?? GRPCSchemaFiles()
        return ImportResult(collection: collection, warnings: warnings)
    }

    /// A metadata entry with a credential's value moved into a secret variable (one per
    /// distinct value): `authorization: Bearer {{token}}`, `x-api-key: {{x_api_key}}`. A value
    /// that is a template already stays as it is.
    static func keepingSecret(_ entry: KeyValue, in variables: inout [KeyValue]) -> KeyValue {
        let name = entry.name.lowercased()
        let isCredential =
            credentialNames.contains(name)
            || ["token", "secret", "password", "api-key", "apikey"].contains {
                name.contains($0)
            }
        guard isCredential, !entry.value.isEmpty, !Template.containsVariables(entry.value) else { return entry }
        var scheme = ""
        var secret = entry.value
        var variable = name.map { $0.isLetter || $0.isNumber ? $0 : "_" }.map(String.init).joined()
        if name == "authorization" || name == "proxy-authorization", let space = entry.value.firstIndex(of: " ") {
            scheme = String(entry.value[...space])
            secret = String(entry.value[entry.value.index(after: space)...]).trimmingCharacters(in: .whitespaces)
            variable = scheme.lowercased().hasPrefix("bearer") ? "token" : variable
        }
        if let existing = variables.first(where: { $0.value == secret }) {
            return KeyValue(entry.name, scheme + "{{\(existing.name)}}")
        }
        var candidate = variable
        var suffix = 2
        while variables.contains(where: { $0.name == candidate }) {
            candidate = "\(variable)_\(suffix)"
            suffix += 1
        }
        variables.append(KeyValue(candidate, secret))
        return KeyValue(entry.name, scheme + "{{\(candidate)}}")
    }

    /// `name`, or `name (2)`, `name (3)` … when an endpoint already has it.
    private static func unusedName(_ name: String, in usedNames: inout Set<String>) -> String {
        var candidate = name
        var suffix = 2
        while !usedNames.insert(candidate).inserted {
            candidate = "\(name) (\(suffix))"
            suffix += 1
        }
        return candidate
    }

    func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") || Template.containsVariables(path)
            ? path : baseDirectory.appendingPathComponent(path).standardizedFileURL.path
    }
}

/// Why a grpcurl command line cannot be imported.
struct GRPCurlImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, a sentence without its subject.
    let reason: String

    init(_ reason: String) { self.reason = reason }

    var description: String { "The grpcurl command cannot be imported: \(reason)" }
}
