import Foundation
import PackagePlugin

/// Compiles `publicsuffix/public_suffix_list.dat` (the Public Suffix List, MPL-2.0) into the
/// target as one Swift string literal of its rules.
///
/// Generated into the binary rather than shipped as a package resource, as the themes are: on
/// Linux `Bundle.module` traps when the resource bundle is not beside the executable. Only the
/// rules are kept (one a line, comments left out): 142 KB of text, one literal, which
/// compiles in well under a second. The `.dat` file stays the one source.
@main
struct EmbedPublicSuffixList: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let list = context.package.directoryURL.appending(path: "publicsuffix").appending(
            path: "public_suffix_list.dat")
        let output = context.pluginWorkDirectoryURL.appending(path: "PublicSuffixRules.swift")
        return [
            .buildCommand(
                displayName: "Embedding the Public Suffix List from publicsuffix/",
                executable: try context.tool(named: "PublicSuffixEmbedder").url,
                arguments: [list.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [list],
                outputFiles: [output]
            )
        ]
    }
}
