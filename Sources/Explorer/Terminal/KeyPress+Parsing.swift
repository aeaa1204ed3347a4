extension KeyPress {
    /// Parses a key as a config file or `--help` writes it: `q`, `Q`, `ctrl-s`, `Alt-x`,
    /// `shift-tab`, `enter`, `esc`, `up`, `pgdn`, `f5`, `space`.
    ///
    /// Modifier prefixes (`ctrl-`, `alt-`/`meta-`, `shift-`) are case-insensitive; a
    /// single-character key keeps its case (`Q` is Shift-q as a terminal reports it).
    ///
    /// - Parameter text: the key's name.
    /// - Returns: nil when the text names no key.
    package init?(parsing text: String) {
        var rest = Substring(text)
        var modifiers: Modifiers = []
        while true {
            let lower = rest.lowercased()
            if rest.count > 1, lower.hasPrefix("ctrl-") || lower.hasPrefix("ctrl+") {
                modifiers.insert(.ctrl)
                rest = rest.dropFirst(5)
            } else if rest.count > 1, lower.hasPrefix("alt-") || lower.hasPrefix("alt+") {
                modifiers.insert(.alt)
                rest = rest.dropFirst(4)
            } else if rest.count > 1, lower.hasPrefix("meta-") {
                modifiers.insert(.alt)
                rest = rest.dropFirst(5)
            } else if rest.count > 1, lower.hasPrefix("shift-") || lower.hasPrefix("shift+") {
                modifiers.insert(.shift)
                rest = rest.dropFirst(6)
            } else {
                break
            }
        }
        guard !rest.isEmpty else { return nil }
        if rest.count == 1, let character = rest.first, !"↑↓←→".contains(character) {
            let key = modifiers.contains(.ctrl) ? Character(character.lowercased()) : character
            self.init(.character(key), modifiers)
            return
        }
        let named: [String: Key] = [
            "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "tab": .tab,
            "backtab": .backTab, "backspace": .backspace, "bksp": .backspace, "delete": .delete, "del": .delete,
            "insert": .insert, "ins": .insert, "up": .up, "down": .down, "left": .left, "right": .right,
            "home": .home, "end": .end, "pageup": .pageUp, "pgup": .pageUp, "pagedown": .pageDown, "pgdn": .pageDown,
            "space": .character(" "), "↑": .up, "↓": .down, "←": .left, "→": .right,
        ]
        let name = rest.lowercased()
        if name == "tab", modifiers == .shift {
            self.init(.backTab)
            return
        }
        if let key = named[name] {
            self.init(key, modifiers)
            return
        }
        if name.hasPrefix("f"), let number = Int(name.dropFirst()), (1...24).contains(number) {
            self.init(.function(number), modifiers)
            return
        }
        return nil
    }
}
