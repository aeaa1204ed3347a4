import Foundation

/// One `--report KIND=PATH` of `explorer run` (and `explorer load`): which report and where
/// it goes. `github` has no path: its annotations are printed.
package struct RunReportTarget: Sendable, Hashable, CustomStringConvertible {
    /// The kinds of report.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// JUnit XML, as `--junit` writes it.
        case junit
        /// The JSON report (`schema/run-report.schema.json`).
        case json
        /// One self-contained HTML file: no script, no external resource.
        case html
        /// GitHub Actions annotations (`::error file=…,line=…::…`), printed.
        case github
    }

    /// The kind.
    package var kind: Kind
    /// The file to write, `nil` for `github`.
    package var path: String?

    /// Creates a target.
    package init(kind: Kind, path: String?) {
        self.kind = kind
        self.path = path
    }

    /// As written on the command line.
    package var description: String { path.map { "\(kind.rawValue)=\($0)" } ?? kind.rawValue }

    /// Reads `KIND=PATH` (or `github`).
    ///
    /// - Parameters:
    ///   - text: the option's value.
    ///   - kinds: the kinds the command offers.
    /// - Throws: `RunReportError` naming what is wrong and what to write instead.
    package init(parsing text: String, kinds: [Kind] = Kind.allCases) throws(RunReportError) {
        let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
        let offered = kinds.map { $0 == .github ? "github" : "\($0.rawValue)=PATH" }.joined(separator: ", ")
        guard let kind = Kind(rawValue: name.lowercased()), kinds.contains(kind) else {
            throw RunReportError("--report \(text): \"\(name)\" is not a kind of report; use one of \(offered).")
        }
        let path = text.firstIndex(of: "=").map { String(text[text.index(after: $0)...]) }
        if kind == .github {
            guard path == nil else {
                throw RunReportError(
                    "--report \(text): github annotations are printed, not written to a file; write --report github.")
            }
        } else if path?.isEmpty ?? true {
            throw RunReportError("--report \(text): the \(kind.rawValue) report needs a file: write \(kind)=PATH.")
        }
        self.init(kind: kind, path: path)
    }

    /// Why the file cannot be written, checked before anything is sent: its folder is missing
    /// or not writable, or the path is a folder or a file that cannot be replaced; `nil` when
    /// it can be written.
    package func unwritableReason() -> String? {
        guard let path else { return nil }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return "--report \(self): \(path) is a folder: name a file in it." }
            if access(path, W_OK) != 0 {
                return "--report \(self): \(path) cannot be replaced (permission denied): choose another file."
            }
        }
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return "--report \(self): the folder \(folder) does not exist: create it or choose another path."
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            return
                "--report \(self): the folder \(folder) cannot be written to (permission denied): choose another path."
        }
        return nil
    }

    /// The reports of a command's `--report` texts that parse, in order, and one sentence for
    /// each text that does not.
    package static func parsing(_ texts: [String], kinds: [Kind] = Kind.allCases)
        -> (targets: [RunReportTarget], problems: [String])
    {
        var targets: [RunReportTarget] = []
        var problems: [String] = []
        for text in texts {
            do {
                targets.append(try RunReportTarget(parsing: text, kinds: kinds))
            } catch {
                problems.append(error.description)
            }
        }
        return (targets, problems)
    }

    /// Everything wrong with a command's `--report` texts (and `extra` reports it adds, as
    /// `--junit FILE`), one sentence each: a text that does not parse, then `problems(in:)`.
    package static func check(_ texts: [String], kinds: [Kind] = Kind.allCases, extra: [RunReportTarget] = [])
        -> [String]
    {
        let (targets, unparsed) = parsing(texts, kinds: kinds)
        return unparsed + problems(in: targets + extra)
    }

    /// Checks a command's reports together: each can be written, and no two write one file.
    ///
    /// - Returns: one sentence per problem, in the order the reports were given.
    package static func problems(in targets: [RunReportTarget]) -> [String] {
        var problems: [String] = []
        var seen: [String: RunReportTarget] = [:]
        for target in targets {
            if let reason = target.unwritableReason() { problems.append(reason) }
            guard let path = target.path else { continue }
            let key = URL(fileURLWithPath: path).standardizedFileURL.path
            if let first = seen[key] {
                problems.append("--report \(target): \(first) writes the same file: give each report its own path.")
            } else {
                seen[key] = target
            }
        }
        return problems
    }
}

/// A `--report` that cannot be used, as one sentence.
package struct RunReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}
