import Foundation
import TestSupport
import Testing

@testable import App
@testable import History
@testable import Workspace

@Suite struct XDGDirectoriesTests {
    /// The four base folders, in the order config, state, data, cache.
    private func bases(_ environment: [String: String]) -> [String] {
        let folders = XDGDirectories(environment: environment)
        return [folders.configHome, folders.stateHome, folders.dataHome, folders.cacheHome].map(\.path)
    }

    private let specDefaults = ["/home/u/.config", "/home/u/.local/state", "/home/u/.local/share", "/home/u/.cache"]

    @Test func absoluteXDGVariablesAreTheBaseFoldersAndExplorerHasItsFolderInEach() {
        let environment = [
            "HOME": "/home/u", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s",
            "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/k",
        ]
        #expect(bases(environment) == ["/c", "/s", "/d", "/k"])
        let folders = XDGDirectories(environment: environment)
        #expect(
            [folders.configDirectory, folders.stateDirectory, folders.dataDirectory, folders.cacheDirectory].map(\.path)
                == ["/c/explorer", "/s/explorer", "/d/explorer", "/k/explorer"])
        #expect(folders.configFile.path == "/c/explorer/config.yaml")
        #expect(folders.themesDirectory.path == "/c/explorer/themes")
    }

    @Test func withoutXDGVariablesTheSpecsDefaultsUnderHomeAreUsed() {
        #expect(bases(["HOME": "/home/u"]) == specDefaults)
    }

    @Test func aRelativeOrEmptyValueIsIgnoredAsTheSpecSays() {
        #expect(
            bases([
                "HOME": "/home/u", "XDG_CONFIG_HOME": "relative/config", "XDG_STATE_HOME": "",
                "XDG_DATA_HOME": "./data", "XDG_CACHE_HOME": "~/cache",
            ]) == specDefaults)
    }

    @Test func aMissingOrRelativeHomeFallsBackToTheAccountsHome() {
        let account = NSHomeDirectory()
        #expect(XDGDirectories(environment: [:]).home.path == URL(fileURLWithPath: account).path)
        #expect(
            XDGDirectories(environment: ["HOME": "home"]).stateHome.path
                == URL(fileURLWithPath: account).appendingPathComponent(".local/state").path)
    }

    @Test func theHomeFolderIsShownAsTilde() {
        let folders = XDGDirectories(environment: ["HOME": "/home/u"])
        #expect(folders.displayPath(folders.configFile) == "~/.config/explorer/config.yaml")
        #expect(folders.displayPath(URL(fileURLWithPath: "/home/user2/x")) == "/home/user2/x")
    }

    @Test func historyConfigAndThemesAllUseTheOneHelper() {
        let environment = ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative", "XDG_STATE_HOME": "/s"]
        #expect(HistoryLocation.defaultFile(environment: environment).path == "/s/explorer/history.sqlite")
        #expect(UserConfig.fileURL(environment: environment).path == "/home/u/.config/explorer/config.yaml")
        #expect(ThemeLoader.userThemesDirectory(environment: environment) == "/home/u/.config/explorer/themes")
    }

    @Test func theDownloadFolderComesFromUserDirsOrIsTheHomesDownloads() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let home = directory.url.appendingPathComponent("home")
        let config = home.appendingPathComponent(".config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let environment = ["HOME": home.path]
        #expect(
            XDGDirectories(environment: environment).downloadDirectory(environment: environment) == nil,
            "no folder: nothing proposed")

        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("Downloads"), withIntermediateDirectories: true)
        #expect(
            XDGDirectories(environment: environment).downloadDirectory(environment: environment)?.path
                == home.appendingPathComponent("Downloads").path)

        // As xdg-user-dirs writes it, $HOME included.
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("Téléchargements"), withIntermediateDirectories: true)
        try Data("# comment\nXDG_DOWNLOAD_DIR=\"$HOME/Téléchargements\"\n".utf8).write(
            to: config.appendingPathComponent("user-dirs.dirs"))
        #expect(
            XDGDirectories(environment: environment).downloadDirectory(environment: environment)?.path
                == home.appendingPathComponent("Téléchargements").path)
    }
}
