/// Why the text of a `capture:` or an `assert:` could not be read: one sentence, and where in
/// the text the problem starts (so the loader can point at the column).
struct CheckSyntaxError: Error, Sendable, Hashable {
    /// What is wrong and what to write instead.
    var problem: String
    /// The offset, in characters from the start of the text, where the problem starts.
    var offset: Int

    init(_ problem: String, at offset: Int = 0) {
        self.problem = problem
        self.offset = offset
    }

    /// " Did you mean "X"?" for the closest of `names`, or "" when none is close.
    static func didYouMean(_ word: String, in names: [String]) -> String {
        Suggestions.closest(to: word, in: names, limit: 1).first.map { " Did you mean \"\($0)\"?" } ?? ""
    }
}
