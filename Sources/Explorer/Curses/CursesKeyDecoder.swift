import CNcurses
import Terminal

/// Turns what ncurses reads (characters, key codes, mouse events) into `InputEvent`s.
///
/// Holds the state a bracketed paste needs (collecting text between the start and end
/// markers) and the codes of modified arrow keys, which terminfo defines per terminal.
struct CursesKeyDecoder {
    /// The key code defined for the bracketed-paste start marker `ESC [200~`.
    static let pasteStart = KEY_MAX + 1
    /// The key code defined for the bracketed-paste end marker `ESC [201~`.
    static let pasteEnd = KEY_MAX + 2

    private var pasting: String?
    private var modified: [Int32: KeyPress] = [:]

    /// Teaches ncurses the paste markers and looks up the modified-key codes.
    mutating func defineKeys() {
        _ = define_key("\u{1B}[200~", CursesKeyDecoder.pasteStart)
        _ = define_key("\u{1B}[201~", CursesKeyDecoder.pasteEnd)
        // Sequences terminals and multiplexers send whatever terminfo says (tmux and screen
        // send ESC [1~ / ESC [4~ for Home / End under TERM=xterm*): without these, the keys
        // fall apart into Alt-[ and characters typed into a text field.
        let common: [(String, Int32)] = [
            ("\u{1B}[1~", KEY_HOME), ("\u{1B}[7~", KEY_HOME), ("\u{1B}[H", KEY_HOME), ("\u{1B}OH", KEY_HOME),
            ("\u{1B}[4~", KEY_END), ("\u{1B}[8~", KEY_END), ("\u{1B}[F", KEY_END), ("\u{1B}OF", KEY_END),
            ("\u{1B}[2~", KEY_IC), ("\u{1B}[3~", KEY_DC), ("\u{1B}[5~", KEY_PPAGE), ("\u{1B}[6~", KEY_NPAGE),
        ]
        for (sequence, code) in common where key_defined(sequence) <= 0 {
            _ = define_key(sequence, code)
        }
        let keys: [(String, Key)] = [
            ("kUP", .up), ("kDN", .down), ("kLFT", .left), ("kRIT", .right), ("kHOM", .home), ("kEND", .end),
            ("kDC", .delete), ("kPRV", .pageUp), ("kNXT", .pageDown),
        ]
        let suffixes: [(String, Modifiers)] = [
            ("", .shift), ("3", .alt), ("4", [.alt, .shift]), ("5", .ctrl), ("6", [.ctrl, .shift]),
            ("7", [.ctrl, .alt]),
        ]
        for (capability, key) in keys {
            for (suffix, modifiers) in suffixes {
                let name = capability + suffix
                if suffix.isEmpty, capability == "kUP" || capability == "kDN" { continue }
                let sequence = name.withCString { tigetstr($0) }
                guard let sequence, Int(bitPattern: sequence) != -1 else { continue }
                let code = key_defined(sequence)
                if code > 0 { modified[code] = KeyPress(key, modifiers) }
            }
        }
    }

    /// Decodes a function-key code.
    ///
    /// - Parameter code: the `KEY_*` code.
    /// - Returns: the event, or nil for keys explorer does not use.
    mutating func key(code: Int32) -> InputEvent? {
        if code == CursesKeyDecoder.pasteStart {
            pasting = ""
            return nil
        }
        if code == CursesKeyDecoder.pasteEnd {
            let text = pasting ?? ""
            pasting = nil
            return .paste(text)
        }
        if pasting != nil { return nil }
        if let press = modified[code] { return .key(press) }
        let press: KeyPress?
        switch code {
        case KEY_UP: press = KeyPress(.up)
        case KEY_DOWN: press = KeyPress(.down)
        case KEY_LEFT: press = KeyPress(.left)
        case KEY_RIGHT: press = KeyPress(.right)
        case KEY_SR: press = KeyPress(.up, .shift)
        case KEY_SF: press = KeyPress(.down, .shift)
        case KEY_SLEFT: press = KeyPress(.left, .shift)
        case KEY_SRIGHT: press = KeyPress(.right, .shift)
        case KEY_HOME: press = KeyPress(.home)
        case KEY_END: press = KeyPress(.end)
        case KEY_SHOME: press = KeyPress(.home, .shift)
        case KEY_SEND: press = KeyPress(.end, .shift)
        case KEY_PPAGE: press = KeyPress(.pageUp)
        case KEY_NPAGE: press = KeyPress(.pageDown)
        case KEY_DC: press = KeyPress(.delete)
        case KEY_IC: press = KeyPress(.insert)
        case KEY_BACKSPACE: press = KeyPress(.backspace)
        case KEY_ENTER: press = KeyPress(.enter)
        case KEY_BTAB: press = KeyPress(.backTab)
        default:
            let f1 = explorer_key_f(1)
            if code >= f1, code < f1 + 48 {
                let n = Int(code - f1)
                let modifiers: Modifiers = n >= 36 ? .alt : n >= 24 ? .ctrl : n >= 12 ? .shift : []
                press = KeyPress(.function(n % 12 + 1), modifiers)
            } else {
                press = nil
            }
        }
        return press.map(InputEvent.key)
    }

