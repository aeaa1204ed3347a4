import CNcurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens a pseudo-terminal of the given size for the draw benchmark: the master's
/// descriptor (non-blocking) and the slave's path.
///
/// - Parameters:
///   - columns: the width.
///   - rows: the height.
/// - Returns: the master and the slave's path, or nil when no pty is available.
package func explorerBenchOpenPty(columns: UInt16, rows: UInt16) -> (fd: Int32, slave: String)? {
    let master = explorer_open_pty_master()
    guard master >= 0, let name = explorer_pty_slave_name(master) else { return nil }
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    return (master, String(cString: name))
}
