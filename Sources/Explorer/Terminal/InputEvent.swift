/// A key, without modifiers.
package enum Key: Sendable, Hashable {
    /// A printable character (a letter is lowercase when Ctrl is held; Shift shows in the
    /// character itself: `A`, `?`).
    case character(Character)
    /// Enter / Return.
    case enter
    /// Escape.
    case escape
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Backspace.
    case backspace
    /// Delete (forward).
    case delete
    /// Insert.
    case insert
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Home.
    case home
    /// End.
    case end
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// A function key, F1 is `function(1)`.
    case function(Int)
}

/// Modifier keys held with a key or a mouse event.
package struct Modifiers: OptionSet, Sendable, Hashable {
    /// The raw bits.
    package let rawValue: UInt8
    /// Creates modifiers from raw bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Shift.
    package static let shift = Modifiers(rawValue: 1)
    /// Alt / Meta.
    package static let alt = Modifiers(rawValue: 2)
    /// Control.
    package static let ctrl = Modifiers(rawValue: 4)
}

/// A key with its modifiers: what a key binding matches.
package struct KeyPress: Sendable, Hashable, CustomStringConvertible {
    /// The key.
    package var key: Key
    /// The modifiers held.
    package var modifiers: Modifiers

    /// Creates a key press.
    package init(_ key: Key, _ modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// A printable character without modifiers.
    package static func char(_ character: Character) -> KeyPress { KeyPress(.character(character)) }
    /// Ctrl and a letter: `ctrl("s")`.
    package static func ctrl(_ character: Character) -> KeyPress { KeyPress(.character(character), .ctrl) }
    /// Alt and a character: `alt("x")`.
    package static func alt(_ character: Character) -> KeyPress { KeyPress(.character(character), .alt) }

    /// The key's name as a person reads it in a hint: `q`, `Ctrl-S`, `Alt-x`, `↑`, `PgDn`, `F5`.
    package var description: String {
        var prefix = ""
        if modifiers.contains(.ctrl) { prefix += "Ctrl-" }
        if modifiers.contains(.alt) { prefix += "Alt-" }
        if modifiers.contains(.shift) { prefix += "Shift-" }
        let name: String
        switch key {
        case .character(" "): name = "Space"
        case .character(let c): name = modifiers.contains(.ctrl) ? c.uppercased() : String(c)
        case .enter: name = "Enter"
        case .escape: name = "Esc"
        case .tab: name = "Tab"
        case .backTab: name = "Shift-Tab"
        case .backspace: name = "Bksp"
        case .delete: name = "Del"
        case .insert: name = "Ins"
        case .up: name = "↑"
        case .down: name = "↓"
        case .left: name = "←"
        case .right: name = "→"
        case .home: name = "Home"
        case .end: name = "End"
        case .pageUp: name = "PgUp"
        case .pageDown: name = "PgDn"
        case .function(let n): name = "F\(n)"
        }
        return prefix + name
    }
}

/// A mouse button.
package enum MouseButton: Sendable, Hashable {
    /// The left (primary) button.
    case left
    /// The middle button.
    case middle
    /// The right button.
    case right
}

/// A mouse event at a cell.
package struct MouseEvent: Sendable, Hashable {
    /// What happened.
    package enum Kind: Sendable, Hashable {
        /// A button went down.
        case press(MouseButton)
        /// A button went up.
        case release
        /// The wheel turned up (away from the user).
        case wheelUp
        /// The wheel turned down.
        case wheelDown
        /// The pointer moved (with a button held, when the terminal reports drags).
        case move
    }

    /// What happened.
    package var kind: Kind
    /// The cell under the pointer.
    package var position: Point
    /// The modifiers held.
    package var modifiers: Modifiers

    /// Creates a mouse event.
    package init(_ kind: Kind, at position: Point, modifiers: Modifiers = []) {
        self.kind = kind
        self.position = position
        self.modifiers = modifiers
    }
}

/// Everything the terminal can tell the app: one type for keys, mouse, paste and resize.
package enum InputEvent: Sendable, Hashable {
    /// A key press.
    case key(KeyPress)
    /// A mouse event.
    case mouse(MouseEvent)
    /// Text pasted in one piece (bracketed paste); unsanitized, as the user pasted it.
    case paste(String)
    /// The terminal's size changed.
    case resize(Size)
    /// A timer tick, sent only while the program asks for one (a spinner is showing).
    case tick
}
