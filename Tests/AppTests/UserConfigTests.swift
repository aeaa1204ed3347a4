import Foundation
import TestSupport
import Testing

@testable import App
@testable import Workspace

@Suite struct UserConfigTests {
    /// A config folder with `explorer/` inside, as `XDG_CONFIG_HOME` points to it.
    private func configHome() throws -> (
        directory: TemporaryFolder, environment: [String: String], file: URL
    ) {
        let directory = try TemporaryFolder()
        let explorer = directory.url.appendingPathComponent("explorer")
        try FileManager.default.createDirectory(at: explorer, withIntermediateDirectories: true)
        return (
            directory, ["HOME": "/nonexistent-home", "XDG_CONFIG_HOME": directory.url.path],
            explorer.appendingPathComponent("config.yaml")
        )
    }

    @Test func noFileIsTheDefaultsWithNothingToSay() throws {
        let home = try configHome()
        defer { home.directory.cleanUp() }
        let config = UserConfig.load(environment: home.environment)
        #expect(config.problems.isEmpty)
        #expect(config.theme == nil)
    }

    @Test func aFileThatCannotBeReadIsNamedWithWhyAndTheDefaultsApply() throws {
        let home = try configHome()
        defer { home.directory.cleanUp() }
        // A folder where the file belongs.
        try FileManager.default.createDirectory(at: home.file, withIntermediateDirectories: true)

        let config = UserConfig.load(environment: home.environment)

        #expect(config.theme == nil)
        #expect(config.problems.count == 1)
        #expect(config.problems.first?.contains(home.file.path) == true)
        #expect(config.problems.first?.contains("it is a folder") == true)
        #expect(config.problems.first?.contains("default settings") == true)
    }

    @Test func aFileThatIsNotTextIsNamedAndTheDefaultsApply() throws {
        let home = try configHome()
        defer { home.directory.cleanUp() }
        try Data([0x74, 0x68, 0x65, 0x6d, 0x65, 0x3a, 0x20, 0xff, 0xfe, 0x0a]).write(to: home.file)

        let config = UserConfig.load(environment: home.environment)

        #expect(config.theme == nil)
        #expect(config.problems == ["\(home.file.path) is not UTF-8 text; the default settings are used."])
    }

    @Test func aMalformedFileIsNamedWithTheParsersReasonAndTheDefaultsApply() throws {
        let home = try configHome()
        defer { home.directory.cleanUp() }
        try Data("theme: [light\nkeys: {send: enter\n".utf8).write(to: home.file)

        let config = UserConfig.load(environment: home.environment)

        #expect(config.theme == nil)
        #expect(config.problems.count == 1)
        #expect(config.problems.first?.hasPrefix(home.file.path + ":") == true)
    }

    @Test func aReadableFileApplies() throws {
        let home = try configHome()
        defer { home.directory.cleanUp() }
        try Data("theme: light\n".utf8).write(to: home.file)
        let config = UserConfig.load(environment: home.environment)
        #expect(config.theme == "light")
        #expect(config.problems.isEmpty)
    }

    @Test func aPathUnderHomeIsShownWithTilde() throws {
        let home = try configHome()
        defer { home.directory.cleanUp() }
        try Data([0xff]).write(to: home.file)
        let environment = ["HOME": home.directory.url.path]  // no XDG_CONFIG_HOME: ~/.config
        let configFolder = home.directory.url.appendingPathComponent(".config/explorer")
        try FileManager.default.createDirectory(at: configFolder, withIntermediateDirectories: true)
        try Data([0xff]).write(to: configFolder.appendingPathComponent("config.yaml"))
        #expect(
            UserConfig.load(environment: environment).problems == [
                "~/.config/explorer/config.yaml is not UTF-8 text; the default settings are used."
            ])
    }

    @Test func exchangesInMemoryIsASettingWithBounds() {
        #expect(UserConfig.parse("exchanges_in_memory: 5\n", file: "config.yaml").exchangesInMemory == 5)
        let wrong = UserConfig.parse("exchanges_in_memory: 0\n", file: "config.yaml")
        #expect(wrong.exchangesInMemory == AppState.defaultExchangeLimit)
        #expect(
            wrong.problems == ["config.yaml:1: exchanges_in_memory must be a whole number from 1 to 10000; 20 is used."]
        )
        #expect(
            UserConfig.parse("exchanges_in_memry: 5\n", file: "config.yaml").problems.first?.contains(
                "did you mean exchanges_in_memory?") == true)
    }
}
