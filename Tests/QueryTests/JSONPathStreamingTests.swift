import Foundation
import NetworkingCore
import Testing

@testable import Query

/// The streaming evaluator (`JSONPath.streamedMatches`) against the tree's: the same nodelist,
/// in the same order, written in the same bytes, for every query it accepts; and `nil` for
/// the queries and documents it leaves to the tree.
@Suite struct JSONPathStreamingTests {
    /// What the tree gives for `expression` on `text`: the values, or the failure's sentence.
    static func tree(_ path: JSONPath, _ text: Data, limits: EvaluationLimits = .current) -> Result<
        [JSONValue], JSONPath.Failure
    > {
        Result { () throws(JSONPath.Failure) -> [JSONValue] in
            do {
                return try path.matches(in: text, limits: limits)
            } catch {
                throw JSONPath.failure(error)
            }
        }
    }

    /// The bytes `--filter` writes for a nodelist the tree gives.
    static func written(_ values: [JSONValue]) -> Data {
        var text = Data()
        JSONValue.array(values).write(pretty: true) { text.append(contentsOf: $0.utf8) }
        return text
    }

    /// The bytes the streamed nodelist writes.
    static func written(_ nodelist: StreamedNodelist) -> Data {
        var text = Data()
        nodelist.write { text.append($0) }
        return text
    }

