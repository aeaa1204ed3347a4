import Foundation

/// Where the explorer keeps its files, per the XDG Base Directory specification.
///
/// The four base folders come from `XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `XDG_DATA_HOME` and
/// `XDG_CACHE_HOME`; a value that is empty or not an absolute path is ignored (the spec says
/// such a value is invalid), and the default under `$HOME` is used instead:
/// `~/.config`, `~/.local/state`, `~/.local/share`, `~/.cache`. The explorer's own folders
/// are `explorer` inside each.
///
/// ```swift
/// let folders = XDGDirectories(environment: ProcessInfo.processInfo.environment)
/// folders.configFile      // ~/.config/explorer/config.yaml
/// folders.stateDirectory  // ~/.local/state/explorer (the history lives here)
/// ```
package struct XDGDirectories: Sendable, Hashable {
    /// The name of the explorer's folder inside each base folder.
    package static let applicationFolder = "explorer"

    /// The user's home folder: `$HOME` when it is absolute, else the account's home.
    package let home: URL
    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    package let configHome: URL
    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    package let stateHome: URL
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    package let dataHome: URL
    /// `$XDG_CACHE_HOME`, or `~/.cache`.
    package let cacheHome: URL

    /// Computes the folders for a process environment.
    ///
    /// - Parameter environment: the process environment (default: this process's).
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = Self.absolutePath(environment["HOME"]) ?? NSHomeDirectory()
        let homeURL = URL(fileURLWithPath: home, isDirectory: true)
        func base(_ variable: String, default relative: String) -> URL {
            if let path = Self.absolutePath(environment[variable]) {
                return URL(fileURLWithPath: path, isDirectory: true)
            }
            return homeURL.appendingPathComponent(relative, isDirectory: true)
        }
        self.home = homeURL
        configHome = base("XDG_CONFIG_HOME", default: ".config")
        stateHome = base("XDG_STATE_HOME", default: ".local/state")
        dataHome = base("XDG_DATA_HOME", default: ".local/share")
        cacheHome = base("XDG_CACHE_HOME", default: ".cache")
    }

    // MARK: - The explorer's folders

    /// `$XDG_CONFIG_HOME/explorer`: settings and user themes.
    package var configDirectory: URL { configHome.appendingPathComponent(Self.applicationFolder, isDirectory: true) }
    /// `$XDG_STATE_HOME/explorer`: the history. Private to the user (0700).
    package var stateDirectory: URL { stateHome.appendingPathComponent(Self.applicationFolder, isDirectory: true) }
    /// `$XDG_DATA_HOME/explorer`.
    package var dataDirectory: URL { dataHome.appendingPathComponent(Self.applicationFolder, isDirectory: true) }
    /// `$XDG_CACHE_HOME/explorer`.
    package var cacheDirectory: URL { cacheHome.appendingPathComponent(Self.applicationFolder, isDirectory: true) }

    /// The user's settings: `$XDG_CONFIG_HOME/explorer/config.yaml`.
    package var configFile: URL { configDirectory.appendingPathComponent("config.yaml") }
    /// The folder user themes live in: `$XDG_CONFIG_HOME/explorer/themes`.
    package var themesDirectory: URL { configDirectory.appendingPathComponent("themes", isDirectory: true) }

    /// The user's download folder, where saved response bodies are proposed to go: the
    /// `XDG_DOWNLOAD_DIR` of the environment or of `$XDG_CONFIG_HOME/user-dirs.dirs` (as
    /// xdg-user-dirs writes it), else `~/Downloads`; nil when that folder does not exist.
    ///
    /// - Parameter environment: the process environment.
    /// - Returns: an existing folder, or nil.
    package func downloadDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        var candidates: [String] = []
        if let path = environment["XDG_DOWNLOAD_DIR"], !path.isEmpty { candidates.append(path) }
        let userDirs = configHome.appendingPathComponent("user-dirs.dirs")
        if let text = try? String(contentsOf: userDirs, encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix("XDG_DOWNLOAD_DIR=") {
                let value = line.dropFirst("XDG_DOWNLOAD_DIR=".count).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\" "))
                candidates.append(value.replacingOccurrences(of: "$HOME", with: home.path))
            }
        }
        candidates.append(home.appendingPathComponent("Downloads").path)
        for candidate in candidates {
            guard let path = Self.absolutePath(candidate) else { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: path, isDirectory: true)
            }
        }
        return nil
    }

    /// A path as a person reads it: the home folder written `~`.
    ///
    /// - Parameter url: a file or folder.
    /// - Returns: `~/…` when it is inside the home folder, else its full path.
    package func displayPath(_ url: URL) -> String {
        let homePath = home.path.hasSuffix("/") ? String(home.path.dropLast()) : home.path
        let path = url.path
        guard !homePath.isEmpty, path.hasPrefix(homePath + "/") else { return path }
        return "~" + path.dropFirst(homePath.count)
    }

    /// The value when it is an absolute path; the spec tells to ignore relative ones.
    private static func absolutePath(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }
}
