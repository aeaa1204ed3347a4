import Foundation
import NetworkingCore
import TestSupport
import Testing

@testable import Workspace

/// Each environment's cookie jar in the state folder, and `cookies:` in the collection file.
@Suite struct CookieStoreTests {
    let site = URL(string: "https://api.example.com/login")!

    @Test func aJarIsKeptPrivatelyPerCollectionAndEnvironmentAndReadBack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CookieStore(fileURL: folder.appendingPathComponent("state/cookies.json"))
        let jar = CookieJar()
        jar.store(
            setCookie: ["session=abc; Path=/; Max-Age=600; Secure; HttpOnly; SameSite=Strict", "theme=dark"], from: site
        )

        try store.save(jar, collection: "/work/api.yaml", environment: "prod eu")
        try store.save(
            CookieJar(cookies: [Cookie(name: "other", value: "1", domain: "h")]), collection: "/work/api.yaml",
            environment: "staging")

        let mode = try #require(
            FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let folderMode = try #require(
            FileManager.default.attributesOfItem(atPath: store.fileURL.deletingLastPathComponent().path)[
                .posixPermissions] as? Int)
        #expect(folderMode == 0o700)
        let read = try store.jar(collection: "/work/api.yaml", environment: "prod eu")
        #expect(read.cookies().map(\.name) == ["session", "theme"])
        #expect(read.cookieHeader(for: URL(string: "https://api.example.com/x")!) == "session=abc; theme=dark")
        let session = try #require(read.cookies().first)
        #expect(session.secure && session.httpOnly && session.sameSite == "Strict" && session.expires != nil)
        #expect(try store.cookies(collection: "/work/api.yaml", environment: "staging").map(\.name) == ["other"])
        #expect(try store.cookies(collection: "/work/other.yaml", environment: "prod eu").isEmpty)
    }

    @Test func expiredCookiesAreNotReadBackAndRemovingForgetsThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CookieStore(fileURL: folder.appendingPathComponent("cookies.json"))
        let now = Date()
        let jar = CookieJar(cookies: [
            Cookie(name: "old", value: "1", domain: "h", expires: now.addingTimeInterval(-1)),
            Cookie(name: "a", value: "1", domain: "h"), Cookie(name: "b", value: "2", domain: "h"),
        ])
        try store.save(jar, collection: "c", environment: "e")
        #expect(try store.cookies(collection: "c", environment: "e").map(\.name) == ["a", "b"])

        try store.remove(collection: "c", environment: "e") { $0.name == "a" }
        #expect(try store.cookies(collection: "c", environment: "e").map(\.name) == ["b"])
        try store.remove(collection: "c", environment: "e")
        #expect(try store.cookies(collection: "c", environment: "e").isEmpty)
        #expect(
            try String(contentsOf: store.fileURL, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                == "{\n\n}")
    }

    @Test func addedCookiesReplaceThoseOfTheSameNameDomainAndPathAndKeepTheRest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CookieStore(fileURL: folder.appendingPathComponent("cookies.json"))
        let now = Date()
        try store.save(
            CookieJar(cookies: [
                Cookie(name: "session", value: "old", domain: "h"),
                Cookie(name: "session", value: "other path", domain: "h", path: "/admin"),
                Cookie(name: "theme", value: "dark", domain: "h"),
            ]), collection: "c", environment: "e")

        try store.add(
            [
                Cookie(name: "session", value: "new", domain: "h"),
                Cookie(name: "gone", value: "1", domain: "h", expires: now.addingTimeInterval(-1)),
                Cookie(name: "lang", value: "en", domain: "h"),
            ], collection: "c", environment: "e", now: now)

        let kept = try store.cookies(collection: "c", environment: "e")
        #expect(
            kept.map { "\($0.name)=\($0.value)" } == ["session=other path", "theme=dark", "session=new", "lang=en"])
        #expect(try store.cookies(collection: "c", environment: "other").isEmpty)
        let mode = try #require(
            FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
    }

    @Test func addingToAJarKeepsItWithinTheJarsBoundNewestFirst() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = CookieStore(fileURL: folder.appendingPathComponent("cookies.json"))
        let limit = CookieJar().maximumCount
        let start = Date()
        let cookies = (0...limit).map {
            Cookie(name: "c\($0)", value: "v", domain: "h\($0 % 100)", created: start.addingTimeInterval(Double($0)))
        }
        try store.add(cookies, collection: "c", environment: "e", now: start)
        let kept = try store.cookies(collection: "c", environment: "e")
        #expect(kept.count == limit)
        #expect(kept.first?.name == "c1" && kept.last?.name == "c\(limit)")
    }

    @Test func anUnreadableFileIsNamedAndLeftAsItIs() throws {
        let directory = try TemporaryFolder()
        defer { directory.cleanUp() }
        let store = CookieStore(fileURL: directory.url.appendingPathComponent("cookies.json"))
        try Data("not json".utf8).write(to: store.fileURL)

        #expect {
            try store.jar(collection: "c", environment: "e")
        } throws: { error in
            String(describing: error).contains(store.fileURL.path)
                && String(describing: error).contains("delete the file")
        }
        #expect(throws: CookieStore.Failure.self) { try store.save(CookieJar(), collection: "c", environment: "e") }
        #expect(try String(contentsOf: store.fileURL, encoding: .utf8) == "not json")
    }

    @Test func cookiesFalseTurnsAnEnvironmentsJarOffAndIsWrittenBack() throws {
        let collection = try CollectionLoader.parse(
            """
            name: c
            environments:
              - { name: on, base_url: "http://127.0.0.1:9" }
              - { name: off, base_url: "http://127.0.0.1:9", cookies: false }
            endpoints: []
            """, file: "cookies.yaml")
        #expect(collection.environments.map(\.keepsCookies) == [true, false])

        let reread = try CollectionLoader.parse(try CollectionWriter.yaml(for: collection), file: "again.yaml")
        #expect(reread == collection)
    }

    @Test func cookiesThatAreNotABooleanAreAnErrorAtTheirLine() {
        #expect {
            try CollectionLoader.parse(
                """
                name: c
                environments:
                  - name: e
                    base_url: "http://127.0.0.1:9"
                    cookies: sometimes
                endpoints: []
                """, file: "cookies.yaml")
        } throws: { error in
            let sentence = String(describing: error)
            return sentence.hasPrefix("cookies.yaml:5:") && sentence.contains("true or false")
        }
    }
}
