import Foundation

/// The `KEY=value` pairs of a `.env` file; it is read, never written.
///
/// Blank lines and `#` comments are skipped, `export ` prefixes allowed, and values may be
/// wrapped in single or double quotes (double quotes understand `\n`).
enum DotEnv {
    /// Parses `.env` text.
    static func parse(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
                if first == "\"" { value = value.replacingOccurrences(of: "\\n", with: "\n") }
            } else if let hash = value.range(of: " #") {
                value = value[..<hash.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            if !key.isEmpty { values[key] = value }
        }
        return values
    }

    /// Reads the `.env` file in a directory, or an empty set when there is none.
    static func load(besides collectionURL: URL) -> [String: String] {
        let url = collectionURL.deletingLastPathComponent().appendingPathComponent(".env")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        return parse(text)
    }
}
