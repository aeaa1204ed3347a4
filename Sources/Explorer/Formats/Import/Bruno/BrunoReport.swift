import Foundation

/// What a Bruno import noticed, said once at the end as a few summary lines.
struct BrunoReport: Sendable {
    /// Files left out, each as its error sentence (path, line, reason).
    var skippedFiles: [String] = []
    /// Per request or folder, the script blocks it had (`script:pre-request`, `tests` …).
    var scripts: [(owner: String, blocks: [String])] = []
    /// Requests whose disabled rows were kept under `disabled:`.
    var disabledRows: [String] = []
    /// Auth that could not be imported, one sentence each.
    var auth: [String] = []
    /// Assertions and post-response variables that have no explorer check, with their request.
    var checks: [String] = []
    /// Bruno dynamic variables (`{{$randomEmail}}`) with no explorer function, kept as written.
    var dynamicVariables: Set<String> = []
    /// Files named by bodies that are outside the collection: left out.
    var outsideFiles: [String] = []
    /// Anything else, one sentence each.
    var other: [String] = []
    /// The names the collection's `.env` defines.
    var dotEnvNames: [String] = []
    /// Secret environment variables, whose values Bruno keeps outside the files.
    var secretVariables: Set<String> = []

    /// The warnings to print.
    var warnings: [String] {
        var out: [String] = []
        func listed(_ items: [String], limit: Int = 12) -> String {
            items.prefix(limit).joined(separator: "; ") + (items.count > limit ? "; … (\(items.count) in all)" : "")
        }
        if !skippedFiles.isEmpty {
            out.append(
                "\(skippedFiles.count) file\(skippedFiles.count == 1 ? " was" : "s were") left out, "
                    + "the rest imported: \(listed(skippedFiles, limit: 20))")
        }
        if !scripts.isEmpty {
            out.append(
                "scripts and tests do not run in explorer (it runs no scripts, by design); left out: "
                    + listed(scripts.map { "\($0.owner) (\($0.blocks.joined(separator: ", ")))" }, limit: 30)
                    + ". Assertions and post-response variables were imported as assert: and capture:.")
        }
        if !disabledRows.isEmpty {
            out.append(
                "disabled params, headers and form fields are kept switched off under disabled: (not sent) in "
                    + listed(disabledRows.map { "\"\($0)\"" }, limit: 20) + ".")
        }
        out += auth
        if !checks.isEmpty {
            out.append("checks with no explorer equivalent were left out: \(listed(checks, limit: 20)).")
        }
        if !dynamicVariables.isEmpty {
            out.append(
                "Bruno's dynamic variables " + dynamicVariables.sorted().map { "{{\($0)}}" }.joined(separator: ", ")
                    + " have no explorer function and were kept as written: define them as variables "
                    + "(explorer has {{uuid}}, {{timestamp}}, {{now}} and {{random_int A B}}).")
        }
        if !outsideFiles.isEmpty {
            out.append(
                "files outside the collection's folder were left out of bodies (an import reaches no file outside it): "
                    + listed(outsideFiles) + ".")
        }
        if !secretVariables.isEmpty {
            out.append(
                "the secret variables " + secretVariables.sorted().joined(separator: ", ")
                    + " have no value in Bruno's files (Bruno keeps it on the machine); they are secrets: with an "
                    + "empty value: set each one (--var NAME=value, or its value in the environment).")
        }
        if !dotEnvNames.isEmpty {
            out.append(
                "the collection's .env defines \(listed(dotEnvNames)); {{process.env.NAME}} became {{env.NAME}}, "
                    + "which explorer reads from the environment or from a .env file beside the collection file: "
                    + "copy the .env there (its values were not imported).")
        }
        out += other
        return out
    }
}
