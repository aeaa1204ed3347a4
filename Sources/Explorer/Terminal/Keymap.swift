/// One key binding: keys that run a command, and how the footer names it.
package struct KeyBinding<Command: Hashable & Sendable>: Sendable {
    /// The keys (any of them runs the command); the first is shown in hints.
    package var keys: [KeyPress]
    /// The command, a meaning-name the application defines (`.quit`, `.help` …).
    package var command: Command
    /// The short label in the footer ("send"); nil keeps the binding out of the footer.
    package var hint: String?
    /// A longer description for the help overlay (the hint when nil).
    package var help: String?

    /// Creates a binding.
    package init(_ keys: [KeyPress], _ command: Command, hint: String? = nil, help: String? = nil) {
        self.keys = keys
        self.command = command
        self.hint = hint
        self.help = help
    }

    /// Creates a binding of one key.
    package init(_ key: KeyPress, _ command: Command, hint: String? = nil, help: String? = nil) {
        self.init([key], command, hint: hint, help: help)
    }
}

/// A key hint as the status bar and help overlay show it: `⏎ send`.
package struct KeyHint: Sendable, Hashable {
    /// The key's name (`Ctrl-S`).
    package var key: String
    /// What it does.
    package var label: String

    /// Creates a hint.
    package init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// The keys of a screen or pane, and the hints generated from them.
///
/// Because the footer is generated from the same bindings that dispatch keys, the hints
/// can never lie.
package struct Keymap<Command: Hashable & Sendable>: Sendable {
    /// The bindings, in footer order.
    package var bindings: [KeyBinding<Command>]

    /// Creates a keymap.
    package init(_ bindings: [KeyBinding<Command>]) {
        self.bindings = bindings
    }

    /// The command bound to a key press, if any (the first binding wins).
    ///
    /// A Shift-modified character also matches a binding of the bare character, since
    /// terminals report `A` both ways.
    package func command(for press: KeyPress) -> Command? {
        for binding in bindings where binding.keys.contains(press) { return binding.command }
        if press.modifiers == .shift, case .character = press.key {
            return command(for: KeyPress(press.key))
        }
        return nil
    }

    /// The command for an input event that is a key press.
    package func command(for event: InputEvent) -> Command? {
        if case .key(let press) = event { return command(for: press) }
        return nil
    }

    /// Footer hints for the bindings that have one.
    ///
    /// - Parameter only: when given, only bindings of these commands.
    /// - Returns: hints in binding order.
    package func hints(only: Set<Command>? = nil) -> [KeyHint] {
        bindings.compactMap { binding in
            guard let label = binding.hint, let key = binding.keys.first else { return nil }
            if let only, !only.contains(binding.command) { return nil }
            return KeyHint(key: key.description, label: label)
        }
    }

    /// The name of the first key bound to `command` (`Enter`, `Ctrl-N`), or nil when none is.
    package func key(for command: Command) -> String? {
        bindings.first { $0.command == command }?.keys.first?.description
    }

    /// Every binding as a help line: all its keys and its description.
    package func helpLines() -> [KeyHint] {
        bindings.compactMap { binding in
            guard let label = binding.help ?? binding.hint else { return nil }
            return KeyHint(key: binding.keys.map(\.description).joined(separator: "/"), label: label)
        }
    }

    /// The keymap followed by the bindings of `other` (for layered keymaps: pane + global).
    package func merged(with other: Keymap<Command>) -> Keymap<Command> {
        Keymap(bindings + other.bindings)
    }
}
