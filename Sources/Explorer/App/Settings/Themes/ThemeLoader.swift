import Foundation
import Terminal
import Workspace

/// Finds and loads themes: user themes from `$XDG_CONFIG_HOME/explorer/themes/`, then the
/// built-in ones. A broken file never stops the app: the default theme is used and the
/// error is returned for the status bar.
package enum ThemeLoader {
    /// The outcome of loading a theme.
    package struct Result: Sendable {
        /// The theme to draw with.
        package var theme: Theme
        /// Why the requested theme was not used, if it was not.
        package var problem: ThemeError?
    }

    /// The folder user themes live in: `$XDG_CONFIG_HOME/explorer/themes`, or
    /// `~/.config/explorer/themes` (see `XDGDirectories`).
    package static func userThemesDirectory(environment: [String: String]) -> String {
        XDGDirectories(environment: environment).themesDirectory.path
    }

    /// Loads a theme by name (or by path, when `name` contains `/` or ends in `.yaml`).
    ///
    /// Without a name, `NO_COLOR` selects `monochrome` and otherwise `default` is used.
    ///
    /// - Parameters:
    ///   - name: the `--theme` value, or nil.
    ///   - environment: the process environment.
    /// - Returns: the theme and, when it could not be used, why.
    package static func load(name: String?, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Result
    {
        guard let name, !name.isEmpty else {
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            return Result(theme: builtin(noColor ? "monochrome" : "default") ?? Theme.fallback, problem: nil)
        }
        do {
            return Result(theme: try loadOrThrow(name: name, environment: environment), problem: nil)
        } catch let error as ThemeError {
            return Result(theme: Theme.fallback, problem: error)
        } catch {
            return Result(theme: Theme.fallback, problem: .notFound(name: name, searched: []))
        }
    }

    /// Loads a theme by name or path, throwing on any problem.
    ///
    /// - Throws: `ThemeError`.
    package static func loadOrThrow(name: String, environment: [String: String]) throws -> Theme {
        var candidates: [String] = []
        if name.contains("/") || name.hasSuffix(".yaml") {
            candidates.append(name)
        } else {
            let directory = userThemesDirectory(environment: environment)
            candidates.append(directory + "/" + name + ".yaml")
            candidates.append(directory + "/" + name + ".yml")
        }
        for path in candidates where FileManager.default.fileExists(atPath: path) {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw ThemeError.syntax(file: path, line: 1, reason: "cannot be read as UTF-8 text")
            }
            // A user file may share a built-in's name and build on it (`base: light` in
            // light.yaml): the base is always looked up among the built-ins, never the
            // user's folder, so a theme cannot inherit from itself.
            let base = builtin(ThemeFile.baseName(text) ?? "default") ?? Theme.fallback
            return try ThemeFile.parse(text, file: path, base: base)
        }
        if let theme = builtin(name) { return theme }
        throw ThemeError.notFound(name: name, searched: candidates)
    }

    /// A built-in theme by name: one of `themes/*.yaml`, compiled in by the EmbedThemes plugin.
    package static func builtin(_ name: String) -> Theme? {
        guard let source = BuiltinThemes.source[name] else { return nil }
        if name == "default" { return Theme.fallback }
        let base = ThemeFile.baseName(source) == "default" ? Theme.fallback : nil
        return try? ThemeFile.parse(source, file: "\(name).yaml", base: base)
    }

    /// The names of the built-in themes.
    package static var builtinNames: [String] { BuiltinThemes.names }
}
