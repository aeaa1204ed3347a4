import Testing

@testable import Terminal

@Suite struct LayoutTests {
    @Test func fixedPercentAndFillShareTheSpace() {
        let parts = Layout.columns(Rect(x: 0, y: 0, width: 100, height: 10), [.fixed(10), .percent(30), .fill])
        #expect(parts.map(\.width) == [10, 30, 60])
        #expect(parts.map(\.x) == [0, 10, 40])
    }

    @Test func fillsShareByWeightAndTheLastTakesTheRemainder() {
        let parts = Layout.rows(Rect(x: 0, y: 0, width: 10, height: 10), [.fill(1), .fill(2)])
        #expect(parts.map(\.height) == [3, 7])
        #expect(parts.map(\.y) == [0, 3])
    }

    @Test func fixedPartsShrinkWhenTheSpaceRunsOut() {
        let parts = Layout.rows(Rect(x: 0, y: 0, width: 10, height: 5), [.fixed(3), .fixed(3), .fill])
        #expect(parts.map(\.height) == [3, 2, 0])
    }

    @Test func spacingSeparatesParts() {
        let parts = Layout.columns(Rect(x: 0, y: 0, width: 21, height: 1), [.fill, .fill], spacing: 1)
        #expect(parts.map(\.width) == [10, 10])
        #expect(parts[1].x == 11)
    }

    @Test func scrollbarThumbIsSizedAndPlacedByTheVisiblePart() {
        #expect(Scrollbar(total: 10, visible: 10, offset: 0).thumb(height: 10) == nil)
        #expect(
            Scrollbar(total: 100, visible: 10, offset: 0).thumb(height: 10).map { [$0.start, $0.length] } == [0, 1])
        #expect(
            Scrollbar(total: 100, visible: 10, offset: 90).thumb(height: 10).map { [$0.start, $0.length] } == [9, 1])
        #expect(
            Scrollbar(total: 20, visible: 10, offset: 5).thumb(height: 10).map { [$0.start, $0.length] } == [2, 5])
        var grid = CellGrid(width: 1, height: 4)
        Scrollbar(total: 8, visible: 4, offset: 4).render(into: &grid, area: grid.bounds)
        #expect(grid.textLines() == ["│", "│", "┃", "┃"])
    }
}
