import Yams

extension Reader {
    /// A `tags:` of an endpoint or a folder: a list of words (`[smoke, users]`), or one word;
    /// each once, in file order.
    ///
    /// - Throws: `CollectionError.wrongType` at a tag that is not a word (empty, with spaces or
    ///   a comma), or a value that is not a list.
    func tags(_ node: Node) throws -> [String] {
        let expected = "a list of tags, each a word without spaces or commas ([smoke, users])"
        let elements: [Node]
        switch node {
        case .sequence(let sequence): elements = Array(sequence)
        case .scalar: elements = [node]
        default: throw CollectionError.wrongType(location(node), key: "tags", expected: expected)
        }
        var tags: [String] = []
        for element in elements {
            guard case .scalar = element else {
                throw CollectionError.wrongType(location(element), key: "tags", expected: expected)
            }
            let tag = try string(element, key: "tags")
            guard !tag.isEmpty, !tag.contains(where: { $0.isWhitespace || $0 == "," }) else {
                throw CollectionError.wrongType(location(element), key: "tags", expected: expected)
            }
            if !tags.contains(tag) { tags.append(tag) }
        }
        return tags
    }
}
