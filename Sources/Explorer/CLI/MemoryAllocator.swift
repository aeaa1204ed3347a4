#if canImport(Glibc)
import Glibc
#endif

/// How the C allocator (glibc's malloc) gives memory back to the system, set once at start.
///
/// A body streams through in chunks of up to 64 KiB, each allocated, handed over and freed
/// within a few chunks. By default glibc returns the free top of a thread's heap to the
/// system as soon as it passes 128 KiB, so the next chunks fault the same pages in again:
/// `explorer send` of a 1 GiB body took 50,000–110,000 page faults and spent twice curl's time
/// in the kernel. Keeping up to 2 MiB of free top before trimming ends that churn (3,700–4,000
/// faults, the send about twice as fast); allocations of 1 MiB and more are mapped on their own, so
/// a large body's copy is given back whole the moment it is freed.
///
/// Setting either value turns off glibc's own adjustment of them, which raised both after
/// the first large allocation was freed (up to a 32 MiB mapping threshold, and a trim
/// threshold twice that), holding freed memory a long-running TUI no longer needs.
enum MemoryAllocator {
    /// The free top of a heap kept before it is trimmed.
    static let trimThreshold: Int32 = 2 << 20
    /// The size from which an allocation is a mapping of its own.
    static let mappingThreshold: Int32 = 1 << 20

    /// How many heaps (arenas) the allocator may keep for the command `arguments` run (the
    /// arguments after the program's name), or nil for glibc's default (eight per core).
    ///
    /// `explorer import` is one long single-minded pass whose trees are built and freed by
    /// whichever thread the task runs on: with one arena no worker thread grows a heap of its
    /// own page by page (4.5 % of DocuSign's import in `mprotect`); `MALLOC_ARENA_MAX=1` took
    /// that import from 1,858 to 1,758 ms (medians of 10 alternating runs).
    static func arenaLimit(arguments: [String]) -> Int32? {
        arguments.first == "import" ? 1 : nil
    }

    /// Applies the thresholds, and the arena limit for the command line this process runs;
    /// does nothing where the allocator is not glibc's.
    static func configure() {
        #if canImport(Glibc)
        // `mallopt` is declared in <malloc.h>, which the Glibc module leaves out; the
        // parameters' numbers are that header's.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        let trimThresholdParameter: Int32 = -1  // M_TRIM_THRESHOLD
        let mappingThresholdParameter: Int32 = -3  // M_MMAP_THRESHOLD
        _ = mallopt(trimThresholdParameter, trimThreshold)
        _ = mallopt(mappingThresholdParameter, mappingThreshold)
        if let arenas = arenaLimit(arguments: Array(CommandLine.arguments.dropFirst())) {
            let arenaLimitParameter: Int32 = -8  // M_ARENA_MAX
            _ = mallopt(arenaLimitParameter, arenas)
        }
        #endif
    }
}
