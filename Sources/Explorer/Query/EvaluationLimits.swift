import Foundation

/// How much work evaluating what a collection or a response brings may take: the expansion of
/// one template, one JSONPath query, one regular expression.
///
/// A collection, a filter or a response can ask for exponential work in a few bytes (variables
/// that each use the next twice, `$..*..*..*`, `(a+)+$`): each such evaluation stops at its
/// limit with an error that names it, never with a silent or partial result. The defaults are
/// far above what real collections need; each is raised (or lowered) by an environment
/// variable, which the error names.
package struct EvaluationLimits: Sendable, Hashable {
    /// How many variables and functions one template may expand, counting every use of each
    /// (`EXPLORER_MAX_TEMPLATE_STEPS`, default 100,000).
    package var templateSteps: Int
    /// How long one template's result may grow, in characters (`EXPLORER_MAX_TEMPLATE_SIZE`,
    /// default 64M; `K`, `M`, `G` are binary).
    package var templateSize: Int
    /// How many nodes one JSONPath query may visit and select, over all its segments
    /// (`EXPLORER_MAX_QUERY_NODES`, default 10,000,000).
    package var queryNodes: Int
    /// How long one JSONPath query may run, in seconds (`EXPLORER_QUERY_TIMEOUT`, default 10).
    package var querySeconds: Double
    /// How long one regular expression may search one text, in seconds
    /// (`EXPLORER_REGEX_TIMEOUT`, default 5): assertions' `matches`, the `regex` query and
    /// captures, JSONPath's `match()` and `search()`.
    package var regexSeconds: Double

    /// Creates limits.
    package init(
        templateSteps: Int = 100_000, templateSize: Int = 64 << 20, queryNodes: Int = 10_000_000,
        querySeconds: Double = 10, regexSeconds: Double = 5
    ) {
        self.templateSteps = templateSteps
        self.templateSize = templateSize
        self.queryNodes = queryNodes
        self.querySeconds = querySeconds
        self.regexSeconds = regexSeconds
    }

    /// The environment variables that set each limit.
    package static let templateStepsVariable = "EXPLORER_MAX_TEMPLATE_STEPS"
    package static let templateSizeVariable = "EXPLORER_MAX_TEMPLATE_SIZE"
    package static let queryNodesVariable = "EXPLORER_MAX_QUERY_NODES"
    package static let queryTimeoutVariable = "EXPLORER_QUERY_TIMEOUT"
    package static let regexTimeoutVariable = "EXPLORER_REGEX_TIMEOUT"

    /// The limits of this process: the defaults, with what its environment sets.
    package static let current = EvaluationLimits(environment: ProcessInfo.processInfo.environment)

    /// The process's limits cut to what may run between two key presses (a tenth of a second,
    /// 200,000 nodes): the TUI's filter applied as it is typed, on the main queue. A query past
    /// them is run off the main queue with the process's own limits when it is entered.
    package static var betweenKeys: EvaluationLimits {
        var limits = current
        limits.queryNodes = min(limits.queryNodes, 200_000)
        limits.querySeconds = min(limits.querySeconds, 0.1)
        limits.regexSeconds = min(limits.regexSeconds, 0.1)
        return limits
    }

    /// The defaults, with what `environment` sets; a value that is not a positive number is
    /// ignored. Seconds may have a fraction (`0.5`); a size may end in `K`, `M` or `G`.
    package init(environment: [String: String]) {
        self.init()
        if let steps = environment[Self.templateStepsVariable].flatMap(LimitSetting.count) { templateSteps = steps }
        if let size = environment[Self.templateSizeVariable].flatMap(LimitSetting.size) { templateSize = size }
        if let nodes = environment[Self.queryNodesVariable].flatMap(LimitSetting.count) { queryNodes = nodes }
        if let seconds = environment[Self.queryTimeoutVariable].flatMap(LimitSetting.seconds) { querySeconds = seconds }
        if let seconds = environment[Self.regexTimeoutVariable].flatMap(LimitSetting.seconds) { regexSeconds = seconds }
    }

    /// A number of seconds as people write it: `1 second`, `0.5 seconds`, `5 seconds`.
    static func duration(_ seconds: Double) -> String {
        let number = seconds == seconds.rounded() && seconds < 1e15 ? String(Int(seconds)) : String(seconds)
        return number + (seconds == 1 ? " second" : " seconds")
    }
}

/// An evaluation stopped at one of its `EvaluationLimits`: what passed which limit, and how to
/// raise it.
package struct EvaluationLimitError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What passed the limit, a phrase in lower case ("the JSONPath $..* selected more than
    /// 10000000 nodes").
    package var problem: String
    /// The environment variable that raises the limit; `nil` when it cannot be raised.
    package var variable: String?
    /// What to do when the limit cannot be raised.
    package var otherwise: String?

    /// Creates an error.
    package init(problem: String, variable: String?, otherwise: String? = nil) {
        self.problem = problem
        self.variable = variable
        self.otherwise = otherwise
    }

    /// One sentence: what passed the limit, then how to raise it.
    package var description: String {
        if let variable { return "\(problem); set \(variable) to a larger value to allow more" }
        return problem + (otherwise.map { "; \($0)" } ?? "")
    }
}

/// A limit's value as a user writes it in an environment variable: a positive whole number
/// (`_` allowed between digits), a positive number of seconds (`0.5`), or a size in bytes that
/// may end in `K`, `M` or `G` (binary: `128M` is 128 MiB). `nil` for anything else, which
/// leaves the default in place.
package enum LimitSetting {
    /// A positive whole number.
    package static func count(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "")).flatMap {
            $0 > 0 ? $0 : nil
        }
    }

    /// A positive, finite number of seconds.
    package static func seconds(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }

    /// A positive size in bytes, `K`, `M` or `G` after it multiplying by 1,024 each.
    package static func size(_ text: String) -> Int? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        var shift = 0
        if let last = digits.last, let index = "KMG".firstIndex(of: last) {
            shift = 10 * ("KMG".distance(from: "KMG".startIndex, to: index) + 1)
            digits.removeLast()
        }
        guard let value = Int(digits), value > 0, value < Int.max >> shift else { return nil }
        return value << shift
    }
}