    /// Checks that the stream gives what the tree gives for `expression` on `text`; returns
    /// whether it streamed (`false` when it declined the document).
    @discardableResult
    static func compare(
        _ expression: String, _ text: String, strict: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bool {
        let path = try strict ? JSONPath(strict: expression) : JSONPath(expression)
        let data = Data(text.utf8)
        #expect(path.isStreamable, "\(expression) streams", sourceLocation: sourceLocation)
        guard let streamed = try path.streamedMatches(in: data) else {
            return false
        }
        let expected = try tree(path, data).get()
        #expect(
            streamed.values() == expected,
            "\(expression) on \(text): \(JSONValue.array(streamed.values())) against \(JSONValue.array(expected))",
            sourceLocation: sourceLocation)
        #expect(
            written(streamed) == written(expected), "\(expression) on \(text) is written alike",
            sourceLocation: sourceLocation)
        return true
    }

    // MARK: The compliance suite

    /// Every valid case of the RFC 9535 suite whose query streams, on its document written
    /// compactly and written pretty: the same values and the same bytes as the tree's.
    @Test func theComplianceSuiteStreamsAsTheTreeEvaluates() throws {
        var compared = 0
        var declinedQueries: [String] = []
        var declinedDocuments: [String] = []
        for test in JSONPathComplianceTests.cases where !test.isInvalid {
            let path = try JSONPath(strict: test.selector)
            guard path.isStreamable else {
                declinedQueries.append(test.selector)
                #expect(try path.streamedMatches(in: Data("[]".utf8)) == nil)
                continue
            }
            let document = try #require(test.document)
            for text in [document.serialized(), document.serialized(pretty: true)] {
                let data = Data(text.utf8)
                guard let streamed = try path.streamedMatches(in: data) else {
                    declinedDocuments.append(test.selector)
                    continue
                }
                let expected = try Self.tree(path, data).get()
                #expect(streamed.values() == expected, "\(test.name): \(test.selector)")
                #expect(Self.written(streamed) == Self.written(expected), "\(test.name): \(test.selector)")
                compared += 1
            }
        }
        // Measured: 150 queries of the suite stream (each compared on both texts), 306 are left
        // to the tree, and no document is refused (none repeats a key a name selects).
        #expect(compared == 2 * 150, "compared \(compared)")
        #expect(declinedQueries.count == 306, "declined \(declinedQueries.count)")
        #expect(declinedDocuments.isEmpty, "\(declinedDocuments)")
    }

    // MARK: Which queries stream

    @Test(arguments: [
        "$", "$.a.b", "$[0]", "$[*].id", "$.items[*].name", "$[1:3]", "$[::2]", "$[2:]", "$['a']['b c']", "$[1:3:0]",
        "$.*", "$[*][*]", "$..x", "$..*", "$.a..b", "$[*]..[0]", "$..[1:3]", "$[-1]", "$.items[-1].name", "$[-2:]",
        "$[:-1]", "$[-3:-1:2]", "$[-1]..x", "$[0,1]", "$['a','b']", "$.items[*]['id','name']", "$[0,0]", "$[-1,0,*]",
    ])
    func streams(_ expression: String) throws {
        #expect(try JSONPath(strict: expression).isStreamable)
    }

    @Test(arguments: [
        "$..a.b", "$..*..*", "$..[0,1]", "$..[-1]", "$..[-2:]", "$[0,1]..x", "$[::-1]", "$[1:0:-1]", "$[0,::-1]",
        "$[?@.a]", "$.a[?@ > 1].b",
    ])
    func declines(_ expression: String) throws {
        let path = try JSONPath(strict: expression)
        #expect(!path.isStreamable)
        #expect(try path.streamedMatches(in: Data("[{\"a\": 1}]".utf8)) == nil)
    }

    // MARK: Texts

    @Test func stringsWithEscapesAndBracketsInside() throws {
        let text = #"""
            [{"id": "a\"]{", "x": "}]\\", "k\"]": 1}, {"id": "\u00e9\ud83d\ude00\/\b\f\n\r\t\u0000\u001f\"\\"},
             {"id": "lone \ud800 and \udc00, \ud800\u0041"}, {"i\u0064": "escaped key"}, {"id": "é😀 raw"}]
            """#
        try Self.compare("$[*].id", text)
        try Self.compare("$", text)
        try Self.compare("$[0]['k\"]']", text)
        try Self.compare("$[*]", text)
    }

    @Test func bytesThatAreNotUTF8AreReadAsTheTreeReadsThem() throws {
        var data = Data(#"{"a\#u{FFFD}": ["#.utf8)
        data.append(contentsOf: [
            0x22, 0xFF, 0xC3, 0x28, 0xE2, 0x82, 0x22, 0x2C, 0x22, 0x80, 0x80, 0x80, 0x80, 0x41, 0x22,
        ])
        data.append(contentsOf: "]}".utf8)
        for expression in ["$", "$['a\u{FFFD}']", "$['a\u{FFFD}'][1]"] {
            let path = try JSONPath(strict: expression)
            let streamed = try #require(try path.streamedMatches(in: data))
            let expected = try Self.tree(path, data).get()
            #expect(streamed.values().count == expected.count)
            #expect(Self.written(streamed) == Self.written(expected), "\(expression)")
        }
        var key = Data(#"{""#.utf8)
        key.append(0xFF)
        key.append(contentsOf: #"": 1}"#.utf8)
        let path = try JSONPath(strict: "$['\u{FFFD}']")
        #expect(try path.streamedMatches(in: key)?.values() == [.number("1")])
    }

    @Test func deepNesting() throws {
        let deep = String(repeating: "[", count: 400) + "{\"x\": 1}" + String(repeating: "]", count: 400)
        try Self.compare("$" + String(repeating: "[0]", count: 400) + ".x", deep)
        try Self.compare("$" + String(repeating: "[0]", count: 200), deep)
        try Self.compare("$", deep)
        // Deeper than the reader reads: the tree's sentence.
        let tooDeep = Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8)
        let path = try JSONPath("$[0]")
        let sentence = try #require(Self.tree(path, tooDeep).failure).description
        #expect(sentence.hasPrefix("The body nests arrays and objects deeper than 512 levels"))
        #expect(Self.sentence { try path.streamedMatches(in: tooDeep) } == sentence)
        #expect(try path.streamedMatches(in: tooDeep, maximumDepth: 601) != nil)
        // The depth counts scalars too, as the reader counts them.
        #expect(Self.sentence { try JSONPath("$").streamedMatches(in: Data("[1]".utf8), maximumDepth: 1) } != nil)
        #expect(try JSONPath("$").streamedMatches(in: Data("[]".utf8), maximumDepth: 1) != nil)
    }

    @Test func numbers() throws {
        let text = "[0, -0, 1.5, -1.50e+10, 2E-3, 1e400, 123456789012345678901234567890, -0.0e0]"
        try Self.compare("$[*]", text)
        try Self.compare("$[1:7:2]", text)
        try Self.compare("$", text)
    }

    @Test func emptyArraysAndObjects() throws {
        let text = #"{"a": [], "b": {}, "c": [[], {}, [{}]], "d": {"e": []}}"#
        for expression in ["$", "$.*", "$.a", "$.a[0]", "$.a[*]", "$.b.*", "$.c[*]", "$.c[*][*]", "$.d.e"] {
            try Self.compare(expression, text)
        }
        try Self.compare("$", "[]")
        try Self.compare("$", "{}")
        try Self.compare("$[*]", "[]")
    }

    @Test func whitespaceEverywhere() throws {
        let text = " \t\r\n{ \"a\" \n:\t[ 1 ,\r\n{ \"b\" : \"c\" } , [ ] , { } ] ,\n \"d\" : null } \n\t "
        for expression in ["$", "$.a", "$.a[*]", "$.a[1].b", "$.d", "$.*"] {
            try Self.compare(expression, text)
        }
        // A byte order mark is skipped, as the reader skips it.
        try Self.compare("$", "\u{FEFF}[1]")
    }

    @Test func scalarsAtTheTop() throws {
        for text in ["1", "\"s\"", "true", "false", "null", " -2.5e3 "] {
            try Self.compare("$", text)
            try Self.compare("$[0]", text)
            try Self.compare("$.a", text)
        }
    }

    @Test func selectorsOfTheOtherKindSelectNothing() throws {
        let text = #"{"0": 1, "a": [1, 2, {"a": 3}]}"#
        for expression in ["$[0]", "$.a.a", "$.a[2][0]", "$[0:1]", "$.a[1:]", "$.a[5]", "$.a[1:100:3]"] {
            try Self.compare(expression, text)
        }
    }

    @Test func descendantsComeInTheTreesOrder() throws {
        // The root's `x` before the one below `a`, though it comes after it in the text.
        let text = #"{"a": {"x": 1, "b": [{"x": 3}]}, "x": 2, "c": [[{"x": {"x": 4}}]]}"#
        for expression in ["$..x", "$..*", "$..[0]", "$..[*]", "$.a..x", "$.c..x", "$..b", "$.c[0]..*"] {
            try Self.compare(expression, text)
        }
        #expect(try JSONPath("$..x").streamedMatches(in: Data(text.utf8))?.values().first == .number("2"))
        try Self.compare("$..*", "[[1, [2, [3]]], {\"a\": [4, {\"b\": 5}], \"c\": 6}, 7]")
        try Self.compare("$..[1:]", "[[1, [2, [3]]], [4, [5, 6]], 7]")
    }

    @Test func indicesFromTheEndCountTheArrayFirst() throws {
        let text = #"[{"id": "a],[", "x": [1, [2, 3], {"y": ","}]}, "b\\\"],", [], {"id": 4, "x": []}, 5]"#
        for expression in [
            "$[-1]", "$[-2].id", "$[-5].x[-1]", "$[-5].x[-2][-1]", "$[-6]", "$[-2:]", "$[:-2]", "$[-4:-1]", "$[-100:2]",
            "$[-3::2]", "$[*].x[-1]", "$[*].x[-3:]", "$[-5].x[-1]..*",
        ] {
            try Self.compare(expression, text)
        }
        try Self.compare("$[-1]", "[]")
        try Self.compare("$[-1]", " [ 1 ] ")
    }

    @Test func severalSelectorsComeSelectorAfterSelector() throws {
        let text = #"{"a": [10, 11, {"b": 1, "c": 2}], "b": {"c": [3, 4]}, "c": 5}"#
        for expression in [
            "$['c','a','b']", "$['c','c']", "$.a[2,0,-1,1:3]", "$[*]['c','b']", "$.a[0,*,0]", "$['a','b'][*]",
            "$['b','a'][-1,0]", "$['a','a'][2]['c','b','c']", "$['x','c']", "$.a[5,-5,1]", "$[*][*,*]",
        ] {
            try Self.compare(expression, text)
        }
        let repeated = #"{"a": 1, "a": 2, "b": 3}"#
        #expect(try JSONPath("$['b','a']").streamedMatches(in: Data(repeated.utf8)) == nil)
        try Self.compare("$['b','c']", repeated)
    }

    // MARK: Text that is not JSON

    @Test func textThatIsNotJSONGetsTheTreesSentence() throws {
        let path = try JSONPath("$[*].id")
        let texts = [
            "", " ", "[", "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{a: 1}", "[01]", "[1.]", "[1e]", "[-]", "[tru]",
            "[\"a\nb\"]", "[\"\\x\"]", "[\"\\u12G4\"]", "[\"open]", "[1] x", "[1]]", "{\"a\":1]",
            "[\"\\ud800\\uZZZZ\"]", "nul", "[+1]", "[.5]", "[\"\\\u{01}\"]", "[\"\\é\"]", "\u{FEFF}\n [1,\n  é]",
            "[\"\\", "[\"\\u12", "[\"\t\"]", "{\"a\":}", "{\"a\":1 \"b\":2}", "[1,,2]", "{,}", "[1]\n\n  ]", "tru",
            "[-01]", "[1.5e+]", "[\"é😀\" x]", "[\u{7F}]",
        ]
        for text in texts {
            let data = Data(text.utf8)
            let expected = try #require(Self.tree(path, data).failure, "\(text)").description
            #expect(Self.sentence { try path.streamedMatches(in: data) } == expected, "\(text)")
        }
        var invalid = Data("[\"".utf8)
        invalid.append(contentsOf: [0xFF, 0x22, 0xFF, 0x5D])
        let expected = try #require(Self.tree(path, invalid).failure).description
        #expect(expected.contains("a byte that is not UTF-8"))
        #expect(Self.sentence { try path.streamedMatches(in: invalid) } == expected)
    }

    /// Documents broken at random (a byte deleted, replaced or added): the stream says what the
    /// tree says, sentence for sentence, or gives its nodelist.
    @Test func brokenDocumentsGetTheTreesSentence() throws {
        var random = SeededRandom(seed: 8259)
        let pieces: [UInt8] = Array("[]{},:\"\\ 1e-.ntu\n\t".utf8) + [0x01, 0xC3, 0xFF]
        var refused = 0
        for _ in 0..<600 {
            var bytes = Array(Self.randomValue(depth: 0, random: &random).utf8)
            let position = Int.random(in: 0...bytes.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: if position < bytes.count { bytes.remove(at: position) }
            case 1: if position < bytes.count { bytes[position] = pieces.randomElement(using: &random)! }
            default: bytes.insert(pieces.randomElement(using: &random)!, at: position)
            }
            let data = Data(bytes)
            let path = try JSONPath(["$", "$[*]", "$..*", "$.a[-1]", "$['a','b']"].randomElement(using: &random)!)
            let tree = Self.tree(path, data)
            let streamed = Self.sentence { try path.streamedMatches(in: data) }
            #expect(streamed == tree.failure?.description, "\(String(decoding: bytes, as: UTF8.self))")
            if case .success(let values) = tree, let nodelist = try path.streamedMatches(in: data) {
                #expect(nodelist.values() == values)
            }
            if tree.failure != nil { refused += 1 }
        }
        #expect(refused > 200)
    }

    // MARK: Documents left to the tree

    @Test func aRepeatedNameIsLeftToTheTree() throws {
        let text = Data(#"[{"id": 1, "id": 2}]"#.utf8)
        #expect(try JSONPath("$[*].id").streamedMatches(in: text) == nil)
        #expect(try JSONPath("$[*].id").matches(in: text) == [.number("2")])
        // A repeated key that no name selects streams: the wildcard takes both.
        try Self.compare("$[*].*", #"[{"id": 1, "id": 2}]"#)
        try Self.compare("$[*].x", #"[{"id": 1, "id": 2}]"#)
    }

    // MARK: Limits

    @Test func theNodeLimitGivesTheTreesSentence() throws {
        let text = Data(("[" + Array(repeating: "{\"id\": 1}", count: 100).joined(separator: ",") + "]").utf8)
        let limits = EvaluationLimits(queryNodes: 150)
        let path = try JSONPath("$[*].id")
        let expected = try #require(Self.tree(path, text, limits: limits).failure)
        #expect(Self.sentence { try path.streamedMatches(in: text, limits: limits) } == expected.description)
        #expect(try path.streamedMatches(in: text, limits: EvaluationLimits(queryNodes: 200))?.count == 100)
        // Text that is not JSON gets the reader's sentence, whatever the limit.
        var broken = text
        broken.append(contentsOf: "x".utf8)
        let notJSON = try #require(Self.tree(path, broken, limits: limits).failure).description
        #expect(notJSON.hasPrefix("The body is not valid JSON (line 1, column 1002: unexpected 'x' after the end"))
        #expect(Self.sentence { try path.streamedMatches(in: broken, limits: limits) } == notJSON)
    }

    /// The stream counts the nodes the tree counts (visited by a descent, and selected): for
    /// each limit, both stop or neither does.
    @Test(arguments: ["$..*", "$..x", "$.a..[0]", "$[*].x", "$.a[*][*]", "$", "$['a','x','a'][*]", "$.a[0,*,-1][*]"])
    func theNodeLimitIsPassedWhereTheTreePassesIt(_ expression: String) throws {
        let text = Data(#"{"a": [[1, {"x": 2}], {"x": [3, 4]}, [], {}], "x": 5, "b": {"c": {"x": 6}}}"#.utf8)
        let path = try JSONPath(expression)
        for nodes in 1...40 {
            let limits = EvaluationLimits(queryNodes: nodes)
            let tree = Self.tree(path, text, limits: limits)
            let streamed = Self.sentence { try path.streamedMatches(in: text, limits: limits) }
            #expect(streamed == tree.failure?.description, "\(expression) with \(nodes) nodes")
        }
    }

    @Test func theTimeLimitGivesTheTreesSentence() throws {
        let text = Data(("[" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]").utf8)
        let path = try JSONPath("$[*]")
        let limits = EvaluationLimits(querySeconds: 1e-9)
        #expect(
            Self.sentence { try path.streamedMatches(in: text, limits: limits) }
                == "The JSONPath $[*] ran for more than 1e-09 seconds; set EXPLORER_QUERY_TIMEOUT to a larger value "
                + "to allow more.")
    }

    /// The sentence of the failure `body` throws, or `nil`.
    static func sentence(_ body: () throws -> StreamedNodelist?) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return JSONPath.failure(error).description
        }
    }

    // MARK: Random documents

    /// Random documents and random streamable queries, with a fixed seed: the stream and the
    /// tree agree on each.
    @Test func randomDocumentsAgreeWithTheTree() throws {
        var random = SeededRandom(seed: 9535)
        var streamed = 0
        for _ in 0..<400 {
            let text = Self.randomValue(depth: 0, random: &random)
            for _ in 0..<5 {
                var expression = "$"
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    switch Int.random(in: 0..<7, using: &random) {
                    case 5:
                        expression += ["[0,1]", "['a','b']", "['c',*]", "[-1,0]", "[*,1:]", "['a','a']"].randomElement(
                            using: &random)!
                    case 0: expression += "[*]"
                    case 1: expression += "[\(Int.random(in: -4...3, using: &random))]"
                    case 2:
                        expression +=
                            "[\(Int.random(in: 0...2, using: &random)):\(Int.random(in: 0...4, using: &random))]"
                    case 3:
                        let start = Int.random(in: -3...1, using: &random)
                        let end = Int.random(in: -2...3, using: &random)
                        expression += "[\(start):\(end):\(Int.random(in: 1...3, using: &random))]"
                    default: expression += "." + ["a", "b", "c"][Int.random(in: 0..<3, using: &random)]
                    }
                }
                if Int.random(in: 0..<3, using: &random) == 0, !expression.contains(",") {
                    expression += ["..*", "..a", "..[0]", "..[1:]"][Int.random(in: 0..<4, using: &random)]
                }
                if try Self.compare(expression, text) { streamed += 1 }
            }
        }
        #expect(streamed > 1_000)
    }

    static func randomValue(depth: Int, random: inout SeededRandom) -> String {
        let space = { (random: inout SeededRandom) in [" ", "", "\n ", "\t"][Int.random(in: 0..<4, using: &random)] }
        switch Int.random(in: 0..<(depth > 4 ? 5 : 8), using: &random) {
        case 0: return ["1", "-0.5", "2e10", "0", "1E-2"][Int.random(in: 0..<5, using: &random)]
        case 1: return ["true", "false", "null"][Int.random(in: 0..<3, using: &random)]
        case 2, 3, 4:
            return [#""x""#, #""a\"b""#, #""]}{[""#, #""\u00e9\n""#, #""é😀""#, #""""#][
                Int.random(in: 0..<6, using: &random)]
        case 5, 6:
            let members = (0..<Int.random(in: 0...4, using: &random)).map { index in
                // Names unique within an object (a repeated one is left to the tree).
                let key = ["a", "b", "c", "d"][index]
                return space(&random) + "\"\(key)\"" + space(&random) + ":" + space(&random)
                    + randomValue(depth: depth + 1, random: &random) + space(&random)
            }
            return "{" + members.joined(separator: ",") + space(&random) + "}"
        default:
            let elements = (0..<Int.random(in: 0...5, using: &random)).map { _ in
                space(&random) + randomValue(depth: depth + 1, random: &random) + space(&random)
            }
            return "[" + elements.joined(separator: ",") + space(&random) + "]"
        }
    }
}

/// A small random generator with a seed (SplitMix64), so that the random tests repeat.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
