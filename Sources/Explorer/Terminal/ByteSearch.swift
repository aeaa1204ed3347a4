/// Finding a run of bytes in bytes, without Foundation: `Data.range(of:)` costs a fraction of a
/// millisecond the first time a process calls it, and `String.contains` (with Foundation
/// imported) goes through `CFStringFind` with the locale.
package enum ByteSearch {
    /// Whether `needle` occurs in `haystack`, byte for byte (an empty needle always does).
    package static func contains(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            var matched = 1
            while matched < needle.count, haystack[start + matched] == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }
}
