import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A large body's bytes on disk instead of in memory, read back through a memory map.
///
/// The file is created in the temporary folder (mode 0600) and unlinked at once, so it has no
/// name: nothing is left behind when the exchange is dropped, when the explorer exits, or when
/// it is ended by SIGTERM, SIGHUP or even SIGKILL; the kernel frees the space when the last
/// descriptor or mapping goes.
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
        guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), address != MAP_FAILED else { return nil }
        let length = size
        Self.mappings.insert(address)
        return Data(bytesNoCopy: address, count: length, deallocator: .custom { pointer, count in
            Self.mappings.remove(pointer)
            munmap(pointer, count)
        })
    }

    /// Lets the kernel take back the pages of `range` of `bytes` when they are a spool
    /// mapping: a pass over a whole body (a search, a fold) then does not leave the body
    /// resident; pages read again come back from the file. Memory that is not a spool mapping
    /// is left alone.
    static func releasePages(of bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        guard let base = bytes.baseAddress, mappings.contains(base) else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = range.lowerBound / page * page
        let end = range.upperBound / page * page
        guard end > start else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, MADV_DONTNEED)
    }

    /// The start addresses of the spool mappings alive.
    private static let mappings = MappingSet()

    private final class MappingSet: @unchecked Sendable {
        private let lock = NSLock()
        private var addresses: Set<UnsafeRawPointer> = []
        func insert(_ address: UnsafeMutableRawPointer) { lock.withLock { _ = addresses.insert(UnsafeRawPointer(address)) } }
        func remove(_ address: UnsafeMutableRawPointer) { lock.withLock { _ = addresses.remove(UnsafeRawPointer(address)) } }
        func contains(_ address: UnsafeRawPointer) -> Bool { lock.withLock { addresses.contains(address) } }
    }
}
