import Foundation

extension Environment {
    /// A variable as an editor shows it: its name and its value now, secrets masked.
    package struct ShownVariable: Sendable, Hashable {
        /// The name, as written between `{{` and `}}`.
        package var name: String
        /// The expanded value (`•••••` for a secret), or why it has none.
        package var value: String
        /// Whether the value is a secret (masked) or could not be expanded.
        package var isSecret: Bool
    }

    /// Every variable this environment offers (its own first, then the collection's), each
    /// expanded as a request would see it, secret values masked: what an editor shows beside
    /// a `{{variable}}` and what completion offers after `{{`.
    ///
    /// Reads the process environment (for `{{env.NAME}}` in values): call it from an effect.
    ///
    /// - Parameter processEnvironment: the process environment.
    /// - Returns: the variables, each name once.
    package func shownVariables(processEnvironment: [String: String] = ProcessInfo.processInfo.environment) -> [ShownVariable] {
        let scope = scope(processEnvironment: processEnvironment)
        let secretValues = secretValues(in: scope)
        var seen: Set<String> = []
        var shown: [ShownVariable] = []
        for variable in variables + collectionVariables where seen.insert(variable.name).inserted {
            let value: String
            var isSecret = secrets.contains(variable.name)
            do {
                value = try scope.value(of: variable.name)
                if secretValues.contains(where: { !$0.isEmpty && value.contains($0) }) { isSecret = true }
            } catch {
                shown.append(ShownVariable(name: variable.name, value: "(undefined)", isSecret: false))
                continue
            }
            shown.append(ShownVariable(name: variable.name, value: isSecret ? SecretMasker.mask : value, isSecret: isSecret))
        }
        return shown
    }
}
