import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The start of every line of a byte buffer, found once with `memchr`, so any line of a
/// large body can be fetched in constant time.
///
/// Lines end at `\n`; a `\r` before it is not part of the line. A buffer ending in `\n`
/// has no empty last line.
package struct LineIndex: Sendable {
    /// The bytes.
    package let bytes: [UInt8]
    /// Byte offset of each line's start.
    package let lineStarts: [Int]

    /// Indexes a byte buffer.
    ///
    /// - Parameter bytes: the body.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts: [Int] = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return }
            // Count first and allocate once: growing by doubling would briefly hold the
            // index twice, which for a 50 MB body is tens of megabytes.
            var newlines = 0
            var scan = 0
            while scan < buffer.count, let hit = memchr(base + scan, 0x0A, buffer.count - scan) {
                newlines += 1
                scan = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
            }
            starts.reserveCapacity(newlines + 1)
            var position = 0
            while position < buffer.count,
                let hit = memchr(base + position, 0x0A, buffer.count - position)
            {
                let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                position = offset + 1
                if position < buffer.count { starts.append(position) }
            }
        }
        self.lineStarts = starts
    }

    /// Indexes `Data`.
    package init(_ data: Data) {
        self.init([UInt8](data))
    }

    /// Indexes a string's UTF-8.
    package init(text: String) {
        self.init(Array(text.utf8))
    }

    /// The number of lines (at least 1, an empty buffer has one empty line).
    package var lineCount: Int { lineStarts.count }

    /// The byte range of a line, without its `\n` or `\r\n`.
    package func range(ofLine index: Int) -> Range<Int> {
        guard index >= 0, index < lineStarts.count else { return 0..<0 }
        let start = lineStarts[index]
        var end = index + 1 < lineStarts.count ? lineStarts[index + 1] - 1 : bytes.count
        if index + 1 == lineStarts.count, end > start, bytes[end - 1] == 0x0A { end -= 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<max(start, end)
    }

    /// The length in bytes of a line.
    package func byteCount(ofLine index: Int) -> Int { range(ofLine: index).count }

    /// A line decoded as UTF-8 (invalid sequences become U+FFFD), cut at `maxBytes` on a
    /// character boundary.
    ///
    /// - Parameters:
    ///   - index: the line.
    ///   - maxBytes: the most bytes to decode.
    /// - Returns: the line's text, unsanitized.
    package func line(_ index: Int, maxBytes: Int = .max) -> String {
        let range = range(ofLine: index)
        var end = range.upperBound
        if range.count > maxBytes {
            end = range.lowerBound + maxBytes
            // Back up over continuation bytes so a character is not split.
            var back = 0
            while end > range.lowerBound, back < 3, bytes[end] & 0xC0 == 0x80 {
                end -= 1
                back += 1
            }
        }
        return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self)
    }

    /// The first line at or after `start` (wrapping around) that contains `needle`,
    /// compared ASCII case-insensitively on the raw bytes.
    ///
    /// - Parameters:
    ///   - needle: the text searched for.
    ///   - start: the first line to look at.
    ///   - backwards: search towards the top instead.
    /// - Returns: the line's index, or nil when no line contains it.
    package func firstLine(containing needle: String, from start: Int, backwards: Bool = false) -> Int? {
        let pattern = Array(needle.utf8).map(LineIndex.lower)
        guard !pattern.isEmpty, lineCount > 0 else { return nil }
        var line = min(max(0, start), lineCount - 1)
        for _ in 0..<lineCount {
            if contains(pattern, inLine: line) { return line }
            line = backwards ? (line - 1 + lineCount) % lineCount : (line + 1) % lineCount
        }
        return nil
    }

    /// Every line that contains `needle`, compared ASCII case-insensitively, in order.
    ///
    /// - Parameter needle: the text searched for.
    /// - Returns: the lines' indexes (empty for an empty needle).
    package func lines(containing needle: String) -> [Int] {
        let pattern = Array(needle.utf8).map(LineIndex.lower)
        guard !pattern.isEmpty else { return [] }
        return (0..<lineCount).filter { contains(pattern, inLine: $0) }
    }

    private func contains(_ pattern: [UInt8], inLine index: Int) -> Bool {
        let range = range(ofLine: index)
        guard range.count >= pattern.count else { return false }
        let first = pattern[0]
        var i = range.lowerBound
        let last = range.upperBound - pattern.count
        while i <= last {
            if LineIndex.lower(bytes[i]) == first {
                var j = 1
                while j < pattern.count, LineIndex.lower(bytes[i + j]) == pattern[j] { j += 1 }
                if j == pattern.count { return true }
            }
            i += 1
        }
        return false
    }

    @inline(__always)
    package static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 32 : byte
    }
}
