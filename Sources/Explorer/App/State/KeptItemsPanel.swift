import Foundation
import Terminal

/// A panel of what the explorer keeps for the active environment (its cookie jar, its OAuth2
/// tokens): read off the main queue, values masked; `x` deletes the selected entry, `X` all of
/// them, and the key that opened it, `q` or Esc close it.
struct KeptItemsPanel<Item: Sendable>: Sendable {
    /// The environment whose entries are shown.
    var environment: String
    /// Its entries, once read (`nil` while they are being read).
    var items: [Item]?
    /// Why they could not be read, if so.
    var problem: String?
    /// The selected row.
    var list = ListState()

    /// The selected entry.
    var selected: Item? {
        guard let items, items.indices.contains(list.selected) else { return nil }
        return items[list.selected]
    }

    /// Shows what was read (or what changed), keeping the selection on a row that exists.
    mutating func show(_ items: [Item], problem: String?) {
        self.items = items
        self.problem = problem
        list.selected = min(list.selected, max(items.count - 1, 0))
    }

    /// What a key does in the panel.
    enum KeyOutcome {
        /// Close the panel.
        case close
        /// The selection moved: show this panel.
        case moved(KeptItemsPanel)
        /// Delete the selected entry.
        case deleteOne(Item)
        /// Delete all `count` entries.
        case deleteAll(count: Int)
        /// Nothing.
        case ignored
    }

    /// What `press` does.
    ///
    /// - Parameters:
    ///   - press: the key.
    ///   - keymap: the user's keys.
    ///   - opener: the command that opened the panel (it closes it too).
    func outcome(of press: KeyPress, keymap: Keymap<AppCommand>, opener: AppCommand) -> KeyOutcome {
        let command = keymap.command(for: press)
        let count = items?.count ?? 0
        var panel = self
        switch (press.key, command) {
        case (.escape, _), (_, .quit?):
            return .close
        case (_, let command?) where command == opener:
            return .close
        case (_, .up?):
            panel.list.move(by: -1, count: count)
            return .moved(panel)
        case (_, .down?):
            panel.list.move(by: 1, count: count)
            return .moved(panel)
        case (.character("x"), _):
            return selected.map { .deleteOne($0) } ?? .ignored
        case (.character("X"), _):
            return count > 0 ? .deleteAll(count: count) : .ignored
        default:
            return .ignored
        }
    }
}
