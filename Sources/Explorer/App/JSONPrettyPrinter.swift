import Terminal

/// Re-indents JSON text, byte by byte, in one pass: two spaces per level, one member or
/// element per line, strings untouched.
///
/// It does not build a tree, so a body of any size costs one linear pass and one output
/// buffer. Text that is not balanced JSON gives `nil` (the caller shows it as it is), unless
/// `allowingCut` is set: then JSON that stops early (a body still arriving, a history copy
/// cut at its cap) is printed as far as it goes.
enum JSONPrettyPrinter {
    static func prettyPrint(_ raw: UnsafeRawBufferPointer, allowingCut: Bool = false) -> [UInt8]? {
        let input = raw.bindMemory(to: UInt8.self)
        var output: [UInt8] = []
        // Generous on purpose: pages never written are never resident, while growing by
        // doubling would copy the whole output and briefly hold it twice.
        output.reserveCapacity(input.count * 2 + 1024)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        let count = input.count

        func newline() {
            output.append(0x0A)
            for _ in 0..<depth { output.append(0x20); output.append(0x20) }
        }

        while index < count {
            let byte = input[index]
            if inString {
                output.append(byte)
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                index += 1
                continue
            }
            switch byte {
            case 0x22:
                inString = true
                output.append(byte)
            case 0x7B, 0x5B:  // { [
                output.append(byte)
                var next = index + 1
                while next < count && input[next].isJSONWhitespace { next += 1 }
                if next < count && (input[next] == 0x7D || input[next] == 0x5D) {
                    output.append(input[next])
                    index = next
                } else {
                    depth += 1
                    newline()
                }
            case 0x7D, 0x5D:  // } ]
                depth -= 1
                if depth < 0 { return nil }
                newline()
                output.append(byte)
            case 0x2C:  // ,
                output.append(byte)
                newline()
            case 0x3A:  // :
                output.append(byte)
                output.append(0x20)
            case 0x20, 0x0A, 0x0D, 0x09:
                break
            default:
                output.append(byte)
            }
            index += 1
        }
        guard allowingCut || (depth == 0 && !inString) else { return nil }
        return output
    }
}

/// Colours one line of pretty-printed JSON: keys, strings, numbers, booleans, null, punctuation.
enum JSONHighlighter {
    static func spans(_ line: String) -> [Span] {
        var spans: [Span] = []
        let characters = Array(line)
        var index = 0
        func emit(_ text: String, _ role: Role) {
            if let last = spans.last, last.style.role == role {
                spans[spans.count - 1].text += text
            } else {
                spans.append(Span(text, role: role))
            }
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                var end = index + 1
                var escaped = false
                while end < characters.count {
                    if escaped { escaped = false } else if characters[end] == "\\" { escaped = true } else if characters[end] == "\"" { break }
                    end += 1
                }
                let stop = min(end + 1, characters.count)
                var after = stop
                while after < characters.count && characters[after] == " " { after += 1 }
                let isKey = after < characters.count && characters[after] == ":"
                emit(String(characters[index..<stop]), isKey ? .jsonKey : .jsonString)
                index = stop
            } else if "{}[],:".contains(character) {
                emit(String(character), .jsonPunctuation)
                index += 1
            } else if character == " " {
                emit(" ", .text)
                index += 1
            } else {
                var end = index
                while end < characters.count && !"{}[],: ".contains(characters[end]) { end += 1 }
                let word = String(characters[index..<max(end, index + 1)])
                let role: Role = word == "true" || word == "false" ? .jsonBool : (word == "null" ? .jsonNull : .jsonNumber)
                emit(word, role)
                index = max(end, index + 1)
            }
        }
        return spans
    }
}

/// Indents XML and HTML that arrive on few lines, and colours tags.
enum MarkupIndenter {
    static func indent(_ input: [UInt8]) -> [UInt8] {
        let newlines = input.lazy.filter { $0 == 0x0A }.count
        // Already laid out by its author: keep it.
        if newlines > input.count / 200 { return input }
        var output: [UInt8] = []
        output.reserveCapacity(input.count + input.count / 4)
        var depth = 0
        var index = 0
        while index < input.count {
            guard input[index] == 0x3C, let close = input[index...].firstIndex(of: 0x3E) else {
                let end = input[index...].firstIndex(of: 0x3C) ?? input.count
                let text = input[index..<end].drop { $0.isJSONWhitespace }
                if !text.isEmpty {
                    output.append(contentsOf: Array(repeating: 0x20, count: depth * 2))
                    output.append(contentsOf: text)
                    output.append(0x0A)
                }
                index = end
                continue
            }
            let tag = input[index...close]
            let isClosing = tag.count > 1 && tag[tag.startIndex + 1] == 0x2F
            let isSelfContained = tag.dropLast().last == 0x2F || tag.dropFirst().first == 0x3F || tag.dropFirst().first == 0x21
            if isClosing { depth = max(0, depth - 1) }
            output.append(contentsOf: Array(repeating: 0x20, count: depth * 2))
            output.append(contentsOf: tag)
            output.append(0x0A)
            if !isClosing && !isSelfContained { depth += 1 }
            index = close + 1
        }
        return output
    }

    static func spans(_ line: String) -> [Span] {
        var spans: [Span] = []
        var current = ""
        var inTag = false
        for character in line {
            if character == "<" && !inTag {
                if !current.isEmpty { spans.append(Span(current)) }
                current = "<"
                inTag = true
            } else if character == ">" && inTag {
                current.append(">")
                spans.append(Span(current, role: .jsonKey))
                current = ""
                inTag = false
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { spans.append(Span(current, role: inTag ? .jsonKey : .text)) }
        return spans
    }
}
