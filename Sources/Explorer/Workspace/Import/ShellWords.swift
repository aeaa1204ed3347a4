/// Splits a shell command line into words the way a POSIX shell would, for pasted commands.
///
/// Understands single quotes, double quotes (where `\` escapes `$`, `` ` ``, `"`, `\` and a
/// newline), ANSI-C `$'…'` quotes (`\n`, `\t`, `\'`, `\xHH`, `\uHHHH` ...), backslash escapes
/// and backslash-newline continuations. Expansions (`$VAR`, globs) are not performed.
enum ShellWords {
    /// Why a command line could not be split.
    enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A quote opened and never closed.
        case unterminatedQuote(Character)

        var description: String {
            switch self {
            case .unterminatedQuote(let quote): return "The command line has an unclosed \(quote) quote."
            }
        }
    }

    /// The words of a command line.
    ///
    /// - Throws: `Failure.unterminatedQuote`.
    static func split(_ line: String) throws(Failure) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var chars = Array(line)
        // Windows line endings in pasted commands.
        chars.removeAll { $0 == "\r" }
        var index = 0
        func next() -> Character? {
            guard index < chars.count else { return nil }
            defer { index += 1 }
            return chars[index]
        }
        while let char = next() {
            switch char {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "\\":
                guard let escaped = next() else { current.append("\\"); inWord = true; break }
                if escaped == "\n" { break }  // continuation
                current.append(escaped)
                inWord = true
            case "'":
                inWord = true
                var closed = false
                while let c = next() {
                    if c == "'" { closed = true; break }
                    current.append(c)
                }
                if !closed { throw .unterminatedQuote("'") }
            case "\"":
                inWord = true
                var closed = false
                while let c = next() {
                    if c == "\"" { closed = true; break }
                    if c == "\\", index < chars.count, ["$", "`", "\"", "\\", "\n"].contains(chars[index]) {
                        let escaped = chars[index]
                        index += 1
                        if escaped != "\n" { current.append(escaped) }
                    } else {
                        current.append(c)
                    }
                }
                if !closed { throw .unterminatedQuote("\"") }
            case "$" where index < chars.count && chars[index] == "'":
                index += 1
                inWord = true
                var closed = false
                while let c = next() {
                    if c == "'" { closed = true; break }
                    if c == "\\", let e = next() {
                        current += ansiEscape(e, chars: chars, index: &index)
                    } else {
                        current.append(c)
                    }
                }
                if !closed { throw .unterminatedQuote("'") }
            default:
                current.append(char)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    private static func ansiEscape(_ e: Character, chars: [Character], index: inout Int) -> String {
        func hexDigits(max: Int) -> String {
            var digits = ""
            while digits.count < max, index < chars.count, chars[index].isHexDigit {
                digits.append(chars[index])
                index += 1
            }
            return digits
        }
        switch e {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "a": return "\u{07}"
        case "b": return "\u{08}"
        case "e", "E": return "\u{1B}"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "\\": return "\\"
        case "'": return "'"
        case "\"": return "\""
        case "?": return "?"
        case "x":
            let digits = hexDigits(max: 2)
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return "\\x" + digits }
            return String(Character(scalar))
        case "u", "U":
            let digits = hexDigits(max: e == "u" ? 4 : 8)
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return "\\\(e)" + digits }
            return String(Character(scalar))
        default: return "\\" + String(e)
        }
    }

    /// Quotes a word for a POSIX shell: bare when it is safe, else in single quotes.
    static func quote(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:=@%+,".contains($0)) }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
