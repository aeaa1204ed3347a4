import Foundation
import Workspace

#if canImport(Glibc)
import Glibc
#endif

/// A large body's bytes on disk instead of in memory, read back through a memory map.
///
/// The file is created in the temporary folder (mode 0600) and unlinked at once, so it has no
/// name: nothing is left behind when the exchange is dropped, when the explorer exits, or when
/// it is ended by SIGTERM, SIGHUP or even SIGKILL; the kernel frees the space when the last
/// descriptor or mapping goes.
///
/// Unchecked `Sendable`, sound because `descriptor` is immutable and `size` is written and read
/// only by the owning `LiveBody`, on its request's serial queue; a mapping handed out is read-only.
final class BodySpool: @unchecked Sendable {
    private let descriptor: Int32
    /// Bytes written.
    private(set) var size = 0

    /// Creates an unnamed spool file.
    ///
    /// - Parameter folder: where it is created (default: the temporary folder).
    /// - Throws: a `POSIXError` when the file cannot be created.
    init(in folder: URL = FileManager.default.temporaryDirectory) throws {
        var template = Array(folder.appendingPathComponent("explorer-body-XXXXXX").path.utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        fchmod(descriptor, 0o600)
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Appends bytes.
    ///
    /// - Throws: a `POSIXError` when the disk refuses them (full, quota).
    func write(_ data: Data) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
        size += data.count
    }

    /// The bytes written, memory-mapped: pages are read from the file as they are touched and
    /// can be dropped again by the kernel, so a large body does not stay resident.
    ///
    /// - Returns: the mapped bytes (empty for an empty spool), or `nil` when mapping failed.
    func mapped() -> Data? {
        guard size > 0 else { return Data() }
        guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else {
            return nil
        }
        let length = size
        // A whole pass over the body lets the pages it read go (MappedFilePages.release).
        MappedFilePages.register(address, length: length)
        return Data(
            bytesNoCopy: address, count: length,
            deallocator: .custom { pointer, count in
                MappedFilePages.unregister(pointer)
                munmap(pointer, count)
            })
    }

    /// Maps the spool's first `length` bytes at `address`, in place of whatever is mapped
    /// there (`MAP_FIXED`: the old pages go in the same step, so a reader of those addresses
    /// on another thread sees the old bytes or the file's, never a hole). The caller owns the
    /// range and unmaps it; it must hold the same bytes the file starts with.
    ///
    /// - Returns: whether the file is mapped there now (when not, Linux 6.12 and later leave
    ///   the range as it was).
    func map(over address: UnsafeMutableRawPointer, length: Int) -> Bool {
        guard length > 0, length <= size else { return false }
        let mapped = mmap(address, Self.pageRounded(length), PROT_READ, MAP_SHARED | MAP_FIXED, descriptor, 0)
        return mapped == address
    }

    /// `length` rounded up to whole pages.
    static func pageRounded(_ length: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return (length + page - 1) / page * page
    }
}
