import Terminal

/// A theme file that cannot be used, with where the problem is.
package enum ThemeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not valid YAML.
    case syntax(file: String, line: Int, reason: String)
    /// A key or value in the file is wrong.
    case invalid(file: String, line: Int, key: String, reason: String)
    /// No theme of that name exists (built in or in the themes folder).
    case notFound(name: String, searched: [String])

    /// One sentence naming the file, line and key.
    package var description: String {
        switch self {
        case .syntax(let file, let line, let reason):
            return "Theme file \(file), line \(line): not valid YAML (\(reason))."
        case .invalid(let file, let line, let key, let reason):
            return "Theme file \(file), line \(line), key '\(key)': \(reason)."
        case .notFound(let name, let searched):
            return
                "No theme named '\(name)' (looked in: built-in themes\(searched.isEmpty ? "" : ", " + searched.joined(separator: ", ")))."
        }
    }
}
