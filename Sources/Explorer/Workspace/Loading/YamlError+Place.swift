import Yams

extension YamlError {
    /// Where libyaml stopped (1-based), or line 1 when the error has no place.
    package var line: Int { mark?.line ?? 1 }
    /// The column where libyaml stopped (1-based), or 1.
    package var column: Int { mark?.column ?? 1 }

    /// What is wrong, in one line, without the document Yams adds to its own description.
    package var problem: String {
        switch self {
        case .scanner(let context, let problem, _, _), .parser(let context, let problem, _, _),
            .composer(let context, let problem, _, _):
            return context.map { "\(problem) \($0.text)" } ?? problem
        case .duplicatedKeysInMapping(let duplicates, _):
            return "duplicate keys \(duplicates.joined(separator: ", ")) in one mapping"
        case .reader(let problem, _, _, _):
            return problem
        default:
            return String(describing: self).components(separatedBy: "\n").first ?? "invalid YAML"
        }
    }

    private var mark: Mark? {
        switch self {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark
        case .duplicatedKeysInMapping(_, let context): context.mark
        default: nil
        }
    }
}
