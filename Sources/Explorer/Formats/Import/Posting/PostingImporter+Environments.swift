import Foundation
import NetworkingCore
import Workspace

extension PostingImporter.Reading {
    /// The `.env` files at the top of the collection folder, each an environment named after
    /// the file (`dev.env` is `dev`, `.env` is `default`), its variables in file order; one
    /// environment `default` when there is none.
    ///
    /// - Parameters:
    ///   - folder: the collection folder.
    ///   - baseURL: the base URL every environment gets (the requests' main origin).
    mutating func environments(in folder: URL, baseURL: String) -> [Environment] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var environments: [Environment] = []
        for file in names.filter({ $0 == ".env" || ($0.hasSuffix(".env") && $0.count > 4) }).sorted() {
            let url = folder.appendingPathComponent(file)
            let text: String
            do {
                guard let read = try DocumentLimits.current.readText(at: url) else {
                    skipped.append("\(url.path): the environment file is not UTF-8 text; it was left out.")
                    continue
                }
                text = read
            } catch {
                skipped.append("\(url.path): line \(error.line): \(error.problem). \(error.advice)")
                continue
            }
            let variables = dotEnvVariables(text, path: url.path)
            defined.formUnion(variables.map(\.name))
            let name = file == ".env" ? "default" : String(file.dropLast(4))
            environments.append(Environment(name: name, baseURLTemplate: baseURL, variables: variables))
        }
        return environments.isEmpty ? [Environment(name: "default", baseURLTemplate: baseURL)] : environments
    }

    /// A `.env` file's `KEY=value` lines as python-dotenv reads them: `export ` allowed, `#`
    /// comments, values in single quotes as written, in double quotes with `\n`, `\t`, `\"`
    /// and `\\` escapes, unquoted ones up to a ` #` comment. A line that is none of these is
    /// reported with its line number.
    mutating func dotEnvVariables(_ text: String, path: String) -> [KeyValue] {
        var variables: [KeyValue] = []
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            number += 1
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "="),
                case let key = line[..<equals].trimmingCharacters(in: .whitespaces), !key.isEmpty,
                key.allSatisfy({ !$0.isWhitespace })
            else {
                notes.append("\(path):\(number): the line is not KEY=value; it was left out.")
                continue
            }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.first == "'", value.last == "'" {
                value = String(value.dropFirst().dropLast())
            } else if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = Self.unescaped(String(value.dropFirst().dropLast()))
            } else if let hash = value.range(of: " #") {
                value = value[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            if let index = variables.firstIndex(where: { $0.name == key }) {
                variables[index] = KeyValue(key, value)
            } else {
                variables.append(KeyValue(key, value))
            }
        }
        return variables
    }

    /// A double-quoted dotenv value's escapes.
    private static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                default: out.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return escaping ? out + "\\" : out
    }

    // MARK: - The summary

    /// A warning naming the variables the requests use that no environment file defines.
    mutating func noteUndefinedVariables(_ collection: APICollection) {
        var used: [String] = []
        for endpoint in collection.endpoints {
            var texts = [endpoint.path] + endpoint.query.map(\.value) + endpoint.headers.map(\.value)
            if case .raw(let text)? = endpoint.body { texts.append(text) }
            if case .form(let pairs)? = endpoint.body { texts += pairs.map(\.value) }
            switch endpoint.auth?.scheme {
            case .basic(let user, let password)?, .digest(let user, let password)?: texts += [user, password]
            case .bearer(let token)?: texts.append(token)
            default: break
            }
            for name in texts.flatMap({ Template($0).variableNames }) where !used.contains(name) {
                used.append(name)
            }
        }
        let undefined = used.filter { !defined.contains($0) }
        guard !undefined.isEmpty else { return }
        notes.append(
            "the requests use " + undefined.map { "{{\($0)}}" }.joined(separator: ", ")
                + ", which no .env file of the folder defines (Posting reads them from its --env files or "
                + "the shell); pass --var NAME=VALUE when sending, or add them to an environment.")
    }

    /// Every warning, one sentence per kind, naming the requests.
    func report() -> [String] {
        func listed(_ names: [String]) -> String { names.map { "\"\($0)\"" }.joined(separator: ", ") }
        var warnings = notes
        if !scripts.isEmpty {
            warnings.append(
                "\(listed(scripts)) \(scripts.count == 1 ? "has" : "have") scripts (Python files Posting runs); "
                    + "explorer runs no script, so they were left out.")
        }
        if !insecure.isEmpty {
            warnings.append(
                "\(listed(insecure)) turn\(insecure.count == 1 ? "s" : "") off TLS verification (verify_ssl: false); "
                    + "a request cannot: set tls: {insecure: true} on the environment if you mean it.")
        }
        if !timeouts.isEmpty {
            warnings.append(
                "timeouts were left out (explorer has no per-request timeout): "
                    + timeouts.map { "\"\($0.request)\" \($0.seconds) s" }.joined(separator: ", ") + ".")
        }
        if !proxies.isEmpty {
            warnings.append(
                "\(listed(proxies)) use\(proxies.count == 1 ? "s" : "") its own proxy_url, which was left out: "
                    + "set proxy: on the environment.")
        }
        if !noCookies.isEmpty {
            warnings.append(
                "\(listed(noCookies)) send\(noCookies.count == 1 ? "s" : "") no cookies (attach_cookies: false); "
                    + "set cookies: false on the environment if every request should.")
        }
        if !skipped.isEmpty {
            warnings.append(
                "\(skipped.count) file\(skipped.count == 1 ? " was" : "s were") skipped: "
                    + skipped.joined(separator: "; "))
        }
        return warnings
    }
}
