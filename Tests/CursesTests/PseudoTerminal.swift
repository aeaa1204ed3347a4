import CNcurses
import Foundation

@testable import Terminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real pseudo-terminal for tests: the app side gets the slave as `FILE` streams, the
/// test reads and writes the master like a terminal emulator would.
final class PseudoTerminal {
    private(set) var master: Int32
    let slavePath: String
    private(set) var output: [UInt8] = []

    init(columns: UInt16, rows: UInt16) throws {
        master = explorer_open_pty_master()
        guard master >= 0, let name = explorer_pty_slave_name(master) else {
            throw POSIXError(.ENODEV)
        }
        slavePath = String(cString: name)
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    deinit { hangUp() }

    /// Closes the master, as a terminal emulator that quits does.
    func hangUp() {
        if master >= 0 { close(master) }
        master = -1
    }

    /// Opens the slave as input and output streams for ncurses.
    func openSlave() throws -> (input: UnsafeMutablePointer<FILE>, output: UnsafeMutablePointer<FILE>) {
        guard let input = fopen(slavePath, "r"), let output = fopen(slavePath, "w") else { throw POSIXError(.EIO) }
        return (input, output)
    }

    /// Types bytes as if at the keyboard.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads everything the app wrote so far.
    @discardableResult
    func drain() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer.prefix(count)
        }
        return output
    }

    /// Reads until the output contains `needle` or the deadline passes.
    func waitForOutput(containing needle: String, timeout: TimeInterval = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        let pattern = Array(needle.utf8)
        repeat {
            drain()
            if output.firstRange(of: pattern) != nil { return true }
            if Date() >= deadline { return false }
            usleep(2000)
        } while true
    }

    var outputText: String { String(decoding: output, as: UTF8.self) }
}
