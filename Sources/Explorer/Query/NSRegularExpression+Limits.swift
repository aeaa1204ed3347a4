import Foundation

extension NSRegularExpression {
    /// The first match in `text`, searched for at most `seconds`, telling "no match" from
    /// "the engine gave up".
    ///
    /// `firstMatch(in:range:)` answers `nil` both when nothing matches and when ICU stops
    /// (its backtracking stack is full, as `(a+)+$` fills it on a long run of `a`), and it runs
    /// as long as a catastrophic pattern asks (`a*a*a*a*a*b` on 200 bytes: minutes). Here the
    /// search reports progress, so it is stopped at the deadline, and reports completion, whose
    /// `.internalError` flag says ICU gave up: both are errors, never a `nil` that a
    /// `not matches` would take as a pass.
    ///
    /// - Parameters:
    ///   - text: the text searched.
    ///   - seconds: how long the search may run (`EvaluationLimits.regexSeconds`).
    /// - Returns: the first match, or `nil` when the whole text was searched and nothing matched.
    /// - Throws: `EvaluationLimitError` when the search ran out of time or ICU gave up.
    package func firstMatch(in text: String, within seconds: Double) throws(EvaluationLimitError)
        -> NSTextCheckingResult?
    {
        let range = NSRange(text.startIndex..., in: text)
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min(seconds, 1e9)) * 1e9)
        var found: NSTextCheckingResult?
        var timedOut = false
        var gaveUp = false
        enumerateMatches(in: text, options: [.reportProgress, .reportCompletion], range: range) { result, flags, stop in
            if let result {
                found = result
                stop.pointee = true
            } else if flags.contains(.internalError) {
                gaveUp = true
            } else if !flags.contains(.completed), DispatchTime.now().uptimeNanoseconds > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if let found { return found }
        if gaveUp {
            throw EvaluationLimitError(
                problem:
                    "the regular expression \"\(pattern)\" gave up on a text of \(text.utf16.count) characters: "
                    + "it backtracks "
                    + "more than the regular expression engine's stack holds (nested repetition such as (a+)+)",
                variable: nil,
                otherwise: "this limit cannot be raised: write the pattern without nested repetition"
            )
        }
        if timedOut {
            throw EvaluationLimitError(
                problem:
                    "the regular expression \"\(pattern)\" ran for more than \(EvaluationLimits.duration(seconds)) "
                    + "on a text of \(text.utf16.count) characters without an answer",
                variable: EvaluationLimits.regexTimeoutVariable
            )
        }
        return nil
    }
}
