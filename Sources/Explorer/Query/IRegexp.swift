/// I-Regexp (RFC 9485), the interoperable regular expressions of JSONPath's `match()` and
/// `search()`: a pattern is checked against its grammar and rewritten in the ICU syntax
/// `NSRegularExpression` reads, with I-Regexp's meaning.
///
/// What differs in ICU, and how the rewrite keeps I-Regexp's meaning:
/// - `.` matches any character but `\n` and `\r` (ICU's also stops at U+2028, U+0085 …):
///   written `[^\n\r]`.
/// - `^` and `$` outside a class: RFC 9485's grammar lists them among ordinary characters,
///   but its own mappings to ECMAScript, PCRE and the others (§5) pass them through, where
///   they anchor, and the compliance suite expects that (`match(@, '^ab.*')` matches "abc").
///   They are written as ECMAScript reads them: `\A` (start of the string) and `\z` (its very
///   end; ICU's `$` would also match before a final line break).
/// - Every other ASCII character that is not a letter or a digit is written `\x{HH}`, so that
///   none means something of ICU's own (`#`, `&`, `~` …).
/// - Groups `( … )` capture nothing: written `(?: … )`.
/// Anchoring `match()` at both ends is the caller's (`\A(?: … )\z`).
enum IRegexp {
    /// How deeply groups may nest: a pattern can come from the document, so the recursive
    /// translator refuses deeper ones rather than risk the stack.
    static let maximumNesting = 64

    /// The ICU pattern meaning what `pattern` means as an I-Regexp, or `nil` when it is not one.
    static func translate(_ pattern: String) -> String? {
        var translator = Translator(Array(pattern.unicodeScalars))
        guard translator.regexp(), translator.isAtEnd else { return nil }
        return translator.output
    }

    /// The general categories `\p{…}` may name (`IsCategory`).
    static let categories: Set<String> = [
        "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
        "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
    ]

    /// A recursive-descent reader of RFC 9485's ABNF that writes the ICU pattern as it goes;
    /// each function is named after its rule and returns whether the rule matched.
    private struct Translator {
        let scalars: [Unicode.Scalar]
        var position = 0
        var output = ""
        var nesting = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var isAtEnd: Bool { position >= scalars.count }
        var peek: Unicode.Scalar? { isAtEnd ? nil : scalars[position] }

        /// `i-regexp = branch *( "|" branch )`.
        mutating func regexp() -> Bool {
            guard branch() else { return false }
            while peek == "|" {
                position += 1
                output += "|"
                guard branch() else { return false }
            }
            return true
        }

        /// `branch = *piece`.
        mutating func branch() -> Bool {
            while let next = peek, next != "|", next != ")" {
                guard piece() else { return false }
            }
            return true
        }

        /// `piece = atom [ quantifier ]`.
        mutating func piece() -> Bool {
            guard atom() else { return false }
            return quantifier()
        }

        /// `quantifier = ( "*" / "+" / "?" ) / range-quantifier`, or none.
        mutating func quantifier() -> Bool {
            guard let next = peek else { return true }
            switch next {
            case "*", "+", "?":
                position += 1
                output.unicodeScalars.append(next)
                return true
            case "{":
                return rangeQuantifier()
            default:
                return true
            }
        }

        /// `range-quantifier = "{" QuantExact [ "," [ QuantExact ] ] "}"`.
        mutating func rangeQuantifier() -> Bool {
            position += 1
            guard let low = digits() else { return false }
            output += "{" + low
            if peek == "," {
                position += 1
                output += "," + (digits() ?? "")
            }
            guard peek == "}" else { return false }
            position += 1
            output += "}"
            return true
        }

        /// `QuantExact = 1*%x30-39`, or `nil`.
        mutating func digits() -> String? {
            var text = ""
            while let next = peek, ("0"..."9").contains(next) {
                text.unicodeScalars.append(next)
                position += 1
            }
            return text.isEmpty ? nil : text
        }

