import Crypto
import Foundation
import NetworkingCore

/// The functions a `{{…}}` may call, with their arguments after the name:
///
/// | template | value |
/// | --- | --- |
/// | `{{uuid}}` | a random UUID (the same one everywhere in one request) |
/// | `{{now}}`, `{{now "yyyy-MM-dd"}}` | the time, ISO 8601 in UTC or in a format |
/// | `{{timestamp}}`, `{{timestamp ms}}` | Unix time in seconds, or milliseconds |
/// | `{{random_int 1 100}}` | a random whole number from A to B |
/// | `{{base64 X}}`, `{{base64_decode X}}` | Base64 of X, or X decoded |
/// | `{{url_encode X}}` | X percent-encoded for a URL component |
/// | `{{sha256 X}}`, `{{hmac_sha256 KEY X}}` | the digest in lower-case hex |
/// | `{{file PATH}}` | a file's text, relative to the collection |
/// | `{{prompt "Label"}}` | what the user types when asked (`TemplatePrompter`) |
/// | `{{command "pass show api"}}` | a shell command's trimmed output (`TemplateCommand`), trusted collections only |
///
/// A value argument `X` (and `KEY`) is a quoted string (`"text"`) or the name of a variable,
/// whose value is used: `{{base64 credentials}}` with `credentials: "{{user}}:{{password}}"`.
/// A format, a unit, a number or a path is taken as written (quoted when it has spaces).
package struct TemplateFunction: Sendable, Hashable {
    /// The names, as written.
    static let names = [
        "uuid", "now", "timestamp", "random_int", "base64", "base64_decode", "url_encode", "sha256", "hmac_sha256",
        "file", "prompt", "command",
    ]

    /// The largest file `{{file PATH}}` reads.
    static let maximumFileBytes = 1 << 20

    /// One argument: text as written, or a variable to look up.
    package enum Argument: Sendable, Hashable {
        case text(String)
        case variable(String)
    }

    /// The function's name.
    package var name: String
    /// Its arguments, in order.
    package var arguments: [Argument]

    /// Reads `NAME ARG…` when NAME is a function and arguments follow it; `nil` for anything
    /// else (a plain variable name, or a function's name alone, which the scope's fixed
    /// built-ins answer).
    package init?(_ expression: String) {
        // Most placeholders are variable names: the first word decides before any tokenizing.
        guard Self.names.contains(String(expression.drop { $0.isWhitespace }.prefix { !$0.isWhitespace })) else {
            return nil
        }
        var tokens = CheckTokens(expression)
        guard let first = tokens.next(), !first.quoted, Self.names.contains(first.text) else { return nil }
        var arguments: [Argument] = []
        while let token = tokens.next() {
            arguments.append(token.quoted ? .text(token.text) : .variable(token.text))
        }
        guard !arguments.isEmpty || !["uuid", "now", "timestamp"].contains(first.text) else { return nil }
        name = first.text
        self.arguments = arguments
    }

    /// Why a call cannot be evaluated.
    struct Failure: Error, Sendable, Hashable {
        var reason: String
    }

    /// Evaluates the call.
    ///
    /// - Parameters:
    ///   - now: the scope's time.
    ///   - directory: where `file` paths start (the collection's folder).
    ///   - files: what decides whether a file outside the folder may be read now (none is
    ///     checked when `nil`: a collection made in memory).
    ///   - prompter: who answers `prompt` (nobody when `nil`).
    ///   - runCommand: what runs a `command` (none may run when `nil`).
    ///   - lookUp: the value of a variable named as an argument.
    /// - Throws: `Failure` for wrong arguments, `VariableScope.Failure` from `lookUp`, the
    ///   prompter's and the command runner's errors.
    func evaluate(
        now: Date, directory: URL?, files: SendTimeFiles? = nil, prompter: (any TemplatePrompter)? = nil,
        runCommand: ((String) throws -> String)? = nil,
        lookUp: (String) throws -> String
    ) throws -> String {
        /// A value: quoted text, or a variable's value.
        func argument(_ index: Int) throws -> String {
            switch arguments[index] {
            case .text(let text): return text
            case .variable(let name): return try lookUp(name)
            }
        }
        /// A format, unit or path: as written.
        func literal(_ index: Int) -> String {
            switch arguments[index] {
            case .text(let text), .variable(let text): return text
            }
        }
        /// A number as written, else a variable holding one.
        func number(_ index: Int) throws -> Int? {
            if case .variable(let word) = arguments[index], let number = Int(word) { return number }
            return Int(try argument(index))
        }
        func expect(_ count: Int, _ usage: String) throws {
            guard arguments.count == count else {
                throw Failure(
                    reason: "\(name) takes \(count == 1 ? "one argument" : "\(count) arguments"), as in {{\(usage)}}")
            }
        }
        switch name {
        case "now":
            try expect(1, #"now "yyyy-MM-dd HH:mm""#)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = literal(0)
            return formatter.string(from: now)
        case "timestamp":
            try expect(1, "timestamp ms")
            switch literal(0) {
            case "s": return String(Int(now.timeIntervalSince1970))
            case "ms": return String(Int((now.timeIntervalSince1970 * 1000).rounded(.down)))
            case let unit: throw Failure(reason: "timestamp counts in s or ms, not \"\(unit)\"")
            }
        case "random_int":
            try expect(2, "random_int 1 100")
            guard let low = try number(0), let high = try number(1), low <= high else {
                throw Failure(
                    reason:
                        "random_int takes two whole numbers, the first not above the second, as in {{random_int 1 100}}"
                )
            }
            return String(Int.random(in: low...high))
        case "base64":
            try expect(1, "base64 credentials")
            return Data(try argument(0).utf8).base64EncodedString()
        case "base64_decode":
            try expect(1, "base64_decode encoded")
            let text = try argument(0)
            guard
                let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters)
                    ?? Data(base64Encoded: text + String(repeating: "=", count: (4 - text.count % 4) % 4)),
                let decoded = String(data: data, encoding: .utf8)
            else {
                throw Failure(reason: "base64_decode was given text that is not Base64 of UTF-8 text")
            }
            return decoded
        case "url_encode":
            try expect(1, "url_encode query")
            return PercentEncoding.encode(try argument(0), allowed: PercentEncoding.unreserved, keepEscapes: false)
        case "sha256":
            try expect(1, "sha256 body_text")
            return SHA256.hash(data: Data(try argument(0).utf8)).hexDigits
        case "hmac_sha256":
            try expect(2, "hmac_sha256 signing_key payload")
            let key = SymmetricKey(data: Data(try argument(0).utf8))
            return HMAC<SHA256>.authenticationCode(for: Data(try argument(1).utf8), using: key).hexDigits
        case "prompt":
            try expect(1, #"prompt "One-time code""#)
            let label = literal(0)
            guard let prompter else {
                throw Failure(reason: "prompt \"\(label)\" cannot ask here; --var \"\(label)=…\" gives the answer")
            }
            return try prompter.answer(label)
        case "command":
            try expect(1, #"command "pass show api/token""#)
            guard let runCommand else { throw Failure(reason: "commands do not run here") }
            return try runCommand(literal(0))
        case "file":
            try expect(1, "file token.txt")
            let path = literal(0)
            let base = directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)
            if let reason = files?.refusal(toRead: url) { throw Failure(reason: reason) }
            guard let handle = try? FileHandle(forReadingFrom: url) else {
                throw Failure(reason: "the file \(url.path) cannot be read")
            }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: Self.maximumFileBytes + 1)) ?? Data()
            guard data.count <= Self.maximumFileBytes else {
                throw Failure(reason: "the file \(url.path) is larger than \(Self.maximumFileBytes) bytes")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw Failure(reason: "the file \(url.path) is not UTF-8 text")
            }
            // A file ends with a newline that is not part of the token it holds.
            return text.hasSuffix("\n") ? String(text.dropLast()) : text
        default:
            throw Failure(reason: "\(name) takes no arguments")
        }
    }
}

/// Asks the user for the value of a `{{prompt "Label"}}`: the CLI on its terminal; nothing
/// asks where no one can answer, and the call is then an error that says so.
package protocol TemplatePrompter: Sendable {
    /// The answer for a label (the same label is asked once per request).
    ///
    /// - Throws: an error whose description says why it could not ask.
    func answer(_ label: String) throws -> String
    /// The answers given that are secrets (their label names a credential), to mask.
    var secretAnswers: [String] { get }
}
