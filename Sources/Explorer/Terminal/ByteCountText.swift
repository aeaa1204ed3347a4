/// A byte count as people read it ("512 bytes", "14 KB", "10.5 MB", "4.66 GB"), in binary
/// units, the same text whatever the locale.
///
/// It reads as Foundation's `ByteCountFormatter` with `.binary` reads in English (kilobytes
/// whole, megabytes to one decimal, larger units to two, halves rounded to even), without
/// what that costs: the formatter builds an ICU number formatter at every call (0.2–0.4 ms,
/// and about 2 ms to load ICU's data the first time, on the frame that shows a process's
/// first response).
package enum ByteCountText {
    private static let units = ["KB", "MB", "GB", "TB", "PB", "EB"]

    /// The text of a byte count.
    ///
    /// - Parameter count: the number of bytes (negative counts read with a minus sign).
    /// - Returns: the count in the largest unit it fills at least once.
    package static func binary(_ count: Int64) -> String {
        if count == 0 { return "Zero KB" }
        let sign = count < 0 ? "-" : ""
        let magnitude = count.magnitude
        guard magnitude >= 1024 else {
            return sign + grouped(magnitude) + (magnitude == 1 ? " byte" : " bytes")
        }
        var unit = 0
        var scale: UInt64 = 1024
        while unit + 1 < units.count, magnitude / scale >= 1024 {
            scale *= 1024
            unit += 1
        }
        let decimals = min(unit, 2)
        let factor = [1.0, 10.0, 100.0][decimals]
        let rounded = (Double(magnitude) / Double(scale) * factor).rounded(.toNearestOrEven)
        let whole = UInt64(rounded / factor)
        var fraction = Int(rounded - Double(whole) * factor)
        var fractionDigits = decimals
        // Trailing zeros are dropped: "10 MB", "1.5 GB".
        while fractionDigits > 0, fraction % 10 == 0 {
            fraction /= 10
            fractionDigits -= 1
        }
        var text = sign + grouped(whole)
        if fractionDigits > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: fractionDigits - digits.count) + digits
        }
        return text + " " + units[unit]
    }

    /// A byte count of `Int`.
    package static func binary(_ count: Int) -> String { binary(Int64(count)) }

    /// Digits grouped by three with commas: 1,024.
    private static func grouped(_ value: UInt64) -> String {
        let digits = Array(String(value))
        var text = ""
        text.reserveCapacity(digits.count + digits.count / 3)
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
