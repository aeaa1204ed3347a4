import Foundation
import Networking
import Testing

/// A response is a value: its parts are shared by copies only until one of them changes.
@Suite struct ResponseValueTests {
    private func response(body: String = #"{"id":1}"#, status: HTTPStatus = .ok) -> Response<Data?> {
        Response(
            statusCode: status, headers: ["Content-Type": "application/json"], data: Data(body.utf8),
            request: PreparedRequest(url: URL(string: "http://127.0.0.1:9/users/1")!),
            timings: ResponseTimings(started: Date(timeIntervalSince1970: 1_800_000_000)))
    }

    @Test func changingACopyLeavesTheOriginalAsItWas() {
        let original = response()
        var copy = original
        copy.statusCode = .created
        copy.headers.add(name: "X-Copy", value: "yes")
        copy.body = Data("changed".utf8)
        copy.request.headers.add(name: "Accept", value: "text/plain")
        copy.url = URL(string: "http://127.0.0.1:9/elsewhere")!
        copy.httpVersion = "HTTP/2"
        copy.timings.bytesReceived = 99

        #expect(original.statusCode == .ok)
        #expect(original.headers["X-Copy"] == nil)
        #expect(original.body == Data(#"{"id":1}"#.utf8))
        #expect(original.request.headers["Accept"] == nil)
        #expect(original.url.absoluteString == "http://127.0.0.1:9/users/1")
        #expect(original.httpVersion == "HTTP/1.1")
        #expect(original.timings.bytesReceived == 0)

        #expect(copy.statusCode == .created)
        #expect(copy.headers["X-Copy"] == "yes")
        #expect(copy.body == Data("changed".utf8))
        #expect(copy.request.headers["Accept"] == "text/plain")
        #expect(copy.url.absoluteString == "http://127.0.0.1:9/elsewhere")
        #expect(copy.httpVersion == "HTTP/2")
        #expect(copy.timings.bytesReceived == 99)
    }

    @Test func printingAResponseShowsItsPartsAsBefore() {
        let text = String(describing: response())
        #expect(text.hasPrefix("Response<Optional<Data>>(statusCode: "))
        #expect(text.contains("url: http://127.0.0.1:9/users/1"))
        #expect(text.contains("httpVersion: \"HTTP/1.1\""))
        #expect(!text.contains("storage"))
    }

    @Test func equalityComparesThePartsNotTheStorage() {
        let one = response()
        var two = response()
        #expect(one == two)  // separate storages, same parts
        let three = one
        #expect(three == one)  // shared storage
        two.error = .unsuccessfulStatus(.notFound, url: two.url, headers: two.headers, body: two.body)
        #expect(one != two)
        var four = one
        four.body = nil
        #expect(four != one)
        four.body = one.body
        #expect(four == one)
    }

    @Test func copiesChangedOnManyThreadsAtOnceStayTheirOwn() async {
        let shared = response()
        let results = await withTaskGroup(of: (Int, Response<Data?>).self) { group in
            for index in 0..<64 {
                group.addTask {
                    var mine = shared
                    for _ in 0..<100 { mine.headers.add(name: "X-Index", value: String(index)) }
                    mine.body = Data(String(index).utf8)
                    return (index, mine)
                }
            }
            var all: [(Int, Response<Data?>)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        for (index, mine) in results {
            #expect(mine.body == Data(String(index).utf8))
            #expect(mine.headers.values(for: "X-Index") == Array(repeating: String(index), count: 100))
        }
        #expect(shared.headers.count == 1)
        #expect(shared.body == Data(#"{"id":1}"#.utf8))
    }
}
