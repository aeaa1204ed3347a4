/// What `explorer --version` says: the release and the commit it was built from.
///
/// The printed line is `explorer 0.1.0 (6e2bc32)`: the commit as `git rev-parse --short HEAD`
/// gave it at build time, `6e2bc32-dirty` when tracked files had changes, `unknown` when the
/// binary was not built from a git work tree (see Plugins/EmbedCommit).
enum ExplorerVersion {
    /// The release, as semantic versioning: the one place it is written. `scripts/package`
    /// names the tarball after it by asking the built binary.
    static let number = "0.1.0"

    /// The commit the binary was built from, embedded at build time.
    static let commit = BuildCommit.id

    /// The line `explorer --version` prints.
    static let line = "explorer \(number) (\(commit))"
}
