import Foundation
import Testing
@testable import App
@testable import Terminal

@Suite struct ThemeTests {
    static let themesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("themes")

    @Test(arguments: ["default", "light", "high-contrast", "monochrome"])
    func shippedThemeFilesMatchTheBuiltInCopyAndCoverEveryRole(name: String) throws {
        let file = try String(contentsOf: Self.themesDirectory.appendingPathComponent(name + ".yaml"), encoding: .utf8)
        #expect(file.trimmingCharacters(in: .newlines) == BuiltinThemes.source[name]?.trimmingCharacters(in: .newlines))
        let theme = try ThemeFile.parse(file, file: name + ".yaml", base: nil)
        #expect(Set(theme.styles.keys) == Set(Role.known))
    }

    @Test func aBrokenThemeNamesFileLineAndKeyAndTheDefaultIsUsed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
        let themes = directory.appendingPathComponent("explorer/themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: broken\nroles:\n  text: { fg: default }\n  selection: { fg: chartreuse }\n".write(to: themes.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let result = ThemeLoader.load(name: "broken", environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(result.theme == Theme.fallback)
        let message = try #require(result.problem).description
        #expect(message.contains("broken.yaml, line 4, key 'roles.selection.fg'"))
    }

    @Test func userThemesInheritFromTheirBase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
        let themes = directory.appendingPathComponent("explorer/themes")
        try FileManager.default.createDirectory(at: themes, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "name: mine\nbase: light\nroles:\n  error: { fg: \"#ff0000\", attrs: [bold, underline] }\n".write(to: themes.appendingPathComponent("mine.yaml"), atomically: true, encoding: .utf8)
        let result = ThemeLoader.load(name: "mine", environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(result.problem == nil)
        #expect(result.theme.style(for: .error) == ThemeStyle(foreground: .rgb(255, 0, 0), attributes: [.bold, .underline]))
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
