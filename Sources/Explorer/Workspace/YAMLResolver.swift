import Yams

extension Resolver {
    /// What the explorer's own YAML files (collections, the configuration, themes) are read
    /// with: a plain scalar is told apart only as a boolean or text.
    ///
    /// Yams reads `Node.bool` only from a scalar not tagged as text, so that rule stays;
    /// `Node.int`, `.float` and `.null` read the text itself, and a `json:` body is converted by
    /// scalar style, not by tag (`JSONValue(yaml:)`). The other rules of `Resolver.default`
    /// would only cost time: each is a regular expression run over every plain scalar, and
    /// compiling them took about 2.5 ms of every start.
    package static let explorerFiles = Resolver.basic.appending(.bool)
}
