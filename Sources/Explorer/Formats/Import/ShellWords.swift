/// Reads pasted shell text the way a POSIX shell (bash) would split it into commands and words,
/// for importing curl command lines.
///
/// Understands single quotes, double quotes (where `\` escapes `$`, `` ` ``, `"`, `\` and a
/// newline), ANSI-C `$'…'` quotes (`\n`, `\t`, `\'`, `\xHH`, `\uHHHH` ...), backslash escapes,
/// backslash-newline continuations and `#` comments. Commands are separated by newlines, `;`,
/// `&&`, `||`, `&` and `|`. A command's standard input comes from a heredoc (`<<EOF`, `<<-EOF`,
/// `<<'EOF'`), a here-string (`<<< text`) or `< file` when the pasted text has it.
///
/// Nothing is run: `$NAME` and `${NAME}` (unquoted, in double quotes and in unquoted heredocs)
/// become `{{env.NAME}}`, which a collection reads from the process environment when sending;
/// command substitutions stay as written, with a note.
enum ShellWords {
    /// Why a text could not be split.
    enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A quote opened and never closed.
        case unterminatedQuote(Character)
        /// A heredoc whose closing delimiter line never comes.
        case unterminatedHeredoc(String)

        var description: String {
            switch self {
            case .unterminatedQuote(let quote): return "The command line has an unclosed \(quote) quote."
            case .unterminatedHeredoc(let delimiter): return "The heredoc is never closed: no line reads \(delimiter)."
            }
        }
    }

    /// Where a command's standard input comes from.
    enum StandardInput: Sendable, Hashable {
        /// Text that is part of the pasted script (a heredoc or a here-string).
        case text(String)
        /// A file named by `< path`.
        case file(String)
        /// The output of the command before a `|`, which is not known without running it.
        case pipe
    }

    /// One simple command: its words, and its standard input when redirected.
    struct Command: Sendable, Hashable {
        /// The words, quotes removed, variables as `{{env.NAME}}`.
        var words: [String] = []
        /// The standard input, when the text redirects it.
        var standardInput: StandardInput?
        /// What was read but not run (command substitutions, output redirections).
        var notes: [String] = []
    }

    /// The words of a text that holds one command (its first command when there are several).
    ///
    /// - Throws: `Failure`.
    static func split(_ line: String) throws(Failure) -> [String] {
        try commands(line).first?.words ?? []
    }

    /// The commands of a pasted text, in order (empty ones and comments left out).
    ///
    /// - Throws: `Failure.unterminatedQuote` or `Failure.unterminatedHeredoc`.
    static func commands(_ text: String) throws(Failure) -> [Command] {
        var lexer = Lexer(Array(text.replacingOccurrences(of: "\r\n", with: "\n")))
        return try lexer.run()
    }

    // MARK: - Lexer

    private struct Lexer {
        let chars: [Character]
        var index = 0
        var commands: [Command] = []
        var command = Command()
        var word = ""
        var inWord = false
        /// Whether the word has a quote or an escape (a quoted heredoc delimiter expands nothing).
        var wordQuoted = false
        /// Heredocs opened on the current line, read when the line ends.
        var pendingHeredocs: [(delimiter: String, expands: Bool, stripsTabs: Bool)] = []
        /// What the next word is for (`<` file, `<<<` text, `>` target ...).
        var redirect: Redirect?
        var nextIsPiped = false

        enum Redirect {
            case inputFile, hereString, output
            case heredocDelimiter(stripsTabs: Bool)
        }

        init(_ chars: [Character]) { self.chars = chars }

        var peek: Character? { index < chars.count ? chars[index] : nil }
        func peek(_ offset: Int) -> Character? { index + offset < chars.count ? chars[index + offset] : nil }

        mutating func next() -> Character? {
            guard index < chars.count else { return nil }
            defer { index += 1 }
            return chars[index]
        }

        mutating func run() throws(Failure) -> [Command] {
            while let char = next() {
                switch char {
                case " ", "\t":
                    try endWord()
                case "\n":
                    try endWord()
                    try endCommand()
                    try readHeredocs()
                case "#" where !inWord:
                    while let c = peek, c != "\n" { index += 1 }
                case ";":
                    try endWord()
                    try endCommand()
                case "&":
                    try endWord()
                    if peek == "&" {
                        index += 1
                    } else if peek == ">" {
                        index += 1
                        if peek == ">" { index += 1 }
                        redirect = .output
                        continue
                    }
                    try endCommand()
                case "|":
                    try endWord()
                    let isOr = peek == "|"
                    if isOr || peek == "&" { index += 1 }
                    try endCommand()
                    nextIsPiped = !isOr
                case "<" where !inWord || word.allSatisfy(\.isNumber):
                    if inWord {
                        word = ""
                        inWord = false
                    }  // `0<`
                    try endWord()
                    if peek == "<" && peek(1) == "<" {
                        index += 2
                        redirect = .hereString
                    } else if peek == "<" {
                        index += 1
                        var stripsTabs = false
                        if peek == "-" {
                            index += 1
                            stripsTabs = true
                        }
                        redirect = .heredocDelimiter(stripsTabs: stripsTabs)
                    } else {
                        redirect = .inputFile
                    }
                case ">" where !inWord || word.allSatisfy(\.isNumber):
                    if inWord {
                        word = ""
                        inWord = false
                    }  // `2>`
                    try endWord()
                    if peek == ">" || peek == "|" { index += 1 }
                    if peek == "&" {  // `2>&1`: the target is a descriptor
                        index += 1
                        while let c = peek, c.isNumber || c == "-" { index += 1 }
                    } else {
                        redirect = .output
                    }
                case "\\":
                    guard let escaped = next() else {
                        word.append("\\")
                        inWord = true
                        break
                    }
                    if escaped == "\n" { break }  // continuation
                    word.append(escaped)
                    inWord = true
                    wordQuoted = true
                case "'":
                    inWord = true
                    wordQuoted = true
                    var closed = false
                    while let c = next() {
                        if c == "'" {
                            closed = true
                            break
                        }
                        word.append(c)
                    }
                    if !closed { throw .unterminatedQuote("'") }
                case "\"":
                    inWord = true
                    wordQuoted = true
                    try readDoubleQuoted()
                case "$" where peek == "'":
                    index += 1
                    inWord = true
                    wordQuoted = true
                    var closed = false
                    while let c = next() {
                        if c == "'" {
                            closed = true
                            break
                        }
                        if c == "\\", let e = next() {
                            word += ShellWords.ansiEscape(e, chars: chars, index: &index)
                        } else {
                            word.append(c)
                        }
                    }
                    if !closed { throw .unterminatedQuote("'") }
                case "$" where peek == "\"":
                    index += 1
                    inWord = true
                    wordQuoted = true
                    try readDoubleQuoted()
                case "$":
                    inWord = true
                    word += expansion()
                case "`":
                    inWord = true
                    word += commandSubstitution(closing: "`")
                default:
                    word.append(char)
                    inWord = true
                }
            }
            try endWord()
            try endCommand()
            if let open = pendingHeredocs.first { throw .unterminatedHeredoc(open.delimiter) }
            return commands
        }

        mutating func readDoubleQuoted() throws(Failure) {
            while let c = next() {
                switch c {
                case "\"":
                    return
                case "\\":
                    if let e = peek, ["$", "`", "\"", "\\", "\n"].contains(e) {
                        index += 1
                        if e != "\n" { word.append(e) }
                    } else {
                        word.append("\\")
                    }
                case "$":
                    word += expansion()
                case "`":
                    word += commandSubstitution(closing: "`")
                default:
                    word.append(c)
                }
            }
            throw .unterminatedQuote("\"")
        }

        /// After a `$`: a variable as `{{env.NAME}}`, a command substitution as written, or a
        /// lone `$`.
        mutating func expansion() -> String {
            if peek == "(" { return "$" + commandSubstitution(closing: ")") }
            if peek == "{" {
                guard let close = chars[index...].firstIndex(of: "}") else { return "$" }
                let inside = String(chars[(index + 1)..<close])
                index = close + 1
                let name = String(inside.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard !name.isEmpty else { return "${\(inside)}" }
                if name.count < inside.count {
                    command.notes.append(
                        "${\(inside)} is read as {{env.\(name)}}; its default or modifier is not applied.")
                }
                return "{{env.\(name)}}"
            }
            guard let first = peek, first.isLetter || first == "_", first.isASCII else { return "$" }
            var name = ""
            while let c = peek, c.isASCII, c.isLetter || c.isNumber || c == "_" {
                name.append(c)
                index += 1
            }
            return "{{env.\(name)}}"
        }

        /// A `$(…)` or `` `…` `` kept as written (nothing is run).
        mutating func commandSubstitution(closing: Character) -> String {
            let opening: Character = closing == ")" ? "(" : "`"
            var text = String(opening)
            if closing == ")" { index += 1 }
            var depth = 1
            while let c = next() {
                text.append(c)
                if closing == ")" && c == "(" { depth += 1 }
                if c == closing {
                    depth -= 1
                    if depth == 0 { break }
                }
            }
            command.notes.append(
                "The command substitution \(closing == ")" ? "$" : "")\(text) is not run; it is kept as written.")
            return text
        }

        mutating func endWord() throws(Failure) {
            guard inWord else { return }
            let text = word
            let quoted = wordQuoted
            word = ""
            inWord = false
            wordQuoted = false
            switch redirect {
            case nil:
                command.words.append(text)
            case .inputFile:
                command.standardInput = .file(text)
            case .hereString:
                command.standardInput = .text(text + "\n")
            case .heredocDelimiter(let stripsTabs):
                // A quoted delimiter (any quote in the word) turns expansion off, as in bash.
                pendingHeredocs.append((text, !quoted, stripsTabs))
            case .output:
                command.notes.append("The output redirection to \(text) is ignored.")
            }
            redirect = nil
        }

        mutating func endCommand() throws(Failure) {
            if !command.words.isEmpty {
                if nextIsPiped && command.standardInput == nil { command.standardInput = .pipe }
                commands.append(command)
            }
            if !command.words.isEmpty || command.standardInput != nil { nextIsPiped = false }
            command = Command()
        }

        /// Reads the bodies of the heredocs opened on the line that just ended, giving each to
        /// the command that opened it (the last command read).
        mutating func readHeredocs() throws(Failure) {
            while !pendingHeredocs.isEmpty {
                let heredoc = pendingHeredocs.removeFirst()
                var body = ""
                var closed = false
                while index < chars.count {
                    let end = chars[index...].firstIndex(of: "\n") ?? chars.count
                    var line = String(chars[index..<end])
                    index = min(end + 1, chars.count)
                    if heredoc.stripsTabs { line = String(line.drop { $0 == "\t" }) }
                    if line == heredoc.delimiter {
                        closed = true
                        break
                    }
                    body += line + "\n"
                }
                if !closed { throw .unterminatedHeredoc(heredoc.delimiter) }
                if heredoc.expands { body = Self.expandHeredoc(body) }
                if !commands.isEmpty { commands[commands.count - 1].standardInput = .text(body) }
            }
        }

        /// An unquoted heredoc's body: `$NAME` as `{{env.NAME}}`, `\$` as `$`, `\`-newline joined.
        static func expandHeredoc(_ body: String) -> String {
            var lexer = Lexer(Array(body))
            var out = ""
            while let c = lexer.next() {
                switch c {
                case "\\":
                    if let e = lexer.peek, ["$", "`", "\\", "\n"].contains(e) {
                        lexer.index += 1
                        if e != "\n" { out.append(e) }
                    } else {
                        out.append("\\")
                    }
                case "$": out += lexer.expansion()
                default: out.append(c)
                }
            }
            return out
        }
    }

    static func ansiEscape(_ e: Character, chars: [Character], index: inout Int) -> String {
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
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
                return "\\x" + digits
            }
            return String(Character(scalar))
        case "u", "U":
            let digits = hexDigits(max: e == "u" ? 4 : 8)
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
                return "\\\(e)" + digits
            }
            return String(Character(scalar))
        default: return "\\" + String(e)
        }
    }
}
