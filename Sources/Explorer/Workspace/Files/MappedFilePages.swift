import Foundation
import Synchronization

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
        mappings.withLock { $0[UInt(bitPattern: base)] = length }
    }

    /// Forgets a mapping, before it is unmapped.
    package static func unregister(_ base: UnsafeRawPointer) {
        mappings.withLock { _ = $0.removeValue(forKey: UInt(bitPattern: base)) }
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
        let lower = UInt(bitPattern: start)
        let upper = UInt(bitPattern: end)
        let inMapping = mappings.withLock { lengths in
            lengths.contains { $0.key <= lower && upper <= $0.key + UInt($0.value) }
        }
        guard inMapping else { return }
        // Whole pages inside the range only: the bytes around it may be in use.
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        let first = (lower + page - 1) / page * page
        let last = upper / page * page
        guard last > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
        madvise(address, Int(last - first), MADV_DONTNEED)
    }

    /// The registered mappings' lengths, by start address (as a number, so the state is
    /// `Sendable`; the pointers are only compared, never followed).
    private static let mappings = Mutex<[UInt: Int]>([:])
}
