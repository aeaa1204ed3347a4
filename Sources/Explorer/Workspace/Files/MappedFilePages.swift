import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The memory mapped from files (a large body's spool) whose pages a pass over them may let
/// go: the kernel reads them from the file again when they are touched, so a pass over a
/// whole body (a search, a fold, the history's copy) does not leave it resident. Memory that
/// is not such a mapping is never released (its bytes would be lost).
package enum MappedFilePages {
    /// Records a read-only file mapping whose pages may be let go.
    ///
    /// - Parameters:
    ///   - base: where the mapping starts.
    ///   - length: its length in bytes.
    package static func register(_ base: UnsafeRawPointer, length: Int) {
        mappings.insert(base, length: length)
    }

    /// Forgets a mapping, before it is unmapped.
    package static func unregister(_ base: UnsafeRawPointer) {
        mappings.remove(base)
    }

    /// Lets the kernel take back the whole pages of `range` of `bytes` when they lie in a
    /// registered mapping; other memory is left alone.
    ///
    /// - Parameters:
    ///   - bytes: bytes that may be (part of) a registered mapping.
    ///   - range: offsets into `bytes`.
    package static func release(of bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        guard let base = bytes.baseAddress, !range.isEmpty else { return }
        let start = base + range.lowerBound
        let end = base + range.upperBound
        guard mappings.contains(start..<end) else { return }
        // Whole pages inside the range only: the bytes around it may be in use.
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let first = (UInt(bitPattern: start) + page - 1) / page * page
        let last = UInt(bitPattern: end) / page * page
        guard last > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
        madvise(address, Int(last - first), MADV_DONTNEED)
    }

    /// The registered mappings, by start address.
    private static let mappings = Registry()

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var lengths: [UnsafeRawPointer: Int] = [:]
        func insert(_ base: UnsafeRawPointer, length: Int) { lock.withLock { lengths[base] = length } }
        func remove(_ base: UnsafeRawPointer) { lock.withLock { _ = lengths.removeValue(forKey: base) } }
        /// Whether `range` lies inside one mapping.
        func contains(_ range: Range<UnsafeRawPointer>) -> Bool {
            lock.withLock { lengths.contains { $0.key <= range.lowerBound && range.upperBound <= $0.key + $0.value } }
        }
    }
}
