import Foundation
import PackagePlugin

/// Compiles the package's `themes/*.yaml` into the target as Swift string literals.
///
/// The themes are generated into the binary rather than shipped as package resources: on
/// Linux `Bundle.module` looks for the resource bundle beside the executable or in the build
/// folder and traps when it is missing, so a binary copied elsewhere would crash at launch.
/// The YAML files stay the one source; the generated file is rebuilt whenever one changes,
/// and a file added to or removed from `themes/` is picked up at the next build.
@main
struct EmbedThemes: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let themes = context.package.directoryURL.appending(path: "themes")
        let names = try FileManager.default.contentsOfDirectory(atPath: themes.path(percentEncoded: false))
        let inputs = names.filter { $0.hasSuffix(".yaml") }.sorted().map { themes.appending(path: $0) }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltinThemes.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) themes from themes/",
                executable: try context.tool(named: "ThemeEmbedder").url,
                arguments: [output.path(percentEncoded: false)] + inputs.map { $0.path(percentEncoded: false) },
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
