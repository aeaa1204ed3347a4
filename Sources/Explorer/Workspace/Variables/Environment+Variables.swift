import Foundation

/// Where a variable's value comes from, as the variables view says it.
package enum VariableOrigin: Sendable, Hashable {
    /// A `capture:` of an endpoint set it (its address), at that time.
    case captured(endpoint: String, at: Date)
    /// The environment defines it.
    case environment
    /// The collection's `variables:` define it.
    case collection
}

extension Environment {
    /// A variable as an editor or the variables view shows it: its name, its value now
    /// (secrets masked) and where that value comes from.
    package struct ShownVariable: Sendable, Hashable {
        /// The name, as written between `{{` and `}}`.
        package var name: String
        /// The expanded value (`•••••` for a secret), or why it has none.
        package var value: String
        /// Whether the value is a secret (masked) or could not be expanded.
        package var isSecret: Bool
        /// Where the value comes from (a captured value hides the file's of the same name).
        package var origin: VariableOrigin = .environment
    }

    /// Every variable this environment offers (captured ones first, then its own, then the
    /// collection's), each expanded as a request would see it, secret values masked: what an
    /// editor shows beside a `{{variable}}`, what completion offers after `{{`, and what the
    /// variables view lists.
    ///
    /// Reads the process environment (for `{{env.NAME}}` in values): call it from an effect.
    ///
    /// - Parameters:
    ///   - captured: the variables captured in this environment (`CaptureStore`).
    ///   - processEnvironment: the process environment.
    /// - Returns: the variables, each name once, by the precedence a request uses.
    package func shownVariables(
        captured: [String: CapturedVariable] = [:],
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [ShownVariable] {
        var scope = scope(processEnvironment: processEnvironment)
        scope.captured = captured.mapValues(\.value)
        let secretValues =
            secretValues(in: scope) + captured.values.filter(\.isSecret).map(\.value).filter { !$0.isEmpty }
        var seen: Set<String> = []
        var shown: [ShownVariable] = []
        for (name, variable) in captured.sorted(by: { $0.key < $1.key }) where seen.insert(name).inserted {
            let isSecret = variable.isSecret || secrets.contains(name)
            shown.append(
                ShownVariable(
                    name: name, value: isSecret ? SecretMasker.mask : variable.value, isSecret: isSecret,
                    origin: .captured(endpoint: variable.endpoint, at: variable.capturedAt)))
        }
        let own =
            variables.map { ($0, VariableOrigin.environment) }
            + collectionVariables.map { ($0, VariableOrigin.collection) }
        for (variable, origin) in own where seen.insert(variable.name).inserted {
            let value: String
            var isSecret = secrets.contains(variable.name)
            do {
                value = try scope.value(of: variable.name)
                if secretValues.contains(where: { !$0.isEmpty && value.contains($0) }) { isSecret = true }
            } catch {
                shown.append(ShownVariable(name: variable.name, value: "(undefined)", isSecret: false, origin: origin))
                continue
            }
            shown.append(
                ShownVariable(
                    name: variable.name, value: isSecret ? SecretMasker.mask : value, isSecret: isSecret, origin: origin
                ))
        }
        return shown
    }
}

extension Environment {
    /// A text with the variables this environment and its collection write put in (one level,
    /// no `{{env.…}}`, no function): what a template says before anything outside the file is
    /// read. Where trust and exports compare servers as the file names them.
    ///
    /// - Parameters:
    ///   - text: a base URL, a path or a whole URL, as written.
    ///   - collection: the collection, whose `variables:` come after the environment's.
    /// - Returns: the text, a variable neither defines left as written.
    package func asWritten(_ text: String, in collection: APICollection) -> String {
        Template.rewritingVariables(in: text) { name in
            variables[named: name] ?? collection.variables[named: name] ?? "{{\(name)}}"
        }
    }
}
