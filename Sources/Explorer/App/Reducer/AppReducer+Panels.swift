import Terminal

extension AppReducer {
    /// Keys of a scrolling text panel (the problems, the help): arrows, pages, ends move by
    /// rows; Esc, Enter, q or the key that opened it close it. Returns the new offset, or nil
    /// when the panel closes.
    static func scrolled(_ press: KeyPress, offset: Int, panel: TextPanel, closing: Character, _ state: AppState)
        -> Int?
    {
        let area = Rect(size: state.size)
        let placed = panel.layout(in: area)
        let last = max(0, placed.rows.count - placed.visible)
        let page = max(1, placed.visible - 1)
        switch press.key {
        case .escape, .enter, .character("q"), .character(closing): return nil
        case .up, .character("k"): return max(0, min(offset, last) - 1)
        case .down, .character("j"), .character(" "): return min(last, offset + 1)
        case .pageUp: return max(0, min(offset, last) - page)
        case .pageDown: return min(last, offset + page)
        case .home, .character("g"): return 0
        case .end, .character("G"): return last
        default: return offset
        }
    }

    /// A key in the problems panel.
    static func handleProblems(_ press: KeyPress, offset: Int, _ state: inout AppState) -> [AppEffect] {
        let next = scrolled(press, offset: offset, panel: state.problemsPanel(offset: offset), closing: "!", state)
        state.overlay = next.map { .problems(offset: $0) }
        return []
    }
}
