import ArgumentParser
import Foundation
import Workspace

/// What a command says about its `--env` in its help: which environment it works in.
///
/// A command conforms and names itself as the `CollectionOptions` (or `EnvironmentOption`) it
/// reads, so that each command's help says what the environment is for (sent to, run in,
/// written out) while the option itself is declared once.
protocol CollectionOptionsHelp {
    /// The help of `--env`.
    static var environmentHelp: String { get }
}

extension CollectionOptionsHelp {
    /// The environment the command resolves in, the collection's first when none is named.
    static var environmentHelp: String { "The environment (default: the collection's first)." }
}

/// `--collection FILE`: the collection file a command reads, for every command that names it
/// by an option (`open`, `mock` and `trust` take the file as an argument).
struct CollectionFileOption: ParsableArguments {
    @Option(name: .long, help: "The collection file (default: ./explorer.yaml, else $EXPLORER_COLLECTION).")
    var collection: String?

    /// The collection file: `--collection`, else `./explorer.yaml`, else `$EXPLORER_COLLECTION`.
    ///
    /// - Throws: `ExitCode(2)` after a sentence on stderr when there is none.
    func resolve() throws -> URL { try CollectionLocation.resolve(explicit: collection) }
}

/// `--env NAME`: the environment a command works in. `Help` is the command, for the words of
/// its help.
struct EnvironmentOption<Help: CollectionOptionsHelp>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(Help.environmentHelp))
    var env: String?
}

/// `--collection FILE` and `--env NAME`: the collection a command reads and the environment it
/// works in, for every command that reads a collection file named by an option.
///
/// `Help` is the command, for the words of its `--env` help.
struct CollectionOptions<Help: CollectionOptionsHelp>: ParsableArguments {
    @OptionGroup var file: CollectionFileOption

    @OptionGroup var environment: EnvironmentOption<Help>

    /// `--collection`, as given.
    var collection: String? { file.collection }

    /// `--env`, as given.
    var env: String? { environment.env }

    /// Finds the collection file (`--collection`, else `./explorer.yaml`, else
    /// `$EXPLORER_COLLECTION`) and loads it, its warnings on stderr.
    ///
    /// - Returns: the file and the collection.
    /// - Throws: `ExitCode(2)` after a sentence on stderr when there is no file, or it does not
    ///   load, or it is not trusted to reach what it reaches.
    func load() throws -> (file: URL, collection: APICollection) {
        let file = try self.file.resolve()
        return (file, try CollectionLocation.load(file))
    }
}
