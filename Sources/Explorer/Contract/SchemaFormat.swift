#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The formats the engine can assert (`format` is an annotation unless assertion is asked
/// for): RFC 3339's `date-time` and `date`, RFC 5321's `email`, RFC 4122's `uuid`, RFC 3986's
/// `uri`, and the dotted and colon forms of `ipv4` and `ipv6`.
package enum SchemaFormat: String, Sendable, CaseIterable {
    case dateTime = "date-time"
    case date
    case email
    case uuid
    case uri
    case ipv4
    case ipv6

    /// Whether `text` is of this format.
    package func accepts(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        switch self {
        case .dateTime: return FormatGrammar.isDateTime(bytes)
        case .date: return FormatGrammar.isDate(bytes[...])
        case .email: return FormatGrammar.isEmail(bytes)
        case .uuid: return FormatGrammar.isUUID(bytes)
        case .uri: return FormatGrammar.isURI(bytes)
        case .ipv4: return FormatGrammar.isIPv4(bytes[...])
        case .ipv6: return FormatGrammar.isIPv6(text)
        }
    }
}

/// The grammars, over UTF-8 bytes (a non-ASCII byte is never a digit or a letter).
enum FormatGrammar {
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66) }

    /// The number written by exactly `count` digits at `start`, or `nil`.
    static func digits(_ bytes: ArraySlice<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.endIndex else { return nil }
        var value = 0
        for index in start..<(start + count) {
            guard isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
        }
        return value
    }

    // MARK: - Dates and times (RFC 3339)

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `full-date`: `YYYY-MM-DD`, a day that exists.
    static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes.count == 10, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = digits(bytes, start, 4), let month = digits(bytes, start + 5, 2),
            let day = digits(bytes, start + 8, 2)
        else { return false }
        return (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
    }

    /// `date-time`: a full date, `T`, a time with an offset; a leap second only at 23:59:60 UTC.
    static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 20, isDate(bytes[0..<10]), bytes[10] | 0x20 == UInt8(ascii: "t") else { return false }
        let time = bytes[11...]
        guard time[11 + 2] == UInt8(ascii: ":"), time[11 + 5] == UInt8(ascii: ":"),
            let hour = digits(time, 11, 2), let minute = digits(time, 14, 2), let second = digits(time, 17, 2),
            hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { return false }
        }
        guard index < bytes.count else { return false }
        var offsetMinutes = 0
        if bytes[index] | 0x20 == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                let offsetHour = digits(bytes[...], index + 1, 2), let offsetMinute = digits(bytes[...], index + 4, 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
            index += 6
        } else {
            return false
        }
        guard index == bytes.count else { return false }
        if second == 60 {
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    // MARK: - Addresses

    /// Dotted IPv4: four numbers 0-255 without leading zeros.
    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(isDigit) else { return false }
            if part.count > 1, part.first == UInt8(ascii: "0") { return false }
            return digits(part, part.startIndex, part.count).map { $0 <= 255 } ?? false
        }
    }

    /// IPv6 as `inet_pton` reads it (no zone, no brackets, no spaces).
    static func isIPv6(_ text: String) -> Bool {
        guard text.utf8.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
            return false
        }
        var address = in6_addr()
        return inet_pton(AF_INET6, text, &address) == 1
    }

    /// A UUID: 8-4-4-4-12 hexadecimal digits.
    static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !isHex(byte) {
                return false
            }
        }
        return true
    }

    // MARK: - E-mail (RFC 5321 mailbox)

    static let atext = Set("!#$%&'*+-/=?^_`{|}~".utf8)

    static func isEmail(_ bytes: [UInt8]) -> Bool {
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        let localValid: Bool
        if local.first == UInt8(ascii: "\""), local.count >= 2, local.last == UInt8(ascii: "\"") {
            localValid = local.dropFirst().dropLast().allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }
        } else {
            localValid = local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy {
                atom in
                !atom.isEmpty && atom.allSatisfy { isAlpha($0) || isDigit($0) || atext.contains($0) }
            }
        }
        guard localValid else { return false }
        if domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") {
            let literal = domain.dropFirst().dropLast()
            let ipv6Prefix = Array("IPv6:".utf8)
            if literal.starts(with: ipv6Prefix) {
                return isIPv6(String(decoding: literal.dropFirst(ipv6Prefix.count), as: UTF8.self))
            }
            return isIPv4(literal)
        }
        return isHostname(domain)
    }

    /// A DNS name: labels of letters, digits and inner hyphens, at most 63 bytes each.
    static func isHostname(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        return bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
        }
    }

    // MARK: - URI (RFC 3986, absolute)

    static let unreservedOrSubDelimiter = Set("-._~!$&'()*+,;=".utf8)

    /// Whether every byte is unreserved, a sub-delimiter, one of `extra`, or a valid `%XX`.
    static func isEncoded(_ bytes: ArraySlice<UInt8>, extra: String) -> Bool {
        let extraBytes = Set(extra.utf8)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isAlpha(byte) || isDigit(byte) || unreservedOrSubDelimiter.contains(byte) || extraBytes.contains(byte)
            else { return false }
            index += 1
        }
        return true
    }

    static func isURI(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isAlpha(bytes[0]),
            bytes[1..<colon].allSatisfy({
                isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { return false }
        var rest = bytes[(colon + 1)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard isEncoded(rest[(hash + 1)...], extra: ":@/?") else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard isEncoded(rest[(question + 1)...], extra: ":@/?") else { return false }
            rest = rest[..<question]
        }
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let afterSlashes = rest.dropFirst(2)
            let authorityEnd = afterSlashes.firstIndex(of: UInt8(ascii: "/")) ?? afterSlashes.endIndex
            guard isAuthority(afterSlashes[..<authorityEnd]) else { return false }
            rest = afterSlashes[authorityEnd...]
        }
        return isEncoded(rest, extra: ":@/")
    }

    /// `[ userinfo "@" ] host [ ":" port ]`.
    static func isAuthority(_ bytes: ArraySlice<UInt8>) -> Bool {
        var hostPart = bytes
        if let at = bytes.lastIndex(of: UInt8(ascii: "@")) {
            guard isEncoded(bytes[..<at], extra: ":") else { return false }
            hostPart = bytes[(at + 1)...]
        }
        if hostPart.first == UInt8(ascii: "[") {
            guard let close = hostPart.firstIndex(of: UInt8(ascii: "]")),
                isIPv6(String(decoding: hostPart[(hostPart.startIndex + 1)..<close], as: UTF8.self))
            else { return false }
            let after = hostPart[(close + 1)...]
            return after.isEmpty || (after.first == UInt8(ascii: ":") && after.dropFirst().allSatisfy(isDigit))
        }
        if let colon = hostPart.lastIndex(of: UInt8(ascii: ":")) {
            guard hostPart[(colon + 1)...].allSatisfy(isDigit) else { return false }
            hostPart = hostPart[..<colon]
        }
        return isEncoded(hostPart, extra: "")
    }
}
