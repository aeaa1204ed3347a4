import Foundation

/// Bruno's `{{…}}` as explorer's: `{{var}}` stays, `{{process.env.X}}` is `{{env.X}}`, and
/// the dynamic variables explorer has a function for become it (`{{$guid}}` is `{{uuid}}`).
final class BrunoTemplates {
    /// Dynamic variables with no explorer function, kept as written.
    private(set) var unknownDynamic: Set<String> = []

    /// Bruno variables named `env.…`, renamed `env_…`.
    private(set) var renamed: Set<String> = []

    /// A Bruno variable's name in explorer: `env.X` (which explorer reads as the process
    /// environment) is `env_X`; others as they are.
    static func variableName(_ name: String) -> String {
        name.hasPrefix("env.") ? "env_" + name.dropFirst(4) : name
    }

    /// Creates a conversion that has met nothing yet.
    init() {}

    /// The dynamic variables with an explorer function.
    static let functions: [String: String] = [
        "$guid": "uuid", "$randomUUID": "uuid", "$timestamp": "timestamp", "$isoTimestamp": "now",
        "$randomInt": "random_int 0 1000",
    ]

    /// The text with each placeholder converted.
    func convert(_ text: String) -> String {
        guard text.contains("{{") else { return text }
        var out = ""
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            out += rest[..<open.lowerBound]
            let inner = rest[open.upperBound..<close.lowerBound]
            let name = inner.trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("process.env.") {
                out += "{{env.\(name.dropFirst("process.env.".count))}}"
            } else if name.hasPrefix("env.") {
                // explorer's {{env.X}} is the process environment: a Bruno variable named env.X is renamed.
                renamed.insert(name)
                out += "{{\(Self.variableName(name))}}"
            } else if let function = Self.functions[name] {
                out += "{{\(function)}}"
            } else {
                if name.hasPrefix("$") { unknownDynamic.insert(name) }
                out += "{{\(inner)}}"
            }
            rest = rest[close.upperBound...]
        }
        return out + rest
    }

    /// The text with `{{name}}` replaced by the values given (a request's or folder's own
    /// variables, which win over the environment's in Bruno); others as they are.
    static func substituting(_ values: [String: String], in text: String) -> String {
        guard !values.isEmpty, text.contains("{{") else { return text }
        var out = ""
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            out += rest[..<open.lowerBound]
            let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            out += values[name] ?? String(rest[open.lowerBound..<close.upperBound])
            rest = rest[close.upperBound...]
        }
        return out + rest
    }
}
