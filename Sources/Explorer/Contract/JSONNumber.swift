import Foundation
import NetworkingCore

/// JSON's numbers as JSON Schema compares them: by value, not by text (`1` equals `1.0`).
enum JSONNumber {
    /// Whether a number's text is a whole number (`3`, `1.0`, `1e2`).
    static func isInteger(_ text: String) -> Bool {
        var plain = true
        for byte in text.utf8 where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        {
            plain = false
            break
        }
        if plain { return true }
        guard let value = Double(text), value.isFinite else { return false }
        return value == value.rounded(.towardZero)
    }

    /// Whether `text` is a multiple of `divisor`: exactly in decimal when both fit `Decimal`,
    /// else in binary floating point.
    static func isMultiple(_ text: String, of divisor: Divisor) -> Bool {
        if let decimal = divisor.decimal, let value = Decimal(string: text), !value.isNaN, value.exponent > -100 {
            var quotient = value / decimal
            var whole = Decimal()
            NSDecimalRound(&whole, &quotient, 0, .down)
            if !quotient.isNaN { return whole == quotient }
        }
        guard let value = Double(text) else { return false }
        let quotient = value / divisor.double
        guard quotient.isFinite else { return false }
        return quotient == quotient.rounded(.towardZero)
    }

    /// A `multipleOf` divisor in both forms.
    struct Divisor: Sendable {
        let double: Double
        let decimal: Decimal?

        init?(_ text: String) {
            guard let double = Double(text), double > 0 else { return nil }
            self.double = double
            let decimal = Decimal(string: text)
            self.decimal = decimal.flatMap { $0.isNaN || $0.isZero ? nil : $0 }
        }
    }

    /// JSON Schema's equality: numbers by value, objects without regard to member order.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return sameScalars(a, b)
        case (.number(let a), .number(let b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                guard let other = b.last(where: { $0.key == member.key }) else { return false }
                return equal(member.value, other.value)
            }
        default: return false
        }
    }

    /// Whether two strings are the same code points: Swift's `==` also calls canonically
    /// equivalent strings equal (`é` as one scalar or as `e` and a combining accent), JSON
    /// Schema does not.
    static func sameScalars(_ left: String, _ right: String) -> Bool {
        left.utf8.elementsEqual(right.utf8)
    }

    /// Whether the string is ASCII only (where `==` and `sameScalars` agree).
    static func isASCII(_ string: String) -> Bool {
        string.utf8.allSatisfy { $0 < 0x80 }
    }

    /// A text equal for values JSON Schema calls equal, for hashing many values at once.
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .null: return "n"
        case .bool(let bool): return bool ? "t" : "f"
        case .string(let string): return "s" + JSONValue.quote(string)
        case .number(let text): return "#" + (Double(text).map { String(describing: $0) } ?? text)
        case .array(let elements): return "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .object(let members):
            let unique = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            return "{"
                + unique.keys.sorted().map { JSONValue.quote($0) + ":" + canonical(unique[$0]!) }.joined(separator: ",")
                + "}"
        }
    }
}
