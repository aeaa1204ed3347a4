import ArgumentParser
import Checks
import Foundation
import Workspace

/// `explorer run --data FILE` and `--iterations N`: the passes a run makes over its selection.
extension RunCommand {
    /// The iterations to run: one per row of `--data`, else `--iterations` (`--repeat`) of
    /// them, else one. A column no `{{…}}` of the collection names is a warning on stderr, once.
    ///
    /// - Parameter collectionPath: the collection file, read for the columns it uses.
    /// - Throws: `ExitCode(2)` after one sentence when the data file cannot be used.
    func iterationPlan(collectionPath: String) throws -> [RunIteration] {
        guard let data else { return (1...(iterations ?? 1)).map { RunIteration(number: $0) } }
        let file: DataFile
        do {
            file = try DataFile.read(at: data)
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        if let text = try? String(contentsOfFile: collectionPath, encoding: .utf8) {
            for column in file.unusedColumns(in: text) {
                printError(
                    "warning: \(data): the column \"\(column)\" is used by no {{\(column)}} in the collection, "
                        + "so its values are sent nowhere: rename it after a variable the requests use, or remove it.")
            }
        }
        return file.rows.map { RunIteration(number: $0.number, row: $0) }
    }

    /// A request of a data run that could not be built, said with the row: a variable that
    /// neither the row nor the environment gives names both and how to give it.
    ///
    /// - Parameters:
    ///   - error: the resolver's sentence (`file:line:column: The variable {{id}} used in … is
    ///     undefined: …`).
    ///   - row: the row the iteration ran with.
    ///   - dataFile: the data file as named.
    static func rowError(_ error: String, row: DataRow, dataFile: String) -> String {
        let pattern = #/^(?<place>.*?)The variable \{\{(?<name>[^}]+)\}\} used in (?<context>.+?) is undefined:/#
        guard let match = try? pattern.firstMatch(in: error), !match.output.name.hasPrefix("env.") else {
            return "\(dataFile) \(row.place): \(error)"
        }
        let name = String(match.output.name)
        return
            "\(dataFile) \(row.place): \(match.output.place)the variable {{\(name)}} used in "
            + "\(match.output.context) is given by neither the row nor the environment: add the column \(name) to "
            + "\(dataFile), define it in the environment, or pass --var \(name)=VALUE."
    }
}
