import Testing
@testable import App

/// The warm-up a session runs after its first frame: one real request, over 127.0.0.1, to a
/// listener of its own.
@Suite struct NetworkWarmUpTests {
    @Test func itsRequestIsAnsweredAndLaidOut() async {
        #expect(await NetworkWarmUp.run(), "the loopback request had its 200 and its JSON body was laid out")
    }

    @Test func twoAtOnceEachHaveTheirOwnListener() async {
        async let first = NetworkWarmUp.run()
        async let second = NetworkWarmUp.run()
        let answered = await (first, second)
        #expect(answered == (true, true))
    }
}
