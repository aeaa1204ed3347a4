import Testing

@testable import App

/// The warm-up a session runs after its first frame: one real request, over 127.0.0.1, to a
/// listener of its own. Patient here: the tests run in parallel on a loaded machine, where the
/// session's two seconds may not be enough.
@Suite struct NetworkWarmUpTests {
    private let patience = Duration.seconds(60)

    @Test func itsRequestIsAnsweredAndLaidOut() async throws {
        try await NetworkWarmUp.exercise(patience: patience)
    }

    @Test func twoAtOnceEachHaveTheirOwnListener() async {
        async let first = NetworkWarmUp.run(patience: patience)
        async let second = NetworkWarmUp.run(patience: patience)
        let answered = await (first, second)
        #expect(answered == (true, true))
    }
}
