import Terminal

/// Re-indents JSON text, byte by byte, in one pass: two spaces per level, one member or
/// element per line, strings untouched.
///
/// It does not build a tree, and its whole state is a depth and a mode, so it can stop at any
/// byte and go on with the next chunk, and it can start again at any line from a saved
/// `Mark`: `PrettyJSONLines` keeps a mark every few lines instead of the printed text. Text
/// that is not balanced JSON gives `nil` (the caller shows it as it is), unless `allowingCut`
/// is set: then JSON that stops early (a body still arriving, a history copy cut at its cap)
/// is printed as far as it goes.
enum JSONPrettyPrinter {
    /// Where a printed line starts: the byte to go on from and the printer's state there.
    struct Mark: Sendable, Equatable {
        /// How the line begins.
        enum Entry: UInt8, Sendable {
            /// The first line: nothing before the byte at `offset`.
            case top
            /// The indentation for `depth`, then the byte at `offset` onwards.
            case indent
            /// The indentation, then the closing bracket at `offset`.
            case closer
            /// Inside a string that had a raw line break (not valid JSON, shown as it came).
            case string
        }

        var offset: Int
        var depth: Int32
        var entry: Entry

        static let start = Mark(offset: 0, depth: 0, entry: .top)
    }

    /// What receives the printed text.
    protocol Sink {
        /// Whether the printer may stop: the sink has what it wants.
        var isDone: Bool { get }
        /// One byte of the current line.
        mutating func emit(_ byte: UInt8)
        /// `count` spaces of indentation at the start of a line.
        mutating func indent(_ count: Int)
        /// The current line ended; the next one starts at `mark`.
        mutating func lineBreak(_ mark: Mark)
    }

    /// The printer between two bytes.
    struct State: Sendable {
        enum Mode: UInt8, Sendable {
            case value
            case string
            case escape
            /// After `{` or `[`: an empty one closes on the same line.
            case opened
        }

        var depth = 0
        var mode = Mode.value
        /// Set when a closing bracket had nothing to close: the text is not JSON.
        var failed = false

        /// Whether everything opened was closed.
        var isBalanced: Bool { !failed && depth == 0 && mode == .value }

        /// The state where a mark's line starts, once the sink has been given what comes
        /// before its first byte; returns the offset to go on from.
        static func resuming<S: Sink>(at mark: Mark, in bytes: UnsafeBufferPointer<UInt8>, into sink: inout S) -> (
            State, Int
        ) {
            var state = State()
            state.depth = Int(mark.depth)
            switch mark.entry {
            case .top:
                return (state, mark.offset)
            case .indent:
                sink.indent(state.depth * 2)
                return (state, mark.offset)
            case .closer:
                sink.indent(state.depth * 2)
                if mark.offset < bytes.count { sink.emit(bytes[mark.offset]) }
                return (state, mark.offset + 1)
            case .string:
                state.mode = .string
                return (state, mark.offset)
            }
        }

        /// Prints `bytes[from...]`, whose first byte is at `base + from` in the whole text,
        /// until the bytes end, the sink is done or the text proves not to be JSON.
        mutating func print<S: Sink>(
            _ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, base: Int = 0, into sink: inout S
        ) {
            var index = start
            let count = bytes.count
            while index < count, !failed, !sink.isDone {
                let byte = bytes[index]
                switch mode {
                case .string, .escape:
                    if byte == 0x0A {
                        sink.lineBreak(
                            Mark(offset: base + index + 1, depth: Int32(truncatingIfNeeded: depth), entry: .string))
                        mode = .string
                    } else {
                        sink.emit(byte)
                        if mode == .escape {
                            mode = .string
                        } else if byte == 0x5C {
                            mode = .escape
                        } else if byte == 0x22 {
                            mode = .value
                        }
                    }
                    index += 1
                    continue
                case .opened:
                    if byte.isJSONWhitespace {
                        index += 1
                        continue
                    }
                    mode = .value
                    if byte == 0x7D || byte == 0x5D {
                        sink.emit(byte)
                        index += 1
                        continue
                    }
                    depth += 1
                    newline(at: base + index, .indent, &sink)
                // The byte itself is printed as any value byte, below.
                case .value:
                    break
                }
                switch byte {
                case 0x22:
                    mode = .string
                    sink.emit(byte)
                case 0x7B, 0x5B:  // { [
                    sink.emit(byte)
                    mode = .opened
                case 0x7D, 0x5D:  // } ]
                    depth -= 1
                    if depth < 0 {
                        failed = true
                        return
                    }
                    newline(at: base + index, .closer, &sink)
                    sink.emit(byte)
                case 0x2C:  // ,
                    sink.emit(byte)
                    newline(at: base + index + 1, .indent, &sink)
                case 0x3A:  // :
                    sink.emit(byte)
                    sink.emit(0x20)
                case 0x20, 0x0A, 0x0D, 0x09:
                    break
                default:
                    sink.emit(byte)
                }
                index += 1
            }
        }

        @inline(__always)
        private func newline<S: Sink>(at offset: Int, _ entry: Mark.Entry, _ sink: inout S) {
            sink.lineBreak(Mark(offset: offset, depth: Int32(truncatingIfNeeded: depth), entry: entry))
            sink.indent(depth * 2)
        }
    }

    /// The whole text printed into one buffer (for small texts: an event's data, a filter's
    /// result, tests).
    static func prettyPrint(_ raw: UnsafeRawBufferPointer, allowingCut: Bool = false) -> [UInt8]? {
        let input = raw.bindMemory(to: UInt8.self)
        var sink = Collector()
        sink.output.reserveCapacity(input.count * 2 + 64)
        var state = State()
        state.print(input, into: &sink)
        guard !state.failed, allowingCut || state.isBalanced else { return nil }
        return sink.output
    }

    private struct Collector: Sink {
        var output: [UInt8] = []
        var isDone: Bool { false }
        mutating func emit(_ byte: UInt8) { output.append(byte) }
        mutating func indent(_ count: Int) { output.append(contentsOf: repeatElement(0x20, count: count)) }
        mutating func lineBreak(_ mark: Mark) { output.append(0x0A) }
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
                    if escaped {
                        escaped = false
                    } else if characters[end] == "\\" {
                        escaped = true
                    } else if characters[end] == "\"" {
                        break
                    }
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
                let role: Role =
                    word == "true" || word == "false" ? .jsonBool : (word == "null" ? .jsonNull : .jsonNumber)
                emit(word, role)
                index = max(end, index + 1)
            }
        }
        return spans
    }
}
