import Foundation
import NetworkingCore
import Testing

@testable import App
@testable import Terminal

/// Lines printed from a body's bytes when drawn, through sparse indexes built chunk by chunk:
/// the same lines, searches and folds as the text laid out whole.
@Suite struct BodyLinesTests {
    /// The reference: the whole text printed at once and indexed line by line.
    private func printed(_ json: [UInt8], cut: Bool = false) -> [String]? {
        json.withUnsafeBytes { JSONPrettyPrinter.prettyPrint($0, allowingCut: cut) }.map { pretty in
            let index = LineIndex(pretty)
            return (0..<index.lineCount).map { index.line($0) }
        }
    }

    private func indexed(_ json: [UInt8], chunks sizes: [Int]) -> PrettyJSONLines.Builder {
        var builder = PrettyJSONLines.Builder()
        var offset = 0
        var turn = 0
        while offset < json.count {
            let size = max(1, sizes[turn % sizes.count])
            let end = min(json.count, offset + size)
            json[offset..<end].withUnsafeBufferPointer { builder.consume($0) }
            offset = end
            turn += 1
        }
        return builder
    }

    private func lines(_ lines: PrettyJSONLines) -> [String] {
        (0..<lines.lineCount).map { lines.line($0) }
    }

    /// A document with every construct, long enough for many marks.
    private static let document: [UInt8] = {
        var items: [String] = []
        for index in 0..<150 {
            items.append(
                #"{"id":\#(index),"name":"item \"\#(index)\" {not: [json]}","tags":["a","b\\"],"empty":{},"none":[ ],"#
                    + #""nested":{"deep":[[1,2],{"x":null}]},"ok":true,"é":"ü"}"#)
        }
        return Array(("[\n  " + items.joined(separator: ",\n  ") + "\n]\n").utf8)
    }()

    @Test func linesPrintedFromMarksAreTheLinesOfTheWholeText() throws {
        let expected = try #require(printed(Self.document))
        #expect(expected.count > PrettyJSONLines.stride * 10)
        for sizes in [[Self.document.count], [1], [7, 13, 64], [4096, 3]] {
            let builder = indexed(Self.document, chunks: sizes)
            #expect(builder.isBalanced)
            #expect(!builder.failed)
            #expect(builder.lineCount == expected.count)
            #expect(lines(builder.lines(of: Data(Self.document))) == expected, "chunks of \(sizes)")
        }
    }

    @Test func everySplitOfASmallDocumentGivesTheSameLines() throws {
        let json = Array(#"{"a":{"b":[1,2,{}]},"c":"d,\"e\":[", "f" : [ ] , "g":[{"h":[]}]}"#.utf8)
        let expected = try #require(printed(json))
        for split in 1..<json.count {
            let builder = indexed(json, chunks: [split, json.count])
            #expect(lines(builder.lines(of: Data(json))) == expected, "split at \(split)")
        }
    }

    @Test func jsonCutAnywhereIsPrintedAsFarAsItGoes() throws {
        let json = Array(#"{"items":[{"id":1,"name":"ap\"ple"},{"id":2}],"more":{}}"#.utf8)
        for end in 1..<json.count {
            let cut = Array(json[0..<end])
            let builder = indexed(cut, chunks: [3])
            #expect(!builder.failed)
            let shown = lines(builder.lines(of: Data(cut)))
            #expect(shown == (try #require(printed(cut, cut: true))), "cut after \(end) bytes")
        }
    }

    @Test func aClosingBracketWithNothingOpenIsNotJSON() {
        let builder = indexed(Array(#"{"a":1}}"#.utf8), chunks: [2])
        #expect(builder.failed)
        #expect(!indexed(Array(#"{"a":[1"#.utf8), chunks: [2]).isBalanced)
    }

    @Test func aRawLineBreakInsideAStringStartsALineAsTheTextHasIt() throws {
        let json = Array("[\"one\ntwo\", 3]".utf8)
        let builder = indexed(json, chunks: [5])
        #expect(lines(builder.lines(of: Data(json))) == ["[", "  \"one", "two\",", "  3", "]"])
    }

    @Test func aLongLineIsCutOnACharacterBoundary() {
        let json = Array(#"["ééééé"]"#.utf8)
        let built = indexed(json, chunks: [100]).lines(of: Data(json))
        #expect(built.line(1) == #"  "ééééé""#)
        #expect(built.line(1, maxBytes: 6) == #"  "é"#, "the second é would be split at 6 bytes")
        #expect(built.line(1, maxBytes: 5) == #"  "é"#, "a character that ends at the cut is kept")
        #expect(built.line(99) == "")
    }

    @Test func searchFindsTheLinesTheWholeTextWouldMatch() throws {
        let expected = try #require(printed(Self.document))
        let built = indexed(Self.document, chunks: [1000]).lines(of: Data(Self.document))
        for needle in ["ITEM \\\"14", "\"id\": 14", "  \"ok\"", "[]", "{not: [json]}", "é", "null", "zzz", "aab"] {
            let reference = LineIndex(Array(expected.joined(separator: "\n").utf8)).lines(containing: needle)
            #expect(built.lines(containing: needle) == reference, "\(needle)")
        }
        #expect(built.lines(containing: "").isEmpty)
    }

    @Test func searchRestartsPartialMatchesCorrectly() {
        // "aab" in "aaab": a naive restart after the third "a" misses it.
        let text = Data("xaaab\naab\nab\n".utf8)
        #expect(RawLines(text).lines(containing: "AAB") == [0, 1])
    }

    @Test func foldingReadsTheShapeOfPrintedLines() throws {
        let json = Data(#"{"a":{"b":[1,2]},"c":[],"d":"x"}"#.utf8)
        let document = BodyDocument.make(json, contentType: "application/json")
        guard case .prettyJSON = document.text else {
            Issue.record("not printed line by line")
            return
        }
        let folded = FoldedDocument(document, depth: 1)
        let shown = (0..<folded.lineCount).map { folded.line($0, maxCharacters: 80).map(\.text).joined() }
        #expect(shown == ["{", "  \"a\": { … }", "  \"c\": [],", "  \"d\": \"x\"", "}"])
    }

    // MARK: - Raw lines

    @Test func rawLinesAreTheLinesOfALineIndexWhateverTheChunks() {
        let many = (0..<300).map { "line \($0)\($0 % 3 == 0 ? "\r" : "")" }.joined(separator: "\n")
        for text in ["", "one", "one\n", "one\ntwo", "\n", "\n\n", "a\r\nb\r\n", many, many + "\n"] {
            let bytes = Array(text.utf8)
            let reference = LineIndex(bytes)
            let expected = (0..<reference.lineCount).map { reference.line($0) }
            for size in [1, 5, 64, max(1, bytes.count)] {
                var builder = RawLines.Builder()
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + size)
                    bytes[offset..<end].withUnsafeBufferPointer { builder.consume($0) }
                    offset = end
                }
                let lines = builder.lines(of: Data(bytes))
                #expect(
                    (0..<lines.lineCount).map { lines.line($0) } == expected,
                    "\(text.prefix(20).debugDescription) in chunks of \(size)")
            }
        }
    }

    @Test func aTextBodyIsShownFromItsOwnBytes() {
        let document = BodyDocument.make(Data("alpha\nbeta\nalphabet\n".utf8), contentType: "text/plain")
        guard case .raw = document.text else {
            Issue.record("the text was copied")
            return
        }
        #expect(document.lineCount == 3)
        #expect(document.linesMatching("ALPHA") == [0, 2])
    }

    @Test func aLiveBodysIndexesServeTheCompleteDocument() throws {
        let head = ResponseHead(status: .ok, headers: ["Content-Type": "application/json"], httpVersion: "HTTP/1.1")
        let body = LiveBody(head: head, started: Date(), headReceived: Date(), timeZone: .gmt)
        var offset = 0
        while offset < Self.document.count {
            let end = min(Self.document.count, offset + 777)
            _ = body.append(Data(Self.document[offset..<end]), at: Date())
            offset = end
        }
        let document = body.snapshot(isComplete: true).document
        #expect(document.kind == .json)
        #expect((0..<document.lineCount).map { document.plainLine($0) } == (try #require(printed(Self.document))))
        #expect(document.rawLines.lineCount == 152)
    }

    @Test func aSearchOfRawLinesFindsWhatANaiveSearchFinds() {
        // Few letters, so that partial matches, repeats ("aab" in "aaab") and both cases are
        // everywhere; the text is fed in pieces, as windows of a large body are.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let text = String(
                (0..<Int.random(in: 0...80, using: &generator)).map { _ in "aAbB\n\r".randomElement(using: &generator)!
                })
            let needle = String(
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in "aAbB".randomElement(using: &generator)! })
            let bytes = Array(text.utf8)
            // Split as bytes: a String keeps "\r\n" as one character.
            let expected = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
                .filter { String(decoding: $0.element, as: UTF8.self).lowercased().contains(needle.lowercased()) }.map(
                    \.offset)
            var search = LineSearch(needle)!
            let cut = Int.random(in: 0...bytes.count, using: &generator)
            bytes[..<cut].withUnsafeBufferPointer { search.scan($0) }
            bytes[cut...].withUnsafeBufferPointer { search.scan($0) }
            #expect(search.matches == expected, "\(needle.debugDescription) in \(text.debugDescription) cut at \(cut)")
        }
    }
}
