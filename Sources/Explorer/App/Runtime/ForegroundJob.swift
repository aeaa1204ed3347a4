#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs another program in the terminal as a shell runs a foreground job: in a process group
/// of its own that is made the terminal's foreground group, so that it may read the terminal
/// (a program of a background group that reads is stopped by SIGTTIN, or gets EIO when no
/// shell is there to continue it), and `Ctrl-C` / `Ctrl-Z` reach it and not the explorer.
///
/// Job control: when the program stops (`Ctrl-Z` in vi), the terminal is taken back and the
/// explorer stops itself too, so the shell gets the terminal; on `fg` the program gets the
/// terminal again and is continued. Without a shell that could continue it (an orphaned
/// process group, as in a terminal multiplexer's pane), the stop is refused by the kernel and
/// the program is simply continued.
enum ForegroundJob {
    /// How the program ended.
    enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// It was killed by this signal.
        case signaled(Int32)
        /// It could not be started (`errno`'s description).
        case notStarted(String)
    }

    /// Runs `executable` with `arguments` (the first is its name) on the controlling terminal
    /// and waits until it ends.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its argument vector, name first.
    ///   - environment: its environment.
    ///   - terminalPath: the terminal it reads and writes (`/dev/tty`).
    /// - Returns: how it ended.
    static func run(
        executable: String, arguments: [String], environment: [String: String], terminalPath: String = "/dev/tty"
    ) -> Termination {
        let terminal = open(terminalPath, O_RDWR | O_CLOEXEC)
        defer { if terminal >= 0 { close(terminal) } }
        let ownGroup = getpgrp()
        // Only a process in the terminal's foreground group may hand the foreground over.
        let handsOverForeground = terminal >= 0 && tcgetpgrp(terminal) == ownGroup

        // Taking the terminal back from the background (tcsetpgrp) raises SIGTTOU unless it
        // is ignored; the child gets every job-control signal at its default.
        let previousTTOU = signal(SIGTTOU, SIG_IGN)
        defer { signal(SIGTTOU, previousTTOU) }

        let spawned = spawn(
            executable: executable, arguments: arguments, environment: environment,
            terminal: terminal, ownGroup: handsOverForeground ? 0 : nil)
        guard case .success(let child) = spawned else {
            if case .failure(let message) = spawned { return .notStarted(message.text) }
            return .notStarted("unknown error")
        }
        if handsOverForeground {
            _ = tcsetpgrp(terminal, child)
            // It may have read before it was the foreground and been stopped for it.
            _ = kill(-child, SIGCONT)
        }
        defer { if handsOverForeground { _ = tcsetpgrp(terminal, ownGroup) } }

        var status: Int32 = 0
        while true {
            let waited = waitpid(child, &status, WUNTRACED)
            if waited < 0 {
                if errno == EINTR { continue }
                return .notStarted(String(cString: strerror(errno)))
            }
            guard status & 0xFF == 0x7F else { break }  // WIFSTOPPED
            let stopSignal = (status >> 8) & 0xFF
            if handsOverForeground, stopSignal != SIGTTIN, stopSignal != SIGTTOU {
                // Ctrl-Z in the program: the shell gets the terminal, with the explorer stopped.
                _ = tcsetpgrp(terminal, ownGroup)
                stopSelf()
                _ = tcsetpgrp(terminal, child)
            } else if handsOverForeground {
                _ = tcsetpgrp(terminal, child)
            } else if stopSignal == SIGTTIN || stopSignal == SIGTTOU {
                // The explorer is not the terminal's foreground either: the program cannot
                // have the terminal, and would stop again at once.
                _ = kill(child, SIGHUP)
            }
            _ = kill(handsOverForeground ? -child : child, SIGCONT)
        }
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }  // WIFEXITED
        return .signaled(status & 0x7F)
    }

    /// Stops the explorer as `Ctrl-Z` would; returns when it is continued, or at once when no
    /// shell could continue it (the kernel discards SIGTSTP for an orphaned process group).
    ///
    /// The signal is sent to this thread, where it is unblocked and at its default action, so it
    /// acts before `pthread_kill` returns. Sent to the process (`kill(getpid(), …)`), another
    /// thread could take it after the disposition was put back (ncurses' handler), about 3 times
    /// in 10 here: the explorer went on running, and vi was continued without the shell.
    private static func stopSelf() {
        let previous = signal(SIGTSTP, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGTSTP)
        var saved = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &unblocked, &saved)
        _ = pthread_kill(pthread_self(), SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &saved, nil)
        signal(SIGTSTP, previous)
    }

    private struct SpawnError: Error { let text: String }

    private static func spawn(
        executable: String, arguments: [String], environment: [String: String], terminal: Int32, ownGroup: pid_t?
    ) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if terminal >= 0 {
            for target: Int32 in 0...2 { posix_spawn_file_actions_adddup2(&actions, terminal, target) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        if let ownGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, ownGroup)
        }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGPIPE, SIGWINCH, SIGTERM, SIGHUP] {
            sigaddset(&defaults, number)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(SpawnError(text: String(cString: strerror(result)))) }
        return .success(child)
    }
}