    /// What ncurses read next: a character or a function-key code.
    enum Read {
        /// A character's code point.
        case character(UInt32)
        /// A `KEY_*` code.
        case keyCode(Int32)
    }

    /// Decodes a character; ESC followed at once by a character or key is Alt and that key.
    ///
    /// - Parameters:
    ///   - value: the character's code point.
    ///   - next: reads the next character or key already waiting, if any.
    /// - Returns: the events (two when ESC is followed by something that is not a key),
    ///   none while a paste is being collected.
    mutating func character(_ value: UInt32, next: () -> Read?) -> [InputEvent] {
        if pasting != nil {
            if let scalar = Unicode.Scalar(value) {
                pasting?.unicodeScalars.append(value == 13 ? "\n" : scalar)
            }
            return []
        }
        guard value == 27 else { return CursesKeyDecoder.plain(value).map { [$0] } ?? [] }
        let escape = InputEvent.key(KeyPress(.escape))
        switch next() {
        case nil:
            return [escape]
        case .character(27):
            // Two Escape presses in a row stay two Escapes.
            return [escape, escape]
        case .character(let following):
            if case .key(var press)? = CursesKeyDecoder.plain(following) {
                press.modifiers.insert(.alt)
                return [.key(press)]
            }
            return [escape]
        case .keyCode(let code):
            let decoded = key(code: code)
            if case .key(var press)? = decoded {
                press.modifiers.insert(.alt)
                return [.key(press)]
            }
            return [escape] + (decoded.map { [$0] } ?? [])
        }
    }

    /// A character without the ESC prefix: control codes become Ctrl-letters.
    static func plain(_ value: UInt32) -> InputEvent? {
        switch value {
        case 13, 10: return .key(KeyPress(.enter))
        case 9: return .key(KeyPress(.tab))
        case 127, 8: return .key(KeyPress(.backspace))
        case 27: return .key(KeyPress(.escape))
        case 0: return .key(KeyPress(.character(" "), .ctrl))
        case 1...26:
            let letter = Character(Unicode.Scalar(UInt8(value) + 96))
            return .key(KeyPress(.character(letter), .ctrl))
        case 28...31:
            return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .key(KeyPress(.character(Character(scalar))))
        }
    }

    /// Decodes a mouse event.
    ///
    /// - Parameter event: what `getmouse` returned.
    /// - Returns: the event, or nil for buttons explorer does not use.
    func mouse(_ event: MEVENT) -> MouseEvent? {
        let state = event.bstate
        var modifiers: Modifiers = []
        if state & explorer_button_shift() != 0 { modifiers.insert(.shift) }
        if state & explorer_button_ctrl() != 0 { modifiers.insert(.ctrl) }
        if state & explorer_button_alt() != 0 { modifiers.insert(.alt) }
        let position = Point(x: Int(event.x), y: Int(event.y))
        let kind: MouseEvent.Kind
        if state & explorer_button4_pressed() != 0 {
            kind = .wheelUp
        } else if state & explorer_button5_pressed() != 0 {
            kind = .wheelDown
        } else if state & (explorer_button1_pressed() | explorer_button1_clicked()) != 0 {
            kind = .press(.left)
        } else if state & explorer_button2_pressed() != 0 {
            kind = .press(.middle)
        } else if state & (explorer_button3_pressed() | explorer_button3_clicked()) != 0 {
            kind = .press(.right)
        } else if state & explorer_button1_released() != 0 {
            kind = .release
        } else if state & explorer_report_mouse_position() != 0 {
            kind = .move
        } else {
            return nil
        }
        return MouseEvent(kind, at: position, modifiers: modifiers)
    }
}
