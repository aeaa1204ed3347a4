import Foundation
import Terminal
import Testing
import Workspace

@testable import App

/// The endpoints list's filter keeps each row's text and its last result between frames: what
/// it lets through must stay what matching every row afresh lets through, whatever changed.
@Suite struct EndpointFilterTests {
    /// A collection of `folders` folders of `perFolder` endpoints each.
    private func largeState(folders: Int = 4, perFolder: Int = 60, height: Int = 24) throws -> AppState {
        var yaml = "name: Large\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:1\nendpoints:\n"
        for folder in 0..<folders {
            yaml += "  - folder: group\(folder)\n    endpoints:\n"
            for index in 0..<perFolder {
                let method = index % 3 == 0 ? "POST" : "GET"
                yaml +=
                    "      - name: item\(folder)x\(index)\n        method: \(method)\n        path: /items/\(index)\n"
            }
        }
        let collection = try CollectionLoader.parse(yaml, file: "large.yaml")
        var state = AppState(collection: collection, collectionPath: "/tmp/large.yaml")
        state.size = Size(width: 100, height: height)
        tuiReduce(&state, .input(.tick, at: tuiNow))
        return state
    }

    /// What matching every row's item afresh lets through.
    private func matchedAfresh(_ state: AppState) -> [Int] {
        state.endpointList.visibleIndices(state.endpointItems)
    }

    @Test func typingOnNarrowsToTheRowsMatchingEveryRowAfresh() throws {
        var state = try largeState()
        let filters = [
            "i", "it", "ite", "item", "item1", "item1x", "item1x5", "item1x", "item", "post", "post item2",
            "post item2x1", "POST ITEM2X1", "get", "get ", "get g", "▾", "zzz", "zzzz", "", "  ", "x1",
        ]
        for filter in filters {
            state.endpointList.filter = filter
            #expect(state.visibleEndpointRows == matchedAfresh(state), "filter \"\(filter)\"")
        }
    }

    @Test func aDraftRenamedAfterAFilterIsMatchedByItsNewName() throws {
        var state = try largeState()
        state.endpointList.filter = "renamed"
        #expect(state.visibleEndpointRows.isEmpty)
        var endpoint = try #require(try state.collection?.endpoint(named: "item2x7"))
        let id = endpoint.id
        endpoint.name = "renamed"
        // Drafts are kept under the id of the endpoint they edit.
        state.drafts[id] = endpoint
        #expect(state.visibleEndpointRows.map { state.endpointRows[$0].endpoint?.id } == [id])
        #expect(state.visibleEndpointRows == matchedAfresh(state))
    }

    @Test func aReloadedCollectionIsMatchedNotTheOneBefore() throws {
        var state = try largeState()
        state.endpointList.filter = "item3"
        #expect(state.visibleEndpointRows.count == 60)
        let fewer = try CollectionLoader.parse(
            "name: Small\nenvironments:\n  - name: local\n    base_url: http://127.0.0.1:1\n"
                + "endpoints:\n  - name: item3only\n    path: /x\n",
            file: "large.yaml")
        state.setCollection(fewer)
        #expect(state.visibleEndpointRows.map { state.endpointRows[$0].endpoint?.name } == ["item3only"])
        #expect(state.endpointCount == 1)
    }

    @Test func aCopyOfTheStateKeepsItsOwnRows() throws {
        let original = try largeState()
        var copy = original
        copy.endpointList.filter = "item0x1"
        let before = copy.visibleEndpointRows
        var changed = copy
        changed.setCollection(nil)
        #expect(changed.visibleEndpointRows.isEmpty)
        #expect(copy.visibleEndpointRows == before, "the copy still matches its own rows")
        #expect(original.endpointCount == 240)
    }

    @Test func eachVersionsTextsAreMadeOnceForEveryFilter() {
        let filter = EndpointFilter()
        let rows = ["▾ Users", "GET Get user", "POST Create user", "GET Orders"]
        var made = 0
        let make = {
            made += 1
            return rows
        }
        let version = EndpointFilter.nextVersion()
        #expect(filter.visibleRows("user", version: version, count: 4, rows: make) == [0, 1, 2])
        #expect(filter.visibleRows("user c", version: version, count: 4, rows: make) == [2])
        #expect(filter.visibleRows("user", version: version, count: 4, rows: make) == [0, 1, 2])
        #expect(filter.visibleRows("", version: version, count: 4, rows: make) == [0, 1, 2, 3])
        #expect(made == 1)
        let next = EndpointFilter.nextVersion()
        #expect(filter.visibleRows("orders", version: next, count: 4, rows: make) == [3])
        #expect(made == 2, "a new version makes its texts again")
    }

    @Test func theListDrawsTheSelectedRowOfAFilteredLongList() throws {
        var state = try largeState(height: 24)
        tuiPress(&state, .char("/"))
        tuiType(&state, "item2x")
        tuiPress(&state, KeyPress(.enter))
        for _ in 0..<40 { tuiPress(&state, KeyPress(.down)) }
        let selected = try #require(state.selectedEndpoint)
        let screen = screenText(state)
        #expect(screen.contains(selected.name), "the selection is drawn:\n\(screen)")
        #expect(screen.contains("60 of 240"))
        #expect(!screen.contains("item1x"), "no row the filter hides is drawn")
        let selectedLine = try #require(tuiScreen(state).textLines().firstIndex { $0.contains(selected.name) })
        let rowsAbove = tuiScreen(state).textLines()[..<selectedLine].filter { $0.contains("item2x") }.count
        #expect(rowsAbove > 0, "the list scrolled to keep the selection in view, rows above it")
    }
}
