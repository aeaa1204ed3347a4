import Foundation
import Testing

@testable import App
@testable import Terminal

@Suite struct ThemeTests {
    static let themesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes")

    /// The files in `themes/`, by theme name.
    static func shippedThemeFiles() throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: themesDirectory.path).filter {
            $0.hasSuffix(".yaml")
        }
        return try Dictionary(
            uniqueKeysWithValues: names.map { file in
                (
                    String(file.dropLast(".yaml".count)),
                    try String(contentsOf: themesDirectory.appendingPathComponent(file), encoding: .utf8)
                )
            })
    }

    /// Loads `name` with `text` as the user's `$XDG_CONFIG_HOME/explorer/themes/NAME.yaml`.
    static func loadUserTheme(named name: String, text: String) throws -> ThemeLoader.Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
        let themes = directory.appendingPathComponent("explorer/themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try text.write(to: themes.appendingPathComponent(name + ".yaml"), atomically: true, encoding: .utf8)
        return ThemeLoader.load(name: name, environment: ["XDG_CONFIG_HOME": directory.path])
    }

    @Test func everyFileInThemesIsBuiltInAndNothingElseIs() throws {
        let files = try Self.shippedThemeFiles()
        #expect(files.count >= 4)
        #expect(ThemeLoader.builtinNames == files.keys.sorted())
        for (name, text) in files {
            #expect(BuiltinThemes.source[name] == text, "themes/\(name).yaml is not the embedded text")
        }
    }

    @Test func everyBuiltInThemeLoadsWithoutProblemsAndCoversEveryRole() throws {
        for name in ThemeLoader.builtinNames {
            let result = ThemeLoader.load(name: name, environment: ["XDG_CONFIG_HOME": "/nonexistent"])
            #expect(result.problem == nil, "\(name): \(String(describing: result.problem))")
            #expect(result.theme.name == name)
            let parsed = try ThemeFile.parse(try #require(BuiltinThemes.source[name]), file: name + ".yaml", base: nil)
            #expect(Set(parsed.styles.keys) == Set(Role.known), "\(name) leaves roles to its base")
        }
    }

    @Test func aUserThemeOfABuiltInNameOverridesItAndMayExtendIt() throws {
        let result = try Self.loadUserTheme(
            named: "light", text: "name: light\nbase: light\nroles:\n  title: { fg: \"#123456\" }\n")
        let builtin = try #require(ThemeLoader.builtin("light"))
        #expect(result.problem == nil)
        #expect(result.theme.style(for: .title) == ThemeStyle(foreground: .rgb(0x12, 0x34, 0x56)))
        #expect(result.theme.style(for: .selection) == builtin.style(for: .selection))
        #expect(result.theme.style(for: .selection) != Theme.fallback.style(for: .selection))
    }

    @Test func aBrokenThemeNamesFileLineAndKeyAndTheDefaultIsUsed() throws {
        let result = try Self.loadUserTheme(
            named: "broken", text: "name: broken\nroles:\n  text: { fg: default }\n  selection: { fg: chartreuse }\n")
        #expect(result.theme == Theme.fallback)
        let message = try #require(result.problem).description
        #expect(message.contains("broken.yaml, line 4, key 'roles.selection.fg'"))
    }

    @Test func userThemesInheritFromTheirBase() throws {
        let result = try Self.loadUserTheme(
            named: "mine",
            text: "name: mine\nbase: light\nroles:\n  error: { fg: \"#ff0000\", attrs: [bold, underline] }\n")
        #expect(result.problem == nil)
        #expect(
            result.theme.style(for: .error) == ThemeStyle(foreground: .rgb(255, 0, 0), attributes: [.bold, .underline]))
        #expect(result.theme.style(for: .selection) == ThemeLoader.builtin("light")?.style(for: .selection))
    }

    @Test func noColorPicksMonochromeAndUnknownNamesFallBack() {
        #expect(ThemeLoader.load(name: nil, environment: ["NO_COLOR": "1"]).theme.name == "monochrome")
        let missing = ThemeLoader.load(name: "nope", environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        #expect(missing.theme.name == "default")
        #expect(missing.problem != nil)
    }

    @Test func coloursFallBackFromTruecolourTo256To16() {
        let orange = ThemeColor.rgb(0xFF, 0xAF, 0x00)
        #expect(orange.nearest256 == 214)
        #expect(orange.nearestANSI() == 3)
        #expect(ThemeColor.rgb(0x80, 0x80, 0x80).nearest256 == 244)
        #expect(ThemeColor(parsing: "#ffaf00") == orange)
        #expect(ThemeColor(parsing: "bright-red") == .ansi(9))
        #expect(ThemeColor(parsing: "240") == .indexed(240))
        #expect(ThemeColor(parsing: "purple-ish") == nil)
    }
}
