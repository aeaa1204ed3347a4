/// Standard base64, written padded; read standard or URL-safe, padded or not.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let chunk = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(second == nil ? UInt8(ascii: "=") : alphabet[Int(chunk >> 6 & 63)])
            output.append(third == nil ? UInt8(ascii: "=") : alphabet[Int(chunk & 63)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text`, or nil when it is not base64 (a stray character, a lone last
    /// character, padding in the middle).
    static func decode(_ text: String) -> [UInt8]? {
        var input = Array(text.utf8)
        while input.last == UInt8(ascii: "=") { input.removeLast() }
        guard input.count % 4 != 1, text.utf8.count - input.count <= 2 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in input {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return output
    }
}

/// RFC 3339 timestamps and `1.5s` durations as protobuf's JSON writes and reads them.
enum TimeText {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in seconds since the epoch.
    static let minimumSeconds: Int64 = -62_135_596_800
    static let maximumSeconds: Int64 = 253_402_300_799
    static let maximumDurationSeconds: Int64 = 315_576_000_000

    /// The nanoseconds as protobuf prints them: none, 3, 6 or 9 digits.
    static func fraction(_ nanos: Int32) -> String {
        guard nanos != 0 else { return "" }
        let digits: String
        if nanos % 1_000_000 == 0 {
            digits = padded(Int(nanos / 1_000_000), 3)
        } else if nanos % 1000 == 0 {
            digits = padded(Int(nanos / 1000), 6)
        } else {
            digits = padded(Int(nanos), 9)
        }
        return "." + digits
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    private static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func timestamp(seconds: Int64, nanos: Int32) -> String? {
        guard seconds >= minimumSeconds, seconds <= maximumSeconds, nanos >= 0, nanos < 1_000_000_000 else {
            return nil
        }
        let days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
        let secondOfDay = seconds - days * 86400
        let date = civil(days: days)
        return padded(Int(date.year), 4) + "-" + padded(Int(date.month), 2) + "-" + padded(Int(date.day), 2) + "T"
            + padded(Int(secondOfDay / 3600), 2) + ":" + padded(Int(secondOfDay / 60 % 60), 2) + ":"
            + padded(Int(secondOfDay % 60), 2) + fraction(nanos) + "Z"
    }

    /// Seconds and nanoseconds of an RFC 3339 time with a `Z` or `±hh:mm` offset.
    static func parseTimestamp(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        let bytes = Array(text.utf8)
        var position = 0
        func number(_ width: Int) -> Int64? {
            guard position + width <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<(position + width)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            position += width
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard position < bytes.count, bytes[position] == character.asciiValue! else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("T") || expect("t"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24,
            minute < 60, second < 60
        else { return nil }
        var nanos: Int64 = 0
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            var digits = 0
            while position < bytes.count, bytes[position] >= 48, bytes[position] <= 57 {
                guard digits < 9 else { return nil }
                nanos = nanos * 10 + Int64(bytes[position] - 48)
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offset: Int64 = 0
        if expect("Z") || expect("z") {
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let hours = number(2), expect(":"), let minutes = number(2), hours < 24, minutes < 60 else {
                return nil
            }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard position == bytes.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second - offset
        guard seconds >= minimumSeconds, seconds <= maximumSeconds else { return nil }
        return (seconds, Int32(nanos))
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func duration(seconds: Int64, nanos: Int32) -> String? {
        guard abs(seconds) <= maximumDurationSeconds, abs(nanos) < 1_000_000_000,
            seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0)
        else { return nil }
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(abs(seconds)) + fraction(abs(nanos)) + "s"
    }

    /// Seconds and nanoseconds (both of the value's sign) of `-1.5s`.
    static func parseDuration(_ text: String) -> (seconds: Int64, nanos: Int32)? {
        guard text.hasSuffix("s") else { return nil }
        var body = Substring(text.dropLast())
        let negative = body.hasPrefix("-")
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber),
            let seconds = Int64(whole), seconds <= maximumDurationSeconds
        else { return nil }
        var nanos: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCII),
                fraction.allSatisfy(\.isNumber), let value = Int64(fraction)
            else { return nil }
            nanos = value
            for _ in fraction.count..<9 { nanos *= 10 }
        }
        return negative ? (-seconds, Int32(-nanos)) : (seconds, Int32(nanos))
    }
}

/// FieldMask paths between their proto form (`foo_bar.baz`) and JSON's (`fooBar.baz`).
enum FieldMaskText {
    static func toJSON(_ path: String) -> String { SchemaResolver.lowerCamel(path) }

    static func fromJSON(_ path: String) -> String {
        var result = ""
        for character in path {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
