import ArgumentParser
import History

// The options several commands take, declared once each: one name, one help text, one parser
// and one error for a malformed value (a sentence on stderr, exit code 2, as every usage error
// of explorer). A command includes each as an `@OptionGroup`, where its own help lists it.
// The collection and its environment are in `CollectionOptions.swift`.

/// `--var NAME=VALUE` (repeatable): variables that win over the collection's.
struct VariableOptions: ParsableArguments {
    @Option(
        name: .customLong("var"),
        help: ArgumentHelp("Set a variable that wins over the collection's (repeatable).", valueName: "NAME=VALUE"))
    var pairs: [String] = []

    /// The variables by name, a later pair winning over an earlier one of the same name
    /// (`validate` has refused a malformed pair before the command runs).
    var overrides: [String: String] { (try? Self.parse(pairs)) ?? [:] }

    func validate() throws {
        do {
            _ = try Self.parse(pairs)
        } catch {
            throw ExchangeSender.usageError(error.description)
        }
    }

    /// A `--var` value that is not `NAME=VALUE`: no `=`, or nothing before it.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        /// The value as given.
        let pair: String

        /// The sentence every command prints for it.
        var description: String { "--var expects NAME=VALUE, but got \"\(pair)\"." }
    }

    /// One `NAME=VALUE`: the name is what comes before the first `=` (not empty), the value
    /// everything after it (may be empty, may hold `=`).
    static func assignment(_ pair: String) -> (name: String, value: String)? {
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
        return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
    }

    /// Parses `--var` values.
    ///
    /// - Parameter pairs: the raw `NAME=VALUE` texts, in command-line order.
    /// - Returns: the variables by name (a later pair wins).
    /// - Throws: `Malformed` for the first pair that is not `NAME=VALUE`.
    static func parse(_ pairs: [String]) throws(Malformed) -> [String: String] {
        var result: [String: String] = [:]
        for pair in pairs {
            guard let (name, value) = assignment(pair) else { throw Malformed(pair: pair) }
            result[name] = value
        }
        return result
    }
}

/// `--timeout S`: the idle timeout of each request.
struct TimeoutOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Give up on a request when nothing arrives for this many seconds (the idle timeout).", valueName: "S"))
    var timeout: Double?

    func validate() throws {
        if let timeout, !(timeout > 0) {
            throw ExchangeSender.usageError("--timeout must be a number of seconds greater than 0.")
        }
    }
}

/// `--no-history`: nothing the command sends is recorded.
struct HistoryOption: ParsableArguments {
    @Flag(name: .long, help: "Do not record anything in the history.")
    var noHistory = false

    /// What records the command's exchanges: none with `--no-history`.
    func recorder() -> HistoryRecorder? { noHistory ? nil : HistoryRecorder(report: printError) }
}

/// `--no-cookies`: the environment's cookie jar is neither read nor written.
struct CookiesOption: ParsableArguments {
    @Flag(name: .long, help: "Neither send the environment's cookies nor keep the ones servers set.")
    var noCookies = false
}

/// `--yes`: the confirmation a non-GET request to a protected environment asks for.
struct ConfirmOption: ParsableArguments {
    @Flag(name: .long, help: "Confirm non-GET requests to a protected environment without a prompt.")
    var yes = false
}

/// `--no-validate`: GraphQL queries are sent without checking them against the schema.
struct GraphQLValidationOption: ParsableArguments {
    @Flag(name: .long, help: "Send GraphQL queries without validating them against the environment's schema first.")
    var noValidate = false

    /// Whether queries are validated against the schema before they are sent.
    var validatesGraphQL: Bool { !noValidate }
}

/// `--validate`: every response is checked against its operation in the `openapi:` document.
struct ResponseValidationOption: ParsableArguments {
    @Flag(
        name: .customLong("validate"),
        help: ArgumentHelp(
            "Check every response against its operation in the collection's openapi: document "
                + "(as validate: true does): status, content type and body schema; "
                + "a violation fails the checks (exit code 3)."))
    var validatesResponses = false
}
