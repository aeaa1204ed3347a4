import Foundation
import Query
import Synchronization

/// Where `{{name}}` gets its value, by precedence: `--var` > a data file's row (`run --data`) >
/// captured > environment > collection.
///
/// `{{env.NAME}}` reads the process environment, then the `.env` file beside the collection.
/// The built-ins `{{uuid}}`, `{{timestamp}}` (Unix seconds) and `{{now}}` (ISO 8601, UTC)
/// hold one value per scope, so a request that uses `{{uuid}}` twice sees the same one; the
/// functions of `TemplateFunction` (`{{now "yyyy"}}`, `{{base64 credentials}}` …) take arguments.
/// Values may themselves hold templates; they are expanded, and a cycle is an error. One
/// expansion is bounded by `limits` (steps and size), so that variables that each use the next
/// twice cannot run for ever: past a limit it is an error naming it.
package struct VariableScope: Sendable {
    /// `--var name=value` pairs from the command line (highest precedence), above the row of
    /// `run --data` being sent (merged in below them by `SequenceRunner`).
    var overrides: [String: String]
    /// Values captured from earlier responses in this environment (taken as they are, never
    /// expanded: a response's `{{` is text).
    var captured: [String: String] = [:]
    /// The active environment's variables.
    var environmentVariables: [KeyValue]
    /// The collection-wide defaults (lowest precedence).
    var collectionVariables: [KeyValue]
    /// The process environment, for `{{env.NAME}}`.
    var processEnvironment: [String: String]
    /// The `.env` file beside the collection, for `{{env.NAME}}` when the process lacks it.
    var dotEnv: [String: String]
    /// The value of `{{uuid}}`.
    var uuid: String
    /// The moment `{{timestamp}}` and `{{now}}` stand for.
    var now: Date
    /// The folder `{{file PATH}}` reads from (the collection's).
    var directory: URL?
    /// Who answers `{{prompt "Label"}}` (nobody when `nil`: the call is an error).
    var prompter: (any TemplatePrompter)?
    /// The collection file: `{{command "…"}}` runs only when `CollectionTrust` trusts it.
    var collectionFile: URL?
    /// Whether `{{command "…"}}` runs, or stays as written (a preview never runs one).
    var runsCommands = true
    /// What the functions gave, kept for the preview and for masking (shared by the copies
    /// of this scope, so a command runs once per request).
    var outputs = TemplateOutputs()
    /// How many variables and functions one expansion may expand, and how long its result may
    /// grow (`EXPLORER_MAX_TEMPLATE_STEPS`, `EXPLORER_MAX_TEMPLATE_SIZE` in `processEnvironment`).
    var limits: EvaluationLimits

    /// Creates a scope; the built-ins default to a fresh UUID and the current time.
    init(
        overrides: [String: String] = [:],
        environmentVariables: [KeyValue] = [],
        collectionVariables: [KeyValue] = [],
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
        dotEnv: [String: String] = [:],
        uuid: String = UUID().uuidString.lowercased(),
        now: Date = Date()
    ) {
        self.overrides = overrides
        self.environmentVariables = environmentVariables
        self.collectionVariables = collectionVariables
        self.processEnvironment = processEnvironment
        self.limits = EvaluationLimits(environment: processEnvironment)
        self.dotEnv = dotEnv
        self.uuid = uuid
        self.now = now
    }

    /// Why a template could not be expanded.
    package enum Failure: Error, Sendable, Hashable {
        /// No source defines the name.
        case undefined(String)
        /// The name's value refers back to itself, through the names listed.
        case cycle([String])
        /// A template function (`{{random_int 1 100}}`) that cannot be evaluated, and why.
        case function(String, reason: String)
        /// A `{{prompt "Label"}}` with no answer yet (the TUI asks, then resolves again).
        case unanswered(UnansweredPrompt)
        /// Expanding the name passed one of the `EvaluationLimits` (steps or size).
        case limit(String, EvaluationLimitError)
    }

    /// The raw (unexpanded) value of a name, or `nil` when nothing defines it.
    func rawValue(of name: String) -> String? {
        if let value = overrides[name] { return value }
        if let value = captured[name] { return value }
        if let value = environmentVariables[named: name] { return value }
        if let value = collectionVariables[named: name] { return value }
        if name.hasPrefix("env.") {
            let key = String(name.dropFirst(4))
            return processEnvironment[key] ?? dotEnv[key]
        }
        switch name {
        case "uuid", "$uuid", "$guid": return uuid
        case "timestamp", "$timestamp": return String(Int(now.timeIntervalSince1970))
        case "now", "$datetime": return VariableScope.iso8601(now)
        default: return nil
        }
    }

    /// The fully expanded value of a name.
    ///
    /// - Throws: `Failure.undefined`, `Failure.cycle`, or `Failure.limit` past the steps or
    ///   size one expansion may take.
    func value(of name: String) throws(Failure) -> String {
        try value(of: name, trail: [], budget: TemplateBudget(limits))
    }

    private func value(of name: String, trail: [String], budget: TemplateBudget) throws(Failure) -> String {
        if trail.contains(name) { throw .cycle(trail + [name]) }
        try budget.step(trail.first ?? name)
        if let call = TemplateFunction(name) {
            do {
                if call.name == "prompt", case .text(let label)? = call.arguments.first, let given = overrides[label] {
                    return given
                }
                let result = try call.evaluate(
                    now: now, directory: directory,
                    files: collectionFile.map { SendTimeFiles(collectionFile: $0, environment: processEnvironment) },
                    prompter: prompter, runCommand: runCommand
                ) { argument throws(Failure) in
                    try value(of: argument, trail: trail + [name], budget: budget)
                }
                outputs.record(name, result)
                return result
            } catch let failure as Failure {
                throw failure
            } catch let unanswered as UnansweredPrompt {
                throw .unanswered(unanswered)
            } catch let failure as TemplateFunction.Failure {
                throw .function(name, reason: failure.reason)
            } catch {
                throw .function(name, reason: "\(error)")
            }
        }
        guard let raw = rawValue(of: name) else { throw .undefined(name) }
        // Values from the process, `.env` and the built-ins are taken as they are.
        let isUserVariable =
            overrides[name] != nil
            || (captured[name] == nil
                && (environmentVariables[named: name] != nil || collectionVariables[named: name] != nil))
        guard isUserVariable else {
            // A built-in answered it (`{{uuid}}` …): the preview lists it with the functions.
            if captured[name] == nil, Self.builtIns.contains(name) { outputs.record(name, raw) }
            return raw
        }
        return try expand(raw, trail: trail + [name], budget: budget).text
    }

    /// Expands every `{{name}}` of a text.
    ///
    /// - Returns: the text, and for each variable the character range (in `Character`s of the
    ///   result) its value took, for highlighting.
    /// - Throws: `Failure` naming the first variable that could not be expanded.
    package func expand(_ text: String) throws(Failure) -> (text: String, spans: [VariableSpan]) {
        try expand(text, trail: [], budget: TemplateBudget(limits))
    }

    private func expand(_ text: String, trail: [String], budget: TemplateBudget) throws(Failure) -> (
        text: String, spans: [VariableSpan]
    ) {
        var out = ""
        var count = 0
        var spans: [VariableSpan] = []
        for segment in Template(text).segments {
            switch segment {
            case .literal(let literal):
                out += literal
                count += literal.count
            case .variable(let name):
                let value = try value(of: name, trail: trail, budget: budget)
                spans.append(VariableSpan(name: name, range: count..<(count + value.count)))
                out += value
                count += value.count
                try budget.check(size: count, of: trail.first ?? name)
            }
        }
        return (out, spans)
    }

    /// The names the scope itself answers (`{{uuid}}` …) unless a variable has the name.
    static let builtIns: Set<String> = ["uuid", "$uuid", "$guid", "timestamp", "$timestamp", "now", "$datetime"]

    /// Runs a `{{command "…"}}`: once per request, from a trusted collection file only.
    private func runCommand(_ command: String) throws -> String {
        guard runsCommands else { return "{{command \"\(command)\"}}" }
        if let kept = outputs.commandOutput(command) { return kept }
        guard let collectionFile else {
            throw TemplateFunction.Failure(reason: "commands run only from a collection file the user opened")
        }
        guard let reach = CollectionReach(loading: collectionFile),
            CollectionTrust(environment: processEnvironment).isTrusted(collectionFile, reach: reach)
        else {
            throw TemplateFunction.Failure(
                reason:
                    "commands run only from a collection you opened by name or trusted, "
                    + "and \(collectionFile.path) was found, not named: "
                    + "open it with --collection, or run explorer trust \(collectionFile.path)")
        }
        do {
            let output = try TemplateCommand(command, directory: directory, environment: processEnvironment).run()
            outputs.keepCommandOutput(command, output)
            return output
        } catch let failure as TemplateCommand.Failure {
            throw TemplateFunction.Failure(reason: "the command \"\(command)\" failed: \(failure.description)")
        }
    }

    /// `{{now}}`'s format: ISO 8601 in UTC with seconds, e.g. `2026-11-23T09:30:00Z`.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// What one expansion has done so far: the variables and functions it expanded, against the
/// limits it may not pass. A class, so that every level of the expansion counts in one.
private final class TemplateBudget {
    let limits: EvaluationLimits
    private var steps = 0

    init(_ limits: EvaluationLimits) { self.limits = limits }

    /// Counts one variable or function expanded, for the expansion of `name`.
    func step(_ name: String) throws(VariableScope.Failure) {
        steps += 1
        guard steps > limits.templateSteps else { return }
        throw .limit(
            name,
            EvaluationLimitError(
                problem:
                    "expanding it took more than \(limits.templateSteps) "
                    + "steps (variables that use one another many times)",
                variable: EvaluationLimits.templateStepsVariable
            ))
    }

    /// Checks the length of a result so far, in the expansion of `name`.
    func check(size: Int, of name: String) throws(VariableScope.Failure) {
        guard size > limits.templateSize else { return }
        throw .limit(
            name,
            EvaluationLimitError(
                problem: "its value grew past \(limits.templateSize) characters",
                variable: EvaluationLimits.templateSizeVariable
            ))
    }
}

/// What the template functions of one request gave, in the order first called: the request
/// preview marks them, and command outputs are masked like secrets.
final class TemplateOutputs: Sendable {
    private struct State {
        var calls: [(expression: String, value: String)] = []
        var commands: [String: String] = [:]
    }
    private let state = Mutex(State())

    /// Records a call's value (the first of each expression).
    func record(_ expression: String, _ value: String) {
        state.withLock { state in
            guard !state.calls.contains(where: { $0.expression == expression }) else { return }
            state.calls.append((expression, value))
        }
    }

    /// The calls made, each once.
    var all: [(expression: String, value: String)] { state.withLock { $0.calls } }

    /// A command's output, when it already ran for this request.
    func commandOutput(_ command: String) -> String? { state.withLock { $0.commands[command] } }

    /// Keeps a command's output: the request's other uses take it, and it is masked.
    func keepCommandOutput(_ command: String, _ output: String) {
        state.withLock { $0.commands[command] = output }
    }

    /// The outputs of commands, which are secrets (they come from secret managers).
    var commandOutputs: [String] { state.withLock { Array($0.commands.values) } }
}

/// Where one variable's value sits in an expanded string, for highlighting.
package struct VariableSpan: Sendable, Hashable {
    /// The variable's name as written between the braces.
    var name: String
    /// The range of `Character` offsets its value covers in the expanded string.
    package var range: Range<Int>
    /// Whether a template function gave the value (`{{uuid}}`, `{{now "yyyy"}}` …) rather
    /// than a variable.
    package var isFunction: Bool { VariableScope.builtIns.contains(name) || TemplateFunction(name) != nil }

    /// Creates a span.
    init(name: String, range: Range<Int>) {
        self.name = name
        self.range = range
    }

    /// The same span moved right by `offset` characters.
    func shifted(by offset: Int) -> VariableSpan {
        VariableSpan(name: name, range: (range.lowerBound + offset)..<(range.upperBound + offset))
    }
}
