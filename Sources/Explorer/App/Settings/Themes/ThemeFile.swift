import Terminal
import Workspace
import Yams

/// Reads the YAML theme format.
///
/// ```yaml
/// name: default
/// base: default          # optional: roles not listed come from this theme
/// roles:
///   text: { fg: default, bg: default }
///   focusBorder: { fg: cyan, attrs: [bold] }
///   status4xx: { fg: "#ffaf00", attrs: bold }
/// ```
///
/// Colours are `default`, a name (`red`, `bright-blue`, `gray`), a number 0–255 or
/// `#rrggbb`; attributes are `bold`, `dim`, `italic`, `underline`, `reverse`, `blink`.
enum ThemeFile {
    /// Parses a theme.
    ///
    /// - Parameters:
    ///   - yaml: the file's text.
    ///   - file: the file's name for error messages.
    ///   - base: the theme that supplies roles the file leaves out (nil: none).
    /// - Returns: the theme.
    /// - Throws: `ThemeError` naming the file, line and key.
    package static func parse(_ yaml: String, file: String, base: Theme?) throws -> Theme {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml, .explorerFiles)
        } catch let error as YamlError {
            throw ThemeError.syntax(file: file, line: line(of: error), reason: reason(of: error))
        } catch {
            throw ThemeError.syntax(file: file, line: 1, reason: "\(error)")
        }
        guard let root, let mapping = root.mapping else {
            throw ThemeError.invalid(
                file: file, line: root?.mark?.line ?? 1, key: "",
                reason: "the file must be a mapping with 'name' and 'roles'")
        }
        var name = file
        var styles = base?.styles ?? [:]
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let line = keyNode.mark?.line ?? 1
            switch key {
            case "name":
                guard let text = value.string else {
                    throw ThemeError.invalid(file: file, line: line, key: key, reason: "must be a string")
                }
                name = text
            case "base", "description":
                continue
            case "roles":
                guard let roles = value.mapping else {
                    throw ThemeError.invalid(file: file, line: line, key: key, reason: "must map role names to styles")
                }
                for (roleNode, styleNode) in roles {
                    let roleName = roleNode.string ?? ""
                    let roleLine = roleNode.mark?.line ?? line
                    let role = Role(rawValue: roleName)
                    guard Role.known.contains(role) else {
                        throw ThemeError.invalid(
                            file: file, line: roleLine, key: "roles.\(roleName)",
                            reason: "unknown role (known: \(Role.known.map(\.rawValue).joined(separator: ", ")))")
                    }
                    styles[role] = try style(styleNode, file: file, path: "roles.\(roleName)")
                }
            default:
                throw ThemeError.invalid(
                    file: file, line: line, key: key, reason: "unknown key (expected name, base, description, roles)")
            }
        }
        return Theme(name: name, styles: styles)
    }

    /// The name of the base theme a file asks for (`base:`), if any.
    package static func baseName(_ yaml: String) -> String? {
        guard let root = try? Yams.compose(yaml: yaml, .explorerFiles), let mapping = root.mapping else { return nil }
        return mapping["base"]?.string
    }

    static func style(_ node: Node, file: String, path: String) throws -> ThemeStyle {
        guard let mapping = node.mapping else {
            throw ThemeError.invalid(
                file: file, line: node.mark?.line ?? 1, key: path, reason: "must be a mapping of fg, bg and attrs")
        }
        var result = ThemeStyle()
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let line = value.mark?.line ?? keyNode.mark?.line ?? 1
            switch key {
            case "fg", "bg":
                let text = value.string ?? ""
                guard let color = ThemeColor(parsing: text) else {
                    throw ThemeError.invalid(
                        file: file, line: line, key: "\(path).\(key)",
                        reason: "'\(text)' is not a colour (use default, a name such as red, 0-255 or #rrggbb)")
                }
                if key == "fg" { result.foreground = color } else { result.background = color }
            case "attrs":
                let words: [String]
                if let sequence = value.sequence {
                    words = sequence.compactMap(\.string)
                } else {
                    words = (value.string ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
                }
                for word in words {
                    guard let attribute = attributeNames[word.lowercased()] else {
                        throw ThemeError.invalid(
                            file: file, line: line, key: "\(path).attrs",
                            reason: "'\(word)' is not an attribute (use bold, dim, italic, underline, reverse, blink)")
                    }
                    result.attributes.insert(attribute)
                }
            default:
                throw ThemeError.invalid(
                    file: file, line: keyNode.mark?.line ?? 1, key: "\(path).\(key)",
                    reason: "unknown key (expected fg, bg, attrs)")
            }
        }
        return result
    }

    static let attributeNames: [String: TextAttributes] = [
        "bold": .bold, "dim": .dim, "italic": .italic, "underline": .underline, "reverse": .reverse, "blink": .blink,
    ]

    static func line(of error: YamlError) -> Int { error.line }

    static func reason(of error: YamlError) -> String { error.problem }
}
