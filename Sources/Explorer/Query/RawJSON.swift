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

    /// Whether a string literal's content (between its quotes) reads as the string whose UTF-8
    /// is `name`, as `JSONValue(parsing:)` decodes it: escapes read, bytes that are not UTF-8
    /// replaced by U+FFFD; compared byte for byte, as the tree's evaluator compares names.
    static func string(_ content: Slice<UnsafeBufferPointer<UInt8>>, equals name: [UInt8]) -> Bool {
        if !content.contains(where: { $0 == UInt8(ascii: "\\") || $0 >= 0x80 }) {
            return content.elementsEqual(name)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(name.count)
        var index = content.startIndex
        let base = content.base
        while index < content.endIndex {
            let byte = base[index]
            if byte == UInt8(ascii: "\\") {
                let (scalar, next) = escape(at: index, in: base)
                decoded.append(contentsOf: String(scalar).utf8)
                index = next
            } else if byte < 0x80 {
                decoded.append(byte)
                index += 1
            } else {
                var end = index
                while end < content.endIndex, base[end] >= 0x80 { end += 1 }
                decoded.append(contentsOf: String(decoding: base[index..<end], as: UTF8.self).utf8)
                index = end
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
    /// as written, strings as `JSONValue.quote` writes what they decode to.
    struct PrettyWriter {
        let bytes: UnsafeBufferPointer<UInt8>
        let flush: (Data) -> Void
        var out: [UInt8] = []
        static let pieceSize = 1 << 16

        init(bytes: UnsafeBufferPointer<UInt8>, flush: @escaping (Data) -> Void) {
            self.bytes = bytes
            self.flush = flush
            out.reserveCapacity(Self.pieceSize + 4096)
        }

        /// Hands over what is written when it is a piece's worth.
        mutating func flushIfFull() {
            guard out.count >= Self.pieceSize else { return }
            flushAll()
        }

        mutating func flushAll() {
            guard !out.isEmpty else { return }
            flush(Data(out))
            out.removeAll(keepingCapacity: true)
        }

        mutating func indent(_ level: Int) {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
        }

        /// A JSON array of the values starting at `starts`, as the top level (`[]` when empty).
        mutating func writeArray(of starts: [Int]) {
            guard !starts.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(contentsOf: "[\n".utf8)
            for (position, start) in starts.enumerated() {
                indent(1)
                writeValue(at: start, depth: 1)
                if position < starts.count - 1 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "\n"))
                flushIfFull()
            }
            out.append(UInt8(ascii: "]"))
        }

        mutating func skipSpace(_ index: inout Int) {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        }

        /// Writes the value starting at `start`, nested `depth` levels deep in what is written.
        mutating func writeValue(at start: Int, depth: Int) {
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
                        out.append(byte)
                        out.append(closer)
                    } else {
                        out.append(byte)
                        out.append(UInt8(ascii: "\n"))
                        closers.append(closer)
                        indent(depth + closers.count)
                        if closer == UInt8(ascii: "}") { writeKey(&index) }
                        continue
                    }
                case UInt8(ascii: "\""):
                    writeString(&index)
                default:
                    let start = index
                    while index < bytes.count, !isSpace(bytes[index]), !",]}".utf8.contains(bytes[index]) {
                        index += 1
                    }
                    out.append(contentsOf: bytes[start..<index])
                }
                // After a value: the next one, or the ends of the arrays and objects it closes.
                while let closer = closers.last {
                    skipSpace(&index)
                    flushIfFull()
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        skipSpace(&index)
                        out.append(contentsOf: ",\n".utf8)
                        indent(depth + closers.count)
                        if closer == UInt8(ascii: "}") { writeKey(&index) }
                        break
                    }
                    index += 1
                    closers.removeLast()
                    out.append(UInt8(ascii: "\n"))
                    indent(depth + closers.count)
                    out.append(closer)
                }
                if closers.isEmpty { return }
            }
        }

        /// Writes an object's key and `": "`, leaving `index` at its value.
        mutating func writeKey(_ index: inout Int) {
            writeString(&index)
            skipSpace(&index)
            index += 1
            skipSpace(&index)
            out.append(contentsOf: ": ".utf8)
        }

        /// Writes the string literal at `index` as `JSONValue.quote` writes what it decodes to.
        mutating func writeString(_ index: inout Int) {
            out.append(UInt8(ascii: "\""))
            index += 1
            while true {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    break
                }
                if byte == UInt8(ascii: "\\") {
                    let (scalar, next) = RawJSON.escape(at: index, in: bytes)
                    index = next
                    append(scalar)
                } else if byte < 0x80 {
                    // Text between escapes has no quote, backslash or control character.
                    var end = index + 1
                    while bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"),
                        end - index < Self.pieceSize
                    {
                        end += 1
                    }
                    out.append(contentsOf: bytes[index..<end])
                    index = end
                } else {
                    // Decoded as the reader decodes it (bytes that are not UTF-8 become U+FFFD),
                    // a piece at a time, cut where no sequence can go on: before a byte that is not a
                    // continuation byte, or one after three of them.
                    var end = index + 1
                    while bytes[end] >= 0x80, end - index < Self.pieceSize || continuesSequence(at: end) { end += 1 }
                    out.append(contentsOf: String(decoding: bytes[index..<end], as: UTF8.self).utf8)
                    index = end
                }
                flushIfFull()
            }
            out.append(UInt8(ascii: "\""))
        }

        /// Whether the byte at `index` may belong to a UTF-8 sequence that starts before it.
        func continuesSequence(at index: Int) -> Bool {
            bytes[index] & 0xC0 == 0x80 && !(1...3).allSatisfy { bytes[index - $0] & 0xC0 == 0x80 }
        }

        /// Appends one decoded scalar as `JSONValue.quote` writes it.
        mutating func append(_ scalar: Unicode.Scalar) {
            switch scalar {
            case "\"": out.append(contentsOf: "\\\"".utf8)
            case "\\": out.append(contentsOf: "\\\\".utf8)
            case "\n": out.append(contentsOf: "\\n".utf8)
            case "\r": out.append(contentsOf: "\\r".utf8)
            case "\t": out.append(contentsOf: "\\t".utf8)
            case _ where scalar.value < 0x20: out.append(contentsOf: String(format: "\\u%04x", scalar.value).utf8)
            default: out.append(contentsOf: String(scalar).utf8)
            }
        }
    }
}