        /// `atom = NormalChar / charClass / ( "(" i-regexp ")" )`, where
        /// `charClass = "." / SingleCharEsc / charClassEsc / charClassExpr`.
        mutating func atom() -> Bool {
            guard let next = peek else { return false }
            switch next {
            case "(":
                guard nesting < IRegexp.maximumNesting else { return false }
                position += 1
                nesting += 1
                output += "(?:"
                guard regexp(), peek == ")" else { return false }
                position += 1
                nesting -= 1
                output += ")"
                return true
            case ".":
                position += 1
                output += "[^\\n\\r]"
                return true
            case "\\":
                return escape(inClass: false)
            case "[":
                return charClassExpression()
            case "^", "$":
                position += 1
                output += next == "^" ? "\\A" : "\\z"
                return true
            default:
                guard Self.isNormalChar(next) else { return false }
                position += 1
                output += Self.literal(next)
                return true
            }
        }

        /// `SingleCharEsc / charClassEsc`, at a `\`.
        mutating func escape(inClass: Bool) -> Bool {
            position += 1
            guard let next = peek else { return false }
            if next == "p" || next == "P" { return categoryEscape(negated: next == "P") }
            guard let character = Self.singleCharacterEscape(next) else { return false }
            position += 1
            output += Self.literal(character)
            return true
        }

        /// `catEsc = "\p{" charProp "}"` or `complEsc = "\P{" charProp "}"`, after the `\`.
        mutating func categoryEscape(negated: Bool) -> Bool {
            position += 1
            guard peek == "{" else { return false }
            position += 1
            var name = ""
            while let next = peek, next != "}" {
                name.unicodeScalars.append(next)
                position += 1
            }
            guard peek == "}", IRegexp.categories.contains(name) else { return false }
            position += 1
            output += (negated ? "\\P{" : "\\p{") + name + "}"
            return true
        }

        /// `charClassExpr = "[" [ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"`, where
        /// `CCE1 = ( CCchar [ "-" CCchar ] ) / charClassEsc`.
        mutating func charClassExpression() -> Bool {
            position += 1
            output += "["
            if peek == "^" {
                position += 1
                output += "^"
            }
            var items = 0
            if peek == "-" {
                position += 1
                output += Self.literal("-")
                items += 1
            }
            while let next = peek, next != "]" {
                if next == "-" {
                    // Only as the last character of the class.
                    guard items > 0, position + 1 < scalars.count, scalars[position + 1] == "]" else { return false }
                    position += 1
                    output += Self.literal("-")
                } else if next == "\\", position + 1 < scalars.count,
                    scalars[position + 1] == "p" || scalars[position + 1] == "P"
                {
                    guard escape(inClass: true) else { return false }
                } else {
                    guard classCharacter() else { return false }
                    if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                        position += 1
                        output += "-"
                        guard classCharacter() else { return false }
                    }
                }
                items += 1
            }
            guard peek == "]", items > 0 else { return false }
            position += 1
            output += "]"
            return true
        }

        /// `CCchar = ( %x00-2C / %x2E-5A / %x5E-D7FF / %xE000-10FFFF ) / SingleCharEsc`.
        mutating func classCharacter() -> Bool {
            guard let next = peek else { return false }
            if next == "\\" {
                position += 1
                guard let escaped = peek, let character = Self.singleCharacterEscape(escaped) else { return false }
                position += 1
                output += Self.literal(character)
                return true
            }
            guard next != "-", next != "[", next != "\\", next != "]" else { return false }
            position += 1
            output += Self.literal(next)
            return true
        }

        /// The character `SingleCharEsc` stands for after its `\`, or `nil` when it is not one.
        static func singleCharacterEscape(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
            switch scalar {
            case "n": "\n"
            case "r": "\r"
            case "t": "\t"
            case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": scalar
            default: nil
            }
        }

        /// `NormalChar`: any character but `( ) * + . ? [ \ ] { | }`.
        static func isNormalChar(_ scalar: Unicode.Scalar) -> Bool {
            !"()*+.?[\\]{|}".unicodeScalars.contains(scalar)
        }

        /// A character as an ICU pattern matches it literally, in or out of a class.
        static func literal(_ scalar: Unicode.Scalar) -> String {
            if scalar.isASCII, !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) {
                return "\\x{" + String(scalar.value, radix: 16) + "}"
            }
            return String(scalar)
        }
    }
}
