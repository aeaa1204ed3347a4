import Testing
@testable import Explorer

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
}
