import Foundation
import NetworkingCore
import Terminal
import Workspace
import Yams

/// The user's settings in `$XDG_CONFIG_HOME/explorer/config.yaml` (default
/// `~/.config/explorer/config.yaml`):
///
/// ```yaml
/// theme: light                 # used when --theme is not given
/// exchanges_in_memory: 20      # responses of this session kept to look back at (older: History)
/// max_redirects: 10            # redirects followed at most (0: none, one is an error)
/// keys:                        # command: a key, or a list of keys
///   send: [enter, ctrl-s]
///   environments: E
///   quit: [q, ctrl-q]
/// ```
///
/// A key is a character (`x`, `?`), `ctrl-x`, `alt-x`, or a name: enter, esc, tab,
/// shift-tab, backspace, delete, space, up, down, left, right, home, end, pageup, pagedown,
/// f1 … f12. Binding a command replaces its default keys; the footer and help follow.
package struct UserConfig: Sendable {
    package var theme: String?
    package var keymap = AppCommand.defaultKeymap
    /// How many finished exchanges the TUI keeps in memory (`exchanges_in_memory`).
    package var exchangesInMemory = AppState.defaultExchangeLimit
    /// The limits responses are read under (`max_body`, `max_time`, `timeout`).
    package var limits = ResponseLimits()
    /// What was wrong with the file, one sentence each (the rest of the file still applies).
    package var problems: [String] = []

    /// Where the file is: `config.yaml` in the explorer's config folder (see `XDGDirectories`).
    static func fileURL(environment: [String: String]) -> URL {
        XDGDirectories(environment: environment).configFile
    }

    /// Reads the file if there is one; a missing file is the defaults, a broken one is the
    /// defaults plus a problem naming the file, the line and what to change, and one that
    /// cannot be read (no permission, a folder, not UTF-8) the defaults plus a problem naming
    /// the file and why.
    package static func load(environment: [String: String] = ProcessInfo.processInfo.environment) -> UserConfig {
        let folders = XDGDirectories(environment: environment)
        let url = folders.configFile
        let shown = folders.displayPath(url)
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            // No file is the usual case: everything is a default, nothing to say.
            guard FileManager.default.fileExists(atPath: url.path) || isSymbolicLink(url) else { return UserConfig() }
            var config = UserConfig()
            config.problems.append(
                "\(shown) cannot be read (\(unreadableReason(url, error))); the default settings are used.")
            return config
        }
        guard let text = String(data: data, encoding: .utf8) else {
            var config = UserConfig()
            config.problems.append("\(shown) is not UTF-8 text; the default settings are used.")
            return config
        }
        return parse(text, file: shown)
    }

    /// Whether the path is a symbolic link (a dangling one is a broken config, not a missing one).
    private static func isSymbolicLink(_ url: URL) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
    }

    /// The system's reason a file could not be read, e.g. `Permission denied`.
    private static func unreadableReason(_ url: URL, _ error: any Error) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a folder"
        }
        if !FileManager.default.isReadableFile(atPath: url.path), FileManager.default.fileExists(atPath: url.path) {
            return "permission denied"
        }
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain, let code = Int32(exactly: underlying.code)
        {
            return String(cString: strerror(code))
        }
        return (error as NSError).localizedDescription
    }

    static func parse(_ text: String, file: String) -> UserConfig {
        var config = UserConfig()
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text, .explorerFiles) else { return config }
            root = node
        } catch let error as YamlError {
            config.problems.append("\(file): \(error). The default settings are used.")
            return config
        } catch {
            config.problems.append("\(file): \(error). The default settings are used.")
            return config
        }
        guard let mapping = root.mapping else {
            config.problems.append("\(file):\(root.mark?.line ?? 1): the file must be a mapping with theme: and keys:.")
            return config
        }
        for (keyNode, value) in mapping {
            let line = keyNode.mark?.line ?? 1
            switch keyNode.string ?? "" {
            case "theme":
                config.theme = value.string
            case "exchanges_in_memory":
                guard let count = value.int, (1...10_000).contains(count) else {
                    config.problems.append(
                        "\(file):\(line): exchanges_in_memory must be a whole number from 1 to 10000; \(AppState.defaultExchangeLimit) is used."
                    )
                    continue
                }
                config.exchangesInMemory = count
            case "max_body":
                guard let bytes = value.string.flatMap(ResponseLimits.byteCount) else {
                    config.problems.append(
                        "\(file):\(line): max_body must be a number of bytes such as 1048576, 512K, 256M or 2G; \(BodyLimit.size(config.limits.maximumBody)) is used."
                    )
                    continue
                }
                config.limits.maximumBody = bytes
            case "max_redirects":
                guard let count = value.int, (0...1000).contains(count) else {
                    config.problems.append(
                        "\(file):\(line): max_redirects must be a whole number from 0 to 1000; \(config.limits.maximumRedirects) is used."
                    )
                    continue
                }
                config.limits.maximumRedirects = count
            case "max_time", "timeout":
                let name = keyNode.string ?? ""
                guard let seconds = value.float, seconds > 0 else {
                    config.problems.append(
                        "\(file):\(line): \(name) must be a number of seconds greater than 0; the default is used.")
                    continue
                }
                if name == "max_time" {
                    config.limits.maximumTime = seconds
                } else {
                    config.limits.idleTimeout = seconds
                }
            case "keys":
                guard let bindings = value.mapping else {
                    config.problems.append("\(file):\(line): keys: must map command names to keys, e.g. send: ctrl-s.")
                    continue
                }
                config.applyKeys(bindings, file: file)
            case let other:
                let hint =
                    Suggestions.closest(
                        to: other,
                        in: [
                            "theme", "keys", "exchanges_in_memory", "max_body", "max_time", "timeout", "max_redirects",
                        ]
                    ).first.map { " (did you mean \($0)?)" } ?? ""
                config.problems.append("\(file):\(line): unknown setting \"\(other)\"\(hint); it is ignored.")
            }
        }
        return config
    }

    private mutating func applyKeys(_ bindings: Node.Mapping, file: String) {
        var rebound: [AppCommand: [KeyPress]] = [:]
        for (commandNode, keysNode) in bindings {
            let line = commandNode.mark?.line ?? 1
            let name = commandNode.string ?? ""
            guard let command = AppCommand(rawValue: name) else {
                let hint =
                    Suggestions.closest(to: name, in: AppCommand.allCases.map(\.rawValue)).first.map {
                        " (did you mean \($0)?)"
                    } ?? ""
                problems.append("\(file):\(line): \"\(name)\" is not a command\(hint); it is ignored.")
                continue
            }
            let texts = keysNode.sequence.map { $0.compactMap(\.string) } ?? [keysNode.string ?? ""]
            var presses: [KeyPress] = []
            for text in texts {
                if let press = KeyPress(parsing: text) {
                    presses.append(press)
                } else {
                    problems.append(
                        "\(file):\(keysNode.mark?.line ?? line): \"\(text)\" is not a key for \(name); write a character, ctrl-x, alt-x or a key name such as enter or f5."
                    )
                }
            }
            if !presses.isEmpty { rebound[command] = presses }
        }
        guard !rebound.isEmpty else { return }
        // A key moved to a new command leaves the command that had it.
        let taken = Set(rebound.values.joined())
        keymap = Keymap(
            keymap.bindings.compactMap { binding in
                var binding = binding
                if let keys = rebound[binding.command] {
                    binding.keys = keys
                } else {
                    binding.keys.removeAll { taken.contains($0) }
                    if binding.keys.isEmpty { return nil }
                }
                return binding
            })
    }
}
