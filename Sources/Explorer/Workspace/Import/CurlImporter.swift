import Foundation
import Networking

/// Imports a curl command line, as people paste it from API docs, into a one-endpoint collection.
///
/// The URL's origin becomes the `default` environment's `base_url`; the path, query, method,
/// headers (with those curl's options imply: `-u` → `Authorization: Basic`, `-b` → `Cookie`,
/// `-A` → `User-Agent`, `-e` → `Referer`, `-d` → form `Content-Type`, `--json` → JSON
/// `Content-Type` and `Accept`) and body become the endpoint. Options that are not request
/// data (`-L`, `-k`, `--compressed`, `-s` ...) are accepted; unknown options are reported.
package struct CurlImporter: Sendable {
    /// Where `@file` arguments are read from.
    var baseDirectory: URL

    /// Creates an importer reading `@file` relative to a directory (the working one by default).
    package init(baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)) {
        self.baseDirectory = baseDirectory
    }

    /// The request a curl command line describes.
    struct Command: Sendable, Hashable {
        /// The method curl would send.
        var method: HTTPMethod
        /// The URL, with `-G` data appended to its query.
        var url: String
        /// The headers written and implied, in order.
        var headers: [KeyValue]
        /// The body, when there is one and it is not multipart.
        var body: String?
        /// The multipart parts of `-F`.
        var form: [MultipartField]
        /// Options accepted that are not request data, by long name (`location`, `insecure` ...).
        var options: Set<String>
        /// Unknown options and other things the user should know.
        var warnings: [String]
    }

    private enum DataKind { case ascii, raw, binary, urlencode, json }

    private static let flagsWithArgument: [String: String] = [
        "-X": "--request", "-H": "--header", "-d": "--data", "-u": "--user", "-F": "--form", "-b": "--cookie",
        "-A": "--user-agent", "-e": "--referer", "-o": "--output", "-D": "--dump-header", "-w": "--write-out",
        "-m": "--max-time", "-x": "--proxy", "-E": "--cert", "-c": "--cookie-jar", "-T": "--upload-file",
        "-r": "--range", "-U": "--proxy-user", "-K": "--config", "-C": "--continue-at", "-Y": "--speed-limit",
        "-y": "--speed-time", "-z": "--time-cond", "-P": "--ftp-port", "-Q": "--quote", "-t": "--telnet-option",
    ]
    private static let flagsWithoutArgument: [String: String] = [
        "-G": "--get", "-L": "--location", "-k": "--insecure", "-s": "--silent", "-S": "--show-error",
        "-v": "--verbose", "-i": "--include", "-I": "--head", "-f": "--fail", "-O": "--remote-name",
        "-N": "--no-buffer", "-g": "--globoff", "-#": "--progress-bar", "-n": "--netrc", "-q": "--disable",
        "-Z": "--parallel", "-j": "--junk-session-cookies", "-J": "--remote-header-name", "-R": "--remote-time",
        "-0": "--http1.0", "-1": "--tlsv1", "-2": "--sslv2", "-3": "--sslv3", "-4": "--ipv4", "-6": "--ipv6",
    ]
    private static let longWithArgument: Set<String> = [
        "--request", "--header", "--data", "--data-ascii", "--data-raw", "--data-binary", "--data-urlencode", "--json",
        "--user", "--form", "--form-string", "--cookie", "--user-agent", "--referer", "--url", "--output",
        "--dump-header", "--write-out", "--max-time", "--connect-timeout", "--proxy", "--cert", "--key", "--cacert",
        "--cookie-jar", "--retry", "--retry-delay", "--retry-max-time", "--max-redirs", "--resolve", "--oauth2-bearer",
        "--upload-file", "--range", "--proxy-user", "--config", "--limit-rate", "--interface", "--unix-socket",
        "--aws-sigv4", "--expect100-timeout", "--keepalive-time", "--local-port", "--max-filesize", "--connect-to",
        "--request-target", "--url-query", "--variable", "--trace", "--trace-ascii", "--stderr",
    ]
    /// Options that change what is sent in ways a collection does not keep: reported.
    private static let notKept: Set<String> = [
        "--proxy", "--cert", "--key", "--cacert", "--cookie-jar", "--resolve", "--upload-file", "--range",
        "--proxy-user", "--config", "--interface", "--unix-socket", "--aws-sigv4", "--connect-to",
        "--request-target", "--variable", "--netrc", "--remote-name", "--output", "--parallel",
    ]

    /// Parses a curl command line into the request it describes.
    ///
    /// - Throws: `ImportError.invalidCurl` (no URL, unclosed quote, missing option argument)
    ///   or `ImportError.unreadableFile` for an unreadable `@file`.
    func parse(_ commandLine: String) throws -> Command {
        var words: [String]
        do {
            words = try ShellWords.split(commandLine)
        } catch {
            throw ImportError.invalidCurl(error.description)
        }
        // A pasted prompt, and the program name itself.
        if words.first == "$" { words.removeFirst() }
        if let first = words.first, first == "curl" || first.hasSuffix("/curl") { words.removeFirst() }
        guard !words.isEmpty else { throw ImportError.invalidCurl("it has no URL.") }

        var explicitMethod: String?
        var url: String?
        var headers: [KeyValue] = []
        var data: [(kind: DataKind, value: String)] = []
        var form: [MultipartField] = []
        var options: Set<String> = []
        var warnings: [String] = []
        var user: String?
        var getMode = false
        var head = false
        var extraQuery: [String] = []

        // Expand short-option clusters (-sSL, -XPOST, -d'x') into (option, argument) pairs.
        var index = 0
        func argument(for option: String, attached: String?) throws -> String {
            if let attached, !attached.isEmpty { return attached }
            guard index < words.count else { throw ImportError.invalidCurl("the option \(option) needs a value.") }
            defer { index += 1 }
            return words[index]
        }
        while index < words.count {
            let word = words[index]
            index += 1
            var pairs: [(option: String, value: String?)] = []
            if word.hasPrefix("--") && word.count > 2 {
                var name = word
                var attached: String?
                if let equals = word.firstIndex(of: "="), CurlImporter.longWithArgument.contains(String(word[..<equals])) {
                    name = String(word[..<equals])
                    attached = String(word[word.index(after: equals)...])
                }
                if CurlImporter.longWithArgument.contains(name) {
                    pairs.append((name, try argument(for: name, attached: attached)))
                } else {
                    pairs.append((name, nil))
                }
            } else if word.hasPrefix("-") && word.count > 1 {
                var chars = Substring(word.dropFirst())
                while let c = chars.first {
                    let short = "-" + String(c)
                    chars = chars.dropFirst()
                    if let long = CurlImporter.flagsWithArgument[short] {
                        pairs.append((long, try argument(for: short, attached: String(chars))))
                        break
                    } else if let long = CurlImporter.flagsWithoutArgument[short] {
                        pairs.append((long, nil))
                    } else {
                        warnings.append("The curl option \(short) is not known to explorer and was ignored.")
                    }
                }
            } else {
                if url == nil { url = word } else { warnings.append("Only one URL is imported; \(word) was ignored.") }
                continue
            }

            for (option, value) in pairs {
                let value = value ?? ""
                switch option {
                case "--request": explicitMethod = value
                case "--header":
                    if let colon = value.firstIndex(of: ":") {
                        let name = value[..<colon].trimmingCharacters(in: .whitespaces)
                        let headerValue = value[value.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                        if headerValue.isEmpty {
                            headers.removeAll { $0.name.lowercased() == name.lowercased() }  // "Name:" removes it
                        } else {
                            headers.append(KeyValue(name, headerValue))
                        }
                    } else if value.hasSuffix(";") {
                        headers.append(KeyValue(String(value.dropLast()).trimmingCharacters(in: .whitespaces), ""))
                    } else if value.hasPrefix("@") {
                        warnings.append("Headers read from a file (-H \(value)) are not imported.")
                    } else {
                        warnings.append("The header \"\(value)\" has no colon and was ignored.")
                    }
                case "--data", "--data-ascii": data.append((.ascii, value))
                case "--data-raw": data.append((.raw, value))
                case "--data-binary": data.append((.binary, value))
                case "--data-urlencode": data.append((.urlencode, value))
                case "--json": data.append((.json, value))
                case "--get": getMode = true
                case "--head": head = true
                case "--user": user = value
                case "--oauth2-bearer": headers.append(KeyValue("Authorization", "Bearer \(value)"))
                case "--form", "--form-string":
                    guard let equals = value.firstIndex(of: "=") else {
                        throw ImportError.invalidCurl("the form field \"\(value)\" has no '='.")
                    }
                    let name = String(value[..<equals])
                    var fieldValue = String(value[value.index(after: equals)...])
                    if option == "--form", fieldValue.hasPrefix("@") || fieldValue.hasPrefix("<") {
                        let isFile = fieldValue.hasPrefix("@")
                        fieldValue.removeFirst()
                        if let semicolon = fieldValue.firstIndex(of: ";") { fieldValue = String(fieldValue[..<semicolon]) }
                        if isFile {
                            form.append(MultipartField(name: name, value: fieldValue, isFile: true))
                        } else {
                            form.append(MultipartField(name: name, value: try readFile(fieldValue)))
                        }
                    } else {
                        form.append(MultipartField(name: name, value: fieldValue))
                    }
                case "--cookie":
                    if value.contains("=") {
                        headers.append(KeyValue("Cookie", value))
                    } else {
                        warnings.append("Cookies read from the file \(value) are not imported.")
                    }
                case "--user-agent": headers.append(KeyValue("User-Agent", value))
                case "--referer": headers.append(KeyValue("Referer", value.replacingOccurrences(of: ";auto", with: "")))
                case "--url": if url == nil { url = value } else { warnings.append("Only one URL is imported; \(value) was ignored.") }
                case "--url-query": extraQuery.append(value)
                case "--location", "--location-trusted": options.insert("location")
                case "--insecure": options.insert("insecure")
                case "--compressed": options.insert("compressed")
                case "--silent": options.insert("silent")
                case "--dump-header": options.insert("dump_header")
                case "--show-error", "--verbose", "--include", "--fail", "--fail-with-body", "--no-buffer", "--globoff",
                     "--progress-bar", "--write-out", "--max-time", "--connect-timeout", "--retry", "--retry-delay",
                     "--retry-max-time", "--max-redirs", "--http1.0", "--http1.1", "--http2", "--http2-prior-knowledge",
                     "--http3", "--ipv4", "--ipv6", "--tlsv1", "--tlsv1.2", "--tlsv1.3", "--limit-rate", "--keepalive-time",
                     "--no-keepalive", "--tcp-nodelay", "--path-as-is", "--disable", "--trace", "--trace-ascii", "--stderr",
                     "--create-dirs", "--remote-header-name", "--remote-time", "--junk-session-cookies", "--expect100-timeout",
                     "--local-port", "--max-filesize", "--no-progress-meter", "--raw", "--tr-encoding", "--digest", "--basic",
                     "--anyauth", "--ntlm", "--negotiate", "--no-sessionid", "--ssl", "--ssl-reqd", "--styled-output":
                    break
                default:
                    if CurlImporter.notKept.contains(option) {
                        warnings.append("The curl option \(option) is not kept in a collection and was ignored.")
                    } else {
                        warnings.append("The curl option \(option) is not known to explorer and was ignored.")
                    }
                }
            }
        }
        guard var url else { throw ImportError.invalidCurl("it has no URL.") }

        // The body, joined as curl joins several -d (with '&'; --json pieces are concatenated).
        var pieces: [String] = []
        var jsonBody = false
        for item in data {
            switch item.kind {
            case .ascii:
                pieces.append(item.value.hasPrefix("@")
                    ? try readFile(String(item.value.dropFirst())).replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
                    : item.value)
            case .raw:
                pieces.append(item.value)
            case .binary:
                pieces.append(item.value.hasPrefix("@") ? try readFile(String(item.value.dropFirst())) : item.value)
            case .json:
                jsonBody = true
                let text = item.value.hasPrefix("@") ? try readFile(String(item.value.dropFirst())) : item.value
                if let last = pieces.last, data.count > 1 { pieces[pieces.count - 1] = last + text } else { pieces.append(text) }
            case .urlencode:
                pieces.append(try urlencodeData(item.value))
            }
        }
        let bodyText: String? = pieces.isEmpty ? nil : pieces.joined(separator: jsonBody ? "" : "&")

        if let user {
            var credentials = user
            if !credentials.contains(":") {
                credentials += ":"
                warnings.append("curl would ask for the password of \(user); the imported Authorization has an empty one.")
            }
            headers.insert(KeyValue("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()), at: 0)
        }

        func hasHeader(_ name: String) -> Bool { headers.contains { $0.name.lowercased() == name.lowercased() } }
        var body: String?
        if getMode {
            if let bodyText { extraQuery.append(bodyText) }
        } else if let bodyText {
            body = bodyText
            if jsonBody {
                if !hasHeader("Content-Type") { headers.append(KeyValue("Content-Type", "application/json")) }
                if !hasHeader("Accept") { headers.append(KeyValue("Accept", "application/json")) }
            } else if !hasHeader("Content-Type") {
                headers.append(KeyValue("Content-Type", "application/x-www-form-urlencoded"))
            }
        }
        if !form.isEmpty && body != nil {
            throw ImportError.invalidCurl("it mixes -F with -d; curl refuses that too.")
        }
        if !form.isEmpty && !hasHeader("Content-Type") {
            headers.append(KeyValue("Content-Type", "multipart/form-data"))
        }
        if !extraQuery.isEmpty {
            url += (url.contains("?") ? "&" : "?") + extraQuery.joined(separator: "&")
        }

        let method: String
        if let explicitMethod {
            method = explicitMethod
        } else if head {
            method = "HEAD"
        } else if getMode {
            method = "GET"
        } else if body != nil || !form.isEmpty {
            method = "POST"
        } else {
            method = "GET"
        }
        return Command(method: HTTPMethod(rawValue: method), url: url, headers: headers, body: body, form: form,
                       options: options, warnings: warnings)
    }

    /// Imports a curl command line as a collection with one environment and one endpoint.
    ///
    /// - Parameter name: the endpoint's name; `METHOD /path` when `nil`.
    /// - Throws: what `parse` throws.
    package func importCommand(_ commandLine: String, name: String? = nil) throws -> ImportResult {
        let command = try parse(commandLine)
        let parts = URLParts(command.url)
        var body: EndpointBody?
        if !command.form.isEmpty {
            body = .multipart(command.form.map { field in
                guard field.isFile else { return field }
                let path = field.value.hasPrefix("/") ? field.value : baseDirectory.appendingPathComponent(field.value).path
                return MultipartField(name: field.name, value: path, isFile: true)
            })
        } else if let text = command.body {
            body = .raw(text)
        }
        let pathName = parts.path.split(separator: "?").first.map(String.init) ?? parts.path
        let endpoint = Endpoint(
            name: name ?? "\(command.method.rawValue) \(pathName)",
            method: command.method,
            path: parts.path,
            query: parts.query,
            headers: command.form.isEmpty ? command.headers : command.headers.filter {
                // multipart's Content-Type is written with its boundary at send time.
                !($0.name.lowercased() == "content-type" && $0.value.lowercased().hasPrefix("multipart/form-data"))
            },
            body: body
        )
        let environment = Environment(name: "default", baseURLTemplate: parts.origin)
        var warnings = command.warnings
        if !parts.hasUsableOrigin {
            warnings.append("\(parts.origin) is not an absolute http(s) URL yet; edit the environment's base_url before sending.")
        }
        if command.options.contains("insecure") {
            warnings.append("-k (skip TLS verification) is not kept in the collection.")
        }
        let collection = APICollection(name: "Imported from curl", environments: [environment], items: [.endpoint(endpoint)])
        return ImportResult(collection: collection, warnings: warnings)
    }

    private func readFile(_ path: String) throws -> String {
        if path == "-" { throw ImportError.invalidCurl("reading data from stdin (@-) is not supported when importing.") }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else { throw ImportError.unreadableFile(url.path) }
        return String(decoding: data, as: UTF8.self)
    }

    /// `--data-urlencode`'s five forms: `content`, `=content`, `name=content`, `@file`, `name@file`.
    private func urlencodeData(_ value: String) throws -> String {
        if let equals = value.firstIndex(of: "=") {
            let name = value[..<equals]
            let content = FormEncoding.encode(String(value[value.index(after: equals)...]))
            return name.isEmpty ? content : name + "=" + content
        }
        if let at = value.firstIndex(of: "@") {
            let name = value[..<at]
            let content = FormEncoding.encode(try readFile(String(value[value.index(after: at)...])))
            return name.isEmpty ? content : name + "=" + content
        }
        return FormEncoding.encode(value)
    }
}
