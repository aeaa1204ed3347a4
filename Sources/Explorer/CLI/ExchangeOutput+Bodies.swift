import Foundation

/// A body written a piece at a time: as a JSON string (escaped) or base64 for `--json`, as
/// text with its controls escaped on a terminal. No piece is larger than `pieceSize` bytes,
/// so printing a 100 MB body costs a few hundred kilobytes beside the body, not copies of it.
struct BodyPieces {
    /// The bytes read at a time (a multiple of 3, so base64 pieces join without padding).
    static let pieceSize = 3 * 21_846

    let body: Data

    /// Whether the whole body is UTF-8 (checked a piece at a time).
    var isUTF8: Bool {
        var valid = true
        forEachPiece(characterAligned: true) { piece in
            valid = String(validating: piece, as: UTF8.self) != nil
            return valid
        }
        return valid
    }

    /// Writes the body as the inside of a JSON string (without the quotes): `"`, `\` and
    /// controls escaped as `JSONSerialization` escapes them, DEL and the C1 controls (which it
    /// leaves raw, and a terminal acts on) as `\u007f`-style escapes, everything else as it is.
    /// The body must be UTF-8 (`isUTF8`).
    func writeJSONString(_ write: (Data) -> Void) {
        var out = Data(capacity: Self.pieceSize + Self.pieceSize / 4)
        // Aligned on characters, so that a C1 control's two bytes are in one piece.
        forEachPiece(characterAligned: true) { piece in
            var run = 0
            var index = 0
            while index < piece.count {
                let byte = piece[index]
                let length: Int
                let escaped: UInt8
                if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F {
                    (length, escaped) = (1, byte)
                } else if byte == 0xC2, index + 1 < piece.count, (0x80...0x9F).contains(piece[index + 1]) {
                    (length, escaped) = (2, piece[index + 1])
                } else {
                    index += 1
                    continue
                }
                if run < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: piece[run..<index])) }
                out.append(contentsOf: Self.jsonEscape(escaped))
                index += length
                run = index
            }
            if run < piece.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: piece[run...])) }
            write(out)
            out.removeAll(keepingCapacity: true)
            return true
        }
    }

    /// Writes the body as base64, without line breaks.
    func writeBase64(_ write: (Data) -> Void) {
        forEachPiece(characterAligned: false) { piece in
            write(Data(Data(buffer: piece).base64EncodedString().utf8))
            return true
        }
    }

    /// Writes UTF-8 text with its controls escaped (`ExchangeOutput.escapingControls`), ending
    /// with a newline.
    func writeEscapedText(_ write: (Data) -> Void) {
        var last: UInt8 = 0x0A
        forEachPiece(characterAligned: true) { piece in
            let text = String(decoding: piece, as: UTF8.self)
            write(Data(ExchangeOutput.escapingControls(text).utf8))
            last = piece.last ?? last
            return true
        }
        if body.isEmpty || last != 0x0A { write(Data([0x0A])) }
    }

    /// The escape `JSONSerialization` writes for one of the bytes a JSON string escapes.
    private static func jsonEscape(_ byte: UInt8) -> [UInt8] {
        switch byte {
        case 0x22: return Array(#"\""#.utf8)
        case 0x5C: return Array(#"\\"#.utf8)
        case 0x0A: return Array(#"\n"#.utf8)
        case 0x0D: return Array(#"\r"#.utf8)
        case 0x09: return Array(#"\t"#.utf8)
        case 0x08: return Array(#"\b"#.utf8)
        case 0x0C: return Array(#"\f"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            return Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
        }
    }

    /// Calls `body` with each piece of the body in order until it returns false. With
    /// `characterAligned`, a piece never ends inside a UTF-8 sequence (it ends before the
    /// lead byte of one cut by `pieceSize`).
    private func forEachPiece(characterAligned: Bool, _ each: (UnsafeBufferPointer<UInt8>) -> Bool) {
        body.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                var end = min(bytes.count, start + Self.pieceSize)
                if characterAligned, end < bytes.count {
                    // Back over continuation bytes (at most three) to a character's start.
                    var back = end
                    while back > start, end - back < 3, bytes[back] & 0xC0 == 0x80 { back -= 1 }
                    if back > start, bytes[back] & 0xC0 != 0x80 { end = back }
                }
                guard each(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return }
                start = end
            }
        }
    }
}
