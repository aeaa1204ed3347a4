import Testing

@testable import Terminal

/// The confirm dialog draws the question and the keys it is given, whole.
@Suite struct ConfirmDialogTests {
    private let hints = [KeyHint(key: "y/Esc/Enter", label: "restore them"), KeyHint(key: "n", label: "discard them")]

    @Test func hintsThatFitShareOneRow() {
        #expect(ConfirmDialog.rows(of: hints, width: 80) == [hints])
        #expect(ConfirmDialog.rows(of: [], width: 80).isEmpty)
    }

    @Test func hintsThatDoNotFitOneRowWrapWholeInsteadOfBeingCut() {
        #expect(ConfirmDialog.rows(of: hints, width: 34) == [[hints[0]], [hints[1]]])
        var grid = CellGrid(width: 40, height: 12)
        ConfirmDialog(title: "Unsaved drafts", message: "Left 1 draft.", hints: hints)
            .render(into: &grid, area: grid.bounds)
        let text = grid.textLines()
        let restore = text.firstIndex { $0.contains("y/Esc/Enter restore them") }
        let discard = text.firstIndex { $0.contains("n discard them") }
        #expect(restore != nil && discard == restore.map { $0 + 1 }, "one hint a row:\n\(text.joined(separator: "\n"))")
    }

    @Test func aDialogWithOneRowOfHintsKeepsItsHeight() {
        var grid = CellGrid(width: 80, height: 24)
        ConfirmDialog(title: "Delete", message: "Delete it?", hints: [KeyHint(key: "y", label: "delete")])
            .render(into: &grid, area: grid.bounds)
        let rows = grid.textLines().filter { $0.contains("│") || $0.contains("╭") || $0.contains("╰") }
        #expect(rows.count == 5, "frame, question, blank row, hints, frame")
    }
}
