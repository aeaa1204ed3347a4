import Yams

extension YamlError {
    /// Where libyaml stopped (1-based), or line 1 when the error has no place.
    package var line: Int { mark?.line ?? 1 }
    /// The column where libyaml stopped (1-based), or 1.
    package var column: Int { mark?.column ?? 1 }

    /// What is wrong, in one line, without the document Yams adds to its own description.
    package var problem: String {
        switch self {
        case let .scanner(context, problem, _, _), let .parser(context, problem, _, _), let .composer(context, problem, _, _):
            return context.map { "\(problem) \($0.text)" } ?? problem
        case let .duplicatedKeysInMapping(duplicates, _):
            return "duplicate keys \(duplicates.joined(separator: ", ")) in one mapping"
        case let .reader(problem, _, _, _):
            return problem
        default:
            return String(describing: self).components(separatedBy: "\n").first ?? "invalid YAML"
        }
    }

    private var mark: Mark? {
        switch self {
        case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _): mark
        case let .duplicatedKeysInMapping(_, context): context.mark
        default: nil
        }
    }
}
