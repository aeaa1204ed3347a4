import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the shell command of a `{{command "pass show api/token"}}` and returns its trimmed
/// standard output: how a secret manager's answer reaches a request without being written in
/// the collection.
///
/// The command runs under `/bin/sh -c` in the collection's folder, with no input, in a process
/// group of its own. It is bounded: it is killed (with everything it started) after
/// `timeout`, and fails when it writes more than `maximumOutputBytes`. A command that exits
/// with a status other than 0 fails with the last line it wrote to standard error.
package struct TemplateCommand: Sendable, Hashable {
    /// The default time a command may take, in seconds (`EXPLORER_COMMAND_TIMEOUT` raises it).
    package static let defaultTimeout: Double = 10
    /// The most standard output a command may write.
    package static let maximumOutputBytes = 1 << 20

    /// The shell command line.
    package var command: String
    /// The folder it runs in (the current one when `nil`).
    package var directory: URL?
    /// How long it may take, in seconds.
    package var timeout: Double

    /// Why a command gave no value, in a sentence.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package var description: String
    }

    /// A command with the time limit the process environment sets, else the default.
    package init(_ command: String, directory: URL?, environment: [String: String]) {
        self.command = command
        self.directory = directory
        timeout =
            environment["EXPLORER_COMMAND_TIMEOUT"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil }
            ?? Self.defaultTimeout
    }

    /// Runs the command.
    ///
    /// - Returns: its standard output, without the whitespace and newlines around it.
    /// - Throws: `Failure` when it cannot start, times out, writes too much or fails.
    package func run() throws -> String {
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&output) == 0 else {
            throw Failure(description: "no pipe for its output: \(String(cString: strerror(errno)))")
        }
        guard pipe(&errors) == 0 else {
            close(output[0])
            close(output[1])
            throw Failure(description: "no pipe for its errors: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for descriptor in [output[0], output[1], errors[0], errors[1]] {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own, so a timeout ends what the shell started too.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)

        let script = directory.map { "cd \(Self.quoted($0.path)) && \(command)" } ?? command
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", script]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        guard spawned == 0 else {
            throw Failure(description: "/bin/sh cannot start: \(String(cString: strerror(spawned)))")
        }

        var stdout = Data()
        var stderr = Data()
        let deadline = Date().addingTimeInterval(timeout)
        var open = [output[0], errors[0]]
        var failure: Failure?
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while !open.isEmpty && failure == nil {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                failure = Failure(
                    description:
                        "it did not finish within \(Self.seconds(timeout)) (EXPLORER_COMMAND_TIMEOUT raises the limit)")
                break
            }
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR {
                failure = Failure(description: "its output cannot be read: \(String(cString: strerror(errno)))")
            }
            guard ready > 0 else { continue }
            for entry in polls where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count <= 0 {
                    open.removeAll { $0 == entry.fd }
                } else if entry.fd == output[0] {
                    stdout.append(contentsOf: buffer.prefix(count))
                    if stdout.count > Self.maximumOutputBytes {
                        failure = Failure(description: "it wrote more than \(Self.maximumOutputBytes) bytes")
                    }
                } else if stderr.count < 65_536 {
                    stderr.append(contentsOf: buffer.prefix(count))
                }
            }
        }
        if failure != nil { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if let failure { throw failure }
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited && code == 0 else {
            let said =
                String(decoding: stderr, as: UTF8.self).split(whereSeparator: \.isNewline).last.map { ": \($0)" } ?? ""
            throw Failure(
                description: (exited ? "it exited with status \(code)" : "it was ended by signal \(status & 0x7f)")
                    + said)
        }
        guard let text = String(data: stdout, encoding: .utf8) else {
            throw Failure(description: "its output is not UTF-8 text")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// The collection files that may reach beyond their folder (`CollectionReach`: commands,
/// files outside it, process environment variables): those the user opened by name
/// (`explorer FILE`, `--collection FILE`, `EXPLORER_COLLECTION`) or trusted with `explorer
/// trust FILE`. A collection found on its own (`./explorer.yaml` of a folder just cloned)
/// reaches nothing until then, as direnv never loads an `.envrc` it was not allowed to.
///
/// Trust is recorded by the file's resolved path and the digest of what it reaches: after a
/// `git pull` that adds a command, a file or a variable, the collection asks again.
/// Kept in the state folder (`trusted-collections.json`, mode 0600).
package struct CollectionTrust: Sendable {
    /// One trusted collection.
    package struct Entry: Codable, Sendable, Hashable {
        /// When it was trusted.
        package var since: Date
        /// The digest of what it reached then (`CollectionReach.digest`); `nil` in a list
        /// written before reach was recorded, which trusts nothing any more.
        package var reach: String?
        /// The files outside its folder it reached then, by real path: what a send may read
        /// outside the folder (`permitsReading`). `nil` in a list written before they were
        /// recorded, which trusts no file outside any more.
        package var files: [String]?

        package init(since: Date, reach: String?, files: [String]? = nil) {
            self.since = since
            self.reach = reach
            self.files = files
        }

        package init(from decoder: any Decoder) throws {
            // A list written by an earlier version holds dates alone.
            if let since = try? decoder.singleValueContainer().decode(Date.self) {
                self.init(since: since, reach: nil)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                since: try container.decode(Date.self, forKey: .since),
                reach: try container.decodeIfPresent(String.self, forKey: .reach),
                files: try container.decodeIfPresent([String].self, forKey: .files))
        }
    }

    private let file: PrivateJSONFile<[String: Entry]>

    /// The trust list of the state folder the environment names.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let url = XDGDirectories(environment: environment).stateDirectory.appendingPathComponent(
            "trusted-collections.json")
        file = PrivateJSONFile(url, holding: "the list of trusted collections", empty: [:])
    }

    /// Whether this collection file may reach what it reaches now.
    package func isTrusted(_ collectionFile: URL, reach: CollectionReach) -> Bool {
        guard !reach.isEmpty, let entry = ((try? file.read()) ?? [:])[Self.key(collectionFile)] else {
            return reach.isEmpty
        }
        // An entry from before files were listed cannot say which a send may read: it asks again.
        return entry.reach == reach.digest && (entry.files != nil || reach.files.isEmpty)
    }

    /// Lets this collection file reach what it reaches now.
    ///
    /// - Throws: `PrivateJSONFile.Failure` when the list cannot be written.
    package func trust(_ collectionFile: URL, reach: CollectionReach) throws {
        guard !isTrusted(collectionFile, reach: reach) else { return }
        try file.update { $0[Self.key(collectionFile)] = Entry(since: Date(), reach: reach.digest, files: reach.files) }
    }

    /// Whether a send from this collection file may read a file outside its folder, by the
    /// file's real path: only one the collection reached when it was trusted. Checked as the
    /// file is read, so a file of the folder replaced by a link to another file after the
    /// collection was trusted (or the TUI started) is refused.
    package func permitsReading(_ realPath: String, from collectionFile: URL) -> Bool {
        ((try? file.read()) ?? [:])[Self.key(collectionFile)]?.files?.contains(realPath) ?? false
    }

    /// Stops trusting this collection file.
    ///
    /// - Returns: whether it was trusted.
    /// - Throws: `PrivateJSONFile.Failure` when the list cannot be written.
    @discardableResult
    package func revoke(_ collectionFile: URL) throws -> Bool {
        try file.update { $0.removeValue(forKey: Self.key(collectionFile)) != nil }
    }

    /// The trusted files, with when each was trusted.
    package func list() throws -> [(path: String, since: Date)] {
        try file.read().map { ($0.key, $0.value.since) }.sorted { $0.path < $1.path }
    }

    private static func key(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}
