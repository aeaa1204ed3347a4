extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal, two digits each and nothing between (a digest as
    /// `sha256sum` prints it).
    var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
