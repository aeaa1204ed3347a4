import Testing

@testable import Workspace

/// Changes to one endpoint write only that endpoint's lines: the rest of a hand-written file
/// stays byte for byte.
@Suite struct CollectionSourceTests {
    static let handWritten = """
        # Shop API — written by hand
        name: Shop
        environments:
          - name: local
            base_url: http://127.0.0.1:1   # the dev server
        endpoints:
          # the first one
          - name: One
            path: /one
          - folder: Users
            endpoints:
              # lists everyone
              - name: List
                path: /users
                # a comment inside an endpoint
                query: { page: "1" }

              - name: Get
                path: /users/1
          # trailing note on the top list
          - name: Last
            method: POST
            path: /last
        # the end of the file

        """

    @Test func aRenameWritesOnlyThatEndpointsLines() throws {
        let original = try CollectionLoader.parse(Self.handWritten)
        var endpoint = try #require(original.endpoint(withID: "Users/Get"))
        endpoint.name = "Fetch"
        var source = CollectionSource(Self.handWritten)
        let placed1 = source.replace(endpointWithID: "Users/Get", with: endpoint)
        #expect(placed1)
        var expected = original
        expected.replace(endpointWithID: "Users/Get", with: endpoint)
        #expect(source.holds(expected))
        #expect(try CollectionLoader.parse(source.text) == expected, "the whole collection")
        #expect(
            source.text
                == Self.handWritten.replacingOccurrences(of: "      - name: Get\n", with: "      - name: Fetch\n"))
    }

    @Test func aDeleteTakesTheEndpointAndTheCommentAboveItAndRestoreBringsItBack() throws {
        let original = try CollectionLoader.parse(Self.handWritten)
        var source = CollectionSource(Self.handWritten)
        let placed2 = source.remove(endpointWithID: "Users/List")
        #expect(placed2)
        #expect(!source.text.contains("lists everyone") && !source.text.contains("inside an endpoint"))
        #expect(
            source.text.contains("# Shop API") && source.text.contains("# the dev server")
                && source.text.contains("# the end of the file"))
        var expected = original
        let removal = expected.remove(endpointWithID: "Users/List")
        let removed = try #require(removal)
        #expect(source.holds(expected))
        #expect(try CollectionLoader.parse(source.text) == expected, "the whole collection")

        let placed3 = source.insert(removed.endpoint, at: removed.place.index)
        #expect(placed3)
        expected.insert(removed.endpoint, at: removed.place.index)
        #expect(source.holds(expected))
        #expect(try CollectionLoader.parse(source.text) == expected, "the whole collection")
        #expect(source.holds(original), "back in its place")
        #expect(try CollectionLoader.parse(source.text) == original, "back in its place, whole")

        let placed4 = source.remove(endpointWithID: "Last")
        #expect(placed4)
        #expect(
            source.text.hasSuffix("        path: /users/1\n# the end of the file\n"),
            "its comment goes with it; what follows the list stays")
        #expect(try CollectionLoader.parse(source.text).endpoints.map(\.id) == ["One", "Users/List", "Users/Get"])
    }

    @Test func aMoveGoesToTheEndOfTheOtherFolderAndAMissingFolderIsAdded() throws {
        let original = try CollectionLoader.parse(Self.handWritten)
        var moved = try #require(original.endpoint(withID: "One"))
        moved.folderPath = ["Users"]
        var source = CollectionSource(Self.handWritten)
        let placed5 = source.replace(endpointWithID: "One", with: moved)
        #expect(placed5)
        var expected = original
        expected.replace(endpointWithID: "One", with: moved)
        #expect(source.holds(expected))
        #expect(try CollectionLoader.parse(source.text) == expected, "the whole collection")
        #expect(
            try CollectionLoader.parse(source.text).endpoints.map(\.id) == [
                "Users/List", "Users/Get", "Users/One", "Last",
            ])

        var deep = moved
        deep.folderPath = ["Admin", "Audit"]
        let placed6 = source.replace(endpointWithID: "Users/One", with: deep)
        #expect(placed6)
        expected.replace(endpointWithID: "Users/One", with: deep)
        #expect(source.holds(expected))
        #expect(try CollectionLoader.parse(source.text) == expected, "the whole collection")
        #expect(source.text.contains("# a comment inside an endpoint") && source.text.contains("# lists everyone"))
    }

    @Test func listsAtTheirParentsIndentationAndWiderIndentsArePlaced() throws {
        let compact =
            "name: x\nenvironments:\n- name: e\n  base_url: http://h\nendpoints:\n- name: a\n  path: /a  # keep\n- folder: F\n  endpoints:\n  - name: b\n    path: /b\n"
        var source = CollectionSource(compact)
        let placed7 = source.insert(Endpoint(name: "c", folderPath: ["F"], method: .post, path: "/c"))
        #expect(placed7)
        let placed8 = source.insert(Endpoint(name: "top", path: "/top"), at: 0)
        #expect(placed8)
        #expect(try CollectionLoader.parse(source.text).endpoints.map(\.id) == ["top", "a", "F/b", "F/c"])
        #expect(source.text.contains("path: /a  # keep"))

        let wide =
            "name: x\nenvironments:\n    - name: e\n      base_url: http://h\nendpoints:\n    - name: a\n      path: /a\n    # before b\n    - name: b\n      path: /b\n"
        source = CollectionSource(wide)
        let placed9 = source.remove(endpointWithID: "a")
        #expect(placed9)
        #expect(
            source.text
                == "name: x\nenvironments:\n    - name: e\n      base_url: http://h\nendpoints:\n    # before b\n    - name: b\n      path: /b\n"
        )
    }

    @Test func whatCannotBePlacedIsLeftToTheWriter() throws {
        var flow = CollectionSource(
            "name: x\nenvironments: [{ name: e, base_url: \"http://h\" }]\nendpoints: [{ name: a, path: /a }]\n")
        let placed10 = flow.insert(Endpoint(name: "b", path: "/b"))
        #expect(!placed10)
        let placed11 = flow.remove(endpointWithID: "a")
        #expect(!placed11)
        var missing = CollectionSource(Self.handWritten)
        let placed12 = missing.remove(endpointWithID: "Users/Nobody")
        #expect(!placed12)
        #expect(missing.text == Self.handWritten)
    }
}
