import Foundation
import NetworkingCore

/// Reading and writing JSON text that is known to be valid without parsing it into a
/// `JSONValue`: a streamed JSONPath query's matches, written from the document's bytes.
enum RawJSON {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// Where the valid value that starts at `start` ends (the offset after its last byte).
    static func end(ofValueAt start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = start
        var depth = 0
        repeat {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                while bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                index += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            default:
                // A number or a word: up to the byte that ends it.
                while index < bytes.count, !isSpace(bytes[index]), !",]}".utf8.contains(bytes[index]) { index += 1 }
            }
        } while depth > 0
        return index
    }

    /// How many elements the array that starts at `start` has, read without checking it is
    /// JSON (whoever reads it next checks that); `nil` when the text ends first.
    static func elementCount(ofArrayAt start: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = start + 1
        var depth = 1
        var commas = 0
        var empty = true
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                empty = false
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                empty = false
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return empty ? 0 : commas + 1 }
            case UInt8(ascii: ","):
                if depth == 1 { commas += 1 }
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: empty = false
            }
        }
        return nil
    }

    /// Whether a string literal's content (`bytes[start..<end]`, between its quotes) reads as
    /// the string whose UTF-8 is `name`, as `JSONValue(parsing:)` decodes it: escapes read,
    /// bytes that are not UTF-8 replaced by U+FFFD; compared byte for byte, as the tree's
    /// evaluator compares names.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, equals name: [UInt8])
        -> Bool
    {
        var index = start
        // Without a backslash or a byte past ASCII, the text is the string.
        while index < end, bytes[index] != 0x5C, bytes[index] < 0x80 { index += 1 }
        if index == end {
            guard end - start == name.count else { return false }
            return name.withUnsafeBufferPointer { name in
                name.isEmpty || memcmp(name.baseAddress!, bytes.baseAddress! + start, name.count) == 0
            }
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(name.count)
        index = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                let (scalar, next) = escape(at: index, in: bytes)
                decoded.append(contentsOf: String(scalar).utf8)
                index = next
            } else if byte < 0x80 {
                decoded.append(byte)
                index += 1
            } else {
                var last = index
                while last < end, bytes[last] >= 0x80 { last += 1 }
                decoded.append(contentsOf: String(decoding: bytes[index..<last], as: UTF8.self).utf8)
                index = last
            }
            if decoded.count > name.count { return false }
        }
        return decoded == name
    }

    /// The scalar a (valid) escape starting with the `\` at `index` stands for, and the offset
    /// after it: a surrogate pair is one scalar, a lone surrogate U+FFFD, as the tree's reader
    /// decodes them.
    static func escape(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Unicode.Scalar, Int) {
        switch bytes[index + 1] {
        case UInt8(ascii: "b"): return ("\u{08}", index + 2)
        case UInt8(ascii: "f"): return ("\u{0C}", index + 2)
        case UInt8(ascii: "n"): return ("\n", index + 2)
        case UInt8(ascii: "r"): return ("\r", index + 2)
        case UInt8(ascii: "t"): return ("\t", index + 2)
        case UInt8(ascii: "u"): break
        case let byte: return (Unicode.Scalar(byte), index + 2)
        }
        func quad(at offset: Int) -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var unit: UInt32 = 0
            for byte in bytes[offset..<offset + 4] {
                guard let digit = hexValue(byte) else { return nil }
                unit = unit << 4 | digit
            }
            return unit
        }
        let unit = quad(at: index + 2) ?? 0xFFFD
        let after = index + 6
        if (0xD800..<0xDC00).contains(unit), after + 6 <= bytes.count, bytes[after] == UInt8(ascii: "\\"),
            bytes[after + 1] == UInt8(ascii: "u"), let low = quad(at: after + 2), (0xDC00..<0xE000).contains(low)
        {
            return (Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}", after + 6)
        }
        return (Unicode.Scalar(unit) ?? "\u{FFFD}", after)
    }

    // MARK: - Writing

    /// Writes valid JSON values as `JSONValue.write(pretty: true)` writes them, from their
    /// text: one element or member a line, two spaces a level, `": "` after a key, numbers
    /// as written, strings as `JSONValue.quote` writes what they decode to. What it writes
    /// goes through a buffer of its own, handed over a piece of 64 KB at a time.
    final class PrettyWriter {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        let flush: (Data) -> Void
        let out: UnsafeMutablePointer<UInt8>
        var used = 0
        static let pieceSize = 1 << 16
        static let capacity = 1 << 17

        init(bytes: UnsafeBufferPointer<UInt8>, flush: @escaping (Data) -> Void) {
            // A document is never empty here (it holds a value); the pointer is only read below its count.
            self.bytes = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
            count = bytes.count
            self.flush = flush
            out = .allocate(capacity: Self.capacity)
        }

        deinit { out.deallocate() }

        /// Hands over what is written when it is a piece's worth.
        func flushIfFull() {
            guard used >= Self.pieceSize else { return }
            flushAll()
        }

        func flushAll() {
            guard used > 0 else { return }
            flush(Data(bytes: out, count: used))
            used = 0
        }

        func append(_ byte: UInt8) {
            if used == Self.capacity { flushAll() }
            out[used] = byte
            used += 1
        }

        func append(_ source: UnsafePointer<UInt8>, count: Int) {
            var source = source
            var left = count
            while left > 0 {
                if used == Self.capacity { flushAll() }
                let step = min(left, Self.capacity - used)
                (out + used).update(from: source, count: step)
                used += step
                source += step
                left -= step
            }
        }

        func append(_ text: StaticString) {
            append(text.utf8Start, count: text.utf8CodeUnitCount)
        }

        func append(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                if let base = utf8.baseAddress { append(base, count: utf8.count) }
            }
        }

        func indent(_ level: Int) {
            let spaces: StaticString = "                                                                "
            var left = 2 * level
            while left > 0 {
                let step = min(left, spaces.utf8CodeUnitCount)
                append(spaces.utf8Start, count: step)
                left -= step
            }
        }

        /// Writes the value starting at `start` as an element of the top-level array, after
        /// the array's opening when it is the first.
        ///
        /// - Returns: where the value ends.
        func writeElement(at start: Int, first: Bool) -> Int {
            append(first ? "[\n" : ",\n")
            indent(1)
            let end = writeValue(at: start, depth: 1)
            flushIfFull()
            return end
        }

        /// Ends the top-level array (`[]` when it has no element), and hands over the rest.
        func finishArray(empty: Bool) {
            append(empty ? "[]" : "\n]")
            flushAll()
        }

        func skipSpace(_ index: inout Int) {
            while index < count, isSpace(bytes[index]) { index += 1 }
        }

        /// Whether a byte ends a number or a word.
        func endsScalar(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: true
            default: false
            }
        }

        /// Writes the value starting at `start`, nested `depth` levels deep in what is written.
        ///
        /// - Returns: where the value ends.
        func writeValue(at start: Int, depth: Int) -> Int {
            var index = start
            // The closers of the open arrays and objects.
            var closers: [UInt8] = []
            while true {
                // A value.
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                    index += 1
                    skipSpace(&index)
                    if bytes[index] == closer {
                        index += 1
                        append(byte)
                        append(closer)
                    } else {
                        append(byte)
                        append(UInt8(ascii: "\n"))
                        closers.append(closer)
                        indent(depth + closers.count)
                        if closer == UInt8(ascii: "}") { writeKey(&index) }
                        continue
                    }
                case UInt8(ascii: "\""):
                    writeString(&index)
                default:
                    let start = index
                    while index < count, !endsScalar(bytes[index]) { index += 1 }
                    append(bytes + start, count: index - start)
                }
                // After a value: the next one, or the ends of the arrays and objects it closes.
                while let closer = closers.last {
                    skipSpace(&index)
                    flushIfFull()
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        skipSpace(&index)
                        append(",\n")
                        indent(depth + closers.count)
                        if closer == UInt8(ascii: "}") { writeKey(&index) }
                        break
                    }
                    index += 1
                    closers.removeLast()
                    append(UInt8(ascii: "\n"))
                    indent(depth + closers.count)
                    append(closer)
                }
                if closers.isEmpty { return index }
            }
        }

        /// Writes an object's key and `": "`, leaving `index` at its value.
        func writeKey(_ index: inout Int) {
            writeString(&index)
            skipSpace(&index)
            index += 1
            skipSpace(&index)
            append(": ")
        }

        /// Writes the string literal at `index` as `JSONValue.quote` writes what it decodes to.
        func writeString(_ index: inout Int) {
            append(UInt8(ascii: "\""))
            index += 1
            while true {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    break
                }
                if byte == UInt8(ascii: "\\") {
                    let (scalar, next) = RawJSON.escape(
                        at: index, in: UnsafeBufferPointer(start: bytes, count: count))
                    index = next
                    append(scalar)
                } else if byte < 0x80 {
                    // Text between escapes has no quote, backslash or control character.
                    var end = index + 1
                    while bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") {
                        end += 1
                    }
                    append(bytes + index, count: end - index)
                    index = end
                } else {
                    // Decoded as the reader decodes it (bytes that are not UTF-8 become U+FFFD),
                    // a piece at a time, cut where no sequence can go on: before a byte that is
                    // not a continuation byte, or one after three of them.
                    var end = index + 1
                    while bytes[end] >= 0x80, end - index < Self.pieceSize || continuesSequence(at: end) { end += 1 }
                    append(
                        String(decoding: UnsafeBufferPointer(start: bytes + index, count: end - index), as: UTF8.self))
                    index = end
                }
            }
            append(UInt8(ascii: "\""))
        }

        /// Whether the byte at `index` may belong to a UTF-8 sequence that starts before it.
        func continuesSequence(at index: Int) -> Bool {
            bytes[index] & 0xC0 == 0x80 && !(1...3).allSatisfy { bytes[index - $0] & 0xC0 == 0x80 }
        }

        /// Appends one decoded scalar as `JSONValue.quote` writes it.
        func append(_ scalar: Unicode.Scalar) {
            switch scalar {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case "\n": append("\\n")
            case "\r": append("\\r")
            case "\t": append("\\t")
            case _ where scalar.value < 0x20: append(String(format: "\\u%04x", scalar.value))
            default: append(String(scalar))
            }
        }
    }
}
