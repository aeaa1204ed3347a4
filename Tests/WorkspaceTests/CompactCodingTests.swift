import Foundation
import Testing

@testable import Workspace

// MARK: - Fixtures

private enum Method: String, Codable, Equatable { case get, post, delete }
private enum Priority: Int, Codable, Equatable {
    case low = 1
    case high = 9
}

/// Synthesized `Codable` with associated values: a keyed container holding one nested container.
private enum Body: Codable, Equatable {
    case none
    case json(String)
    case pair(Int, String)
    case file(path: String, contentType: String?)
    case form([Field])
}

private struct Field: Codable, Equatable, Hashable {
    var name: String
    var value: String?

    enum CodingKeys: String, CodingKey { case name, value }
}

private struct Widths: Codable, Equatable {
    var int8: Int8, int16: Int16, int32: Int32, int64: Int64, int: Int
    var uint8: UInt8, uint16: UInt16, uint32: UInt32, uint64: UInt64, uint: UInt

    static let minimum = Widths(
        int8: .min, int16: .min, int32: .min, int64: .min, int: .min, uint8: .min, uint16: .min, uint32: .min,
        uint64: .min, uint: .min)
    static let maximum = Widths(
        int8: .max, int16: .max, int32: .max, int64: .max, int: .max, uint8: .max, uint16: .max, uint32: .max,
        uint64: .max, uint: .max)
    static let middle = Widths(
        int8: -100, int16: 300, int32: -70_000, int64: 1 << 40, int: 127, uint8: 128, uint16: 0, uint32: 1,
        uint64: 1 << 63, uint: 12_345)
}

/// Every shape synthesized `Codable` produces, in one value.
private struct Everything: Codable, Equatable {
    var name: String
    var empty: String
    var unicode: String
    var long: String
    var flag: Bool
    var method: Method
    var priority: Priority
    var note: String?
    var missingNote: String?
    var count: Int?
    var missingCount: Int?
    var nested: Field
    var missingNested: Field?
    var fields: [Field]
    var matrix: [[Int]]
    var optionals: [Int?]
    var byName: [String: Field]
    var byNumber: [Int: String]
    var byDouble: [Double: String]
    var tags: Set<String>
    var bodies: [Body]
    var url: URL
    var relativeURL: URL
    var date: Date
    var data: Data
    var emptyData: Data
    var double: Double
    var float: Float
    var doubles: [Double]
    var widths: [Widths]

    static let sample = Everything(
        name: "ada", empty: "", unicode: "héllo wörld ✓ 日本語 🚀", long: String(repeating: "0123456789", count: 30),
        flag: true, method: .post, priority: .high, note: "a note", missingNote: nil, count: -42, missingCount: nil,
        nested: Field(name: "Accept", value: "application/json"), missingNested: nil,
        fields: [Field(name: "a", value: nil), Field(name: "b", value: "2")], matrix: [[1, 2, 3], [], [-4]],
        optionals: [1, nil, 3, nil], byName: ["x": Field(name: "x", value: "1"), "": Field(name: "", value: nil)],
        byNumber: [1: "one", -7: "minus seven", 1000: "thousand"], byDouble: [1.5: "one and a half", -0.25: "q"],
        tags: ["smoke", "v1", "slow"],
        bodies: [
            .none, .json("{\"id\": 1}"), .pair(7, "seven"), .file(path: "/tmp/x", contentType: nil),
            .file(path: "/tmp/y", contentType: "text/plain"), .form([Field(name: "f", value: "v")]),
        ],
        url: URL(string: "https://example.com/api/items?q=1#top")!,
        relativeURL: URL(string: "items/1", relativeTo: URL(string: "https://example.com/api/")!)!,
        date: Date(timeIntervalSinceReferenceDate: 786_000_123.456), data: Data([0, 1, 2, 255, 128]), emptyData: Data(),
        double: -1234.5678e-300, float: 3.25, doubles: [0, -0.0, .infinity, -.infinity, .pi, .leastNonzeroMagnitude],
        widths: [.minimum, .maximum, .middle])
}

/// A class with hand-written coding: keys decoded in another order than encoded, one not
/// decoded at all, a nested keyed and unkeyed container, and a key read twice.
private class Shape: Codable, Equatable {
    var id: Int
    var label: String
    var origin: (x: Double, y: Double)
    var points: [Int]
    var comment: String

    enum CodingKeys: String, CodingKey { case id, label, origin, points, comment, unused }
    enum OriginKeys: String, CodingKey { case x, y }

    init(id: Int, label: String, origin: (x: Double, y: Double), points: [Int], comment: String) {
        (self.id, self.label, self.origin, self.points, self.comment) = (id, label, origin, points, comment)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        comment = try container.decode(String.self, forKey: .comment)
        var points = try container.nestedUnkeyedContainer(forKey: .points)
        var read: [Int] = []
        while !points.isAtEnd { read.append(try points.decode(Int.self)) }
        self.points = read
        id = try container.decode(Int.self, forKey: .id)
        let origin = try container.nestedContainer(keyedBy: OriginKeys.self, forKey: .origin)
        let y = try origin.decode(Double.self, forKey: .y)
        self.origin = (try origin.decode(Double.self, forKey: .x), y)
        // Asked twice: the second time the cursor is past it.
        _ = try container.decode(Int.self, forKey: .id)
        label = try container.decode(String.self, forKey: .label)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(label, forKey: .label)
        var origin = container.nestedContainer(keyedBy: OriginKeys.self, forKey: .origin)
        try origin.encode(self.origin.x, forKey: .x)
        try origin.encode(self.origin.y, forKey: .y)
        var points = container.nestedUnkeyedContainer(forKey: .points)
        for point in self.points { try points.encode(point) }
        try container.encode("skipped by the decoder", forKey: .unused)
        try container.encode(comment, forKey: .comment)
    }

    static func == (lhs: Shape, rhs: Shape) -> Bool {
        lhs.id == rhs.id && lhs.label == rhs.label && lhs.origin == rhs.origin && lhs.points == rhs.points
            && lhs.comment == rhs.comment
    }
}

/// A subclass writing its superclass through `superEncoder()` / `superDecoder()`.
private final class Circle: Shape {
    var radius: Double

    private enum Keys: String, CodingKey { case radius }

    init(radius: Double) {
        self.radius = radius
        super.init(id: 3, label: "circle", origin: (1, 2), points: [], comment: "round")
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        radius = try container.decode(Double.self, forKey: .radius)
        try super.init(from: try container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(radius, forKey: .radius)
        try super.encode(to: container.superEncoder())
    }
}

/// Missing keys against nil values, as a hand-written decoder sees them.
private struct Presence: Codable, Equatable {
    var report: [String] = []

    enum Keys: String, CodingKey { case explicitNil, ifPresentNil, value, neverWritten }

    init() {}

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encodeNil(forKey: .explicitNil)
        try container.encodeIfPresent(nil as Int?, forKey: .ifPresentNil)
        try container.encode(5, forKey: .value)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        report.append("keys \(container.allKeys.map(\.stringValue).sorted())")
        for key in [Keys.explicitNil, .ifPresentNil, .value, .neverWritten] {
            let isNil = (try? container.decodeNil(forKey: key)).map { "\($0)" } ?? "throws"
            let value = try container.decodeIfPresent(Int.self, forKey: key).map { "\($0)" } ?? "nil"
            report.append("\(key.stringValue) contains \(container.contains(key)) nil \(isNil) ifPresent \(value)")
        }
    }
}

/// A container that outlives the value whose decoding made it: its cursor's frame is reused
/// by the next value's containers, so it must find its keys by searching.
private struct Captured: Decodable {
    let container: KeyedDecodingContainer<Field.CodingKeys>

    init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: Field.CodingKeys.self) }
}

private struct FieldPair: Codable {
    var first: Field
    var second: Field

    enum CodingKeys: String, CodingKey { case first, second }
}

private struct PairReader: Decodable {
    var read: [String?] = []

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldPair.CodingKeys.self)
        let first = try container.decode(Captured.self, forKey: .first).container
        let second = try container.decode(Captured.self, forKey: .second).container
        _ = try container.nestedContainer(keyedBy: Field.CodingKeys.self, forKey: .first)
        read.append(try second.decodeIfPresent(String.self, forKey: .value))
        read.append(try first.decode(String.self, forKey: .name))
        read.append(try second.decode(String.self, forKey: .name))
        read.append(try first.decodeIfPresent(String.self, forKey: .value))
    }
}

/// A subclass that shares its encoder with its superclass (`super.encode(to: encoder)`), so
/// that both ask one encoder for a keyed container.
private class Base: Codable {
    var id = 1
}

private final class Derived: Base {
    var size = 2

    private enum Keys: String, CodingKey { case size }

    override init() { super.init() }

    required init(from decoder: any Decoder) throws {
        size = try decoder.container(keyedBy: Keys.self).decode(Int.self, forKey: .size)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(size, forKey: .size)
    }
}

/// Asks one encoder for a keyed container, then an unkeyed one.
private struct Confused: Encodable {
    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: Field.CodingKeys.self)
        try keyed.encode("x", forKey: .name)
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(1)
    }
}

/// Reads and writes what `userInfo` carries.
private struct Contextual: Codable, Equatable {
    static let suffix = CodingUserInfoKey(rawValue: "suffix")!
    var text: String

    init(text: String) { self.text = text }

    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self) + (decoder.userInfo[Self.suffix] as? String ?? "")
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text + (encoder.userInfo[Self.suffix] as? String ?? ""))
    }
}

private struct Wrapper<T: Codable>: Codable { var items: [T] }

private struct Tree: Codable, Equatable {
    var children: [Tree]

    static func chain(_ depth: Int) -> Tree {
        (0..<depth).reduce(Tree(children: [])) { tree, _ in Tree(children: [tree]) }
    }
}

// MARK: - Tests

@Suite struct CompactCodingTests {
    @Test func everyShapeOfSynthesizedCodableRoundTrips() throws {
        let bytes = try CompactCoding.encode(Everything.sample)
        let decoded = try CompactCoding.decode(Everything.self, from: bytes)
        #expect(decoded == Everything.sample)
        #expect(decoded.relativeURL.baseURL == Everything.sample.relativeURL.baseURL)
        #expect(decoded.doubles.map(\.bitPattern) == Everything.sample.doubles.map(\.bitPattern))
        let json = JSONEncoder()
        json.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+", negativeInfinity: "-", nan: "n")
        #expect(bytes.count < (try json.encode(Everything.sample)).count)
    }

    @Test func floatingPointValuesSurviveBitForBit() throws {
        let doubles: [Double] = [
            .nan, -.nan, .signalingNaN, Double(bitPattern: 0x7FF8_0000_0000_1234), -0.0, .infinity,
        ]
        let floats: [Float] = [
            .nan, Float(bitPattern: 0x7FC0_0ABC), .infinity, -.infinity, -0.0, .greatestFiniteMagnitude,
        ]
        let decodedDoubles = try CompactCoding.decode([Double].self, from: try CompactCoding.encode(doubles))
        let decodedFloats = try CompactCoding.decode([Float].self, from: try CompactCoding.encode(floats))
        #expect(decodedDoubles.map(\.bitPattern) == doubles.map(\.bitPattern))
        #expect(decodedFloats.map(\.bitPattern) == floats.map(\.bitPattern))
    }

    @Test func topLevelScalarsAndOptionalsRoundTrip() throws {
        #expect(try CompactCoding.decode(String.self, from: try CompactCoding.encode("")) == "")
        #expect(try CompactCoding.decode(Int.self, from: try CompactCoding.encode(Int.min)) == Int.min)
        #expect(try CompactCoding.decode(Int?.self, from: try CompactCoding.encode(nil as Int?)) == nil)
        #expect(try CompactCoding.decode(Bool.self, from: try CompactCoding.encode(false)) == false)
        #expect(try CompactCoding.decode([Int?].self, from: try CompactCoding.encode([nil, 0, nil])) == [nil, 0, nil])
        #expect(try CompactCoding.decode(Method.self, from: try CompactCoding.encode(Method.delete)) == .delete)
    }

    @Test func smallIntegersTakeOneByteAndWidthsAreChecked() throws {
        // version, no keys, then the value: one byte for 0..<128.
        #expect(try CompactCoding.encode(5) == [CompactCoding.formatVersion, 0, 0x85])
        #expect(try CompactCoding.encode(UInt8(200)).count == 5)
        let tooBig = try CompactCoding.encode(300)
        #expect(try CompactCoding.decode(Int16.self, from: tooBig) == 300)
        let error = try #require(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode(Int8.self, from: tooBig)
        }
        #expect(error.kind == .typeMismatch)
        #expect(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode(UInt.self, from: try CompactCoding.encode(-1))
        }
    }

    @Test func handWrittenCodingDecodesKeysOutOfOrderAndSkipsOne() throws {
        let shape = Shape(id: 9, label: "square", origin: (x: 0.5, y: -2), points: [1, 2, 3, 4], comment: "four")
        let decoded = try CompactCoding.decode(Shape.self, from: try CompactCoding.encode(shape))
        #expect(decoded == shape)
    }

    @Test func superEncoderAndSuperDecoderCarryTheSuperclass() throws {
        let circle = Circle(radius: 4.5)
        let decoded = try CompactCoding.decode(Circle.self, from: try CompactCoding.encode(circle))
        #expect(decoded.radius == 4.5)
        #expect(decoded as Shape == circle as Shape)
        #expect(decoded.label == "circle" && decoded.origin == (1, 2) && decoded.comment == "round")
    }

    @Test func aNilValueAndAMissingKeyReadAsJSONDecoderReadsThem() throws {
        let compact = try CompactCoding.decode(Presence.self, from: try CompactCoding.encode(Presence()))
        let json = try JSONDecoder().decode(Presence.self, from: try JSONEncoder().encode(Presence()))
        #expect(compact.report == json.report)
        #expect(
            compact.report == [
                "keys [\"explicitNil\", \"value\"]",
                "explicitNil contains true nil true ifPresent nil",
                "ifPresentNil contains false nil throws ifPresent nil",
                "value contains true nil false ifPresent 5",
                "neverWritten contains false nil throws ifPresent nil",
            ])
    }

    @Test func everyTruncationOfAnEncodingThrows() throws {
        let bytes = try CompactCoding.encode(Everything.sample)
        for length in 0..<bytes.count {
            #expect(throws: CompactCoding.DecodingError.self, "\(length) bytes") {
                try CompactCoding.decode(Everything.self, from: Array(bytes.prefix(length)))
            }
        }
    }

    @Test func corruptedBytesThrowOrDecodeButNeverCrash() throws {
        let bytes = try CompactCoding.encode(Everything.sample)
        var random = SplitMix64(seed: 0xC0FFEE)
        var thrown = 0
        for _ in 0..<3000 {
            var corrupt = bytes
            for _ in 0...(random.next() % 3) {
                corrupt[Int(random.next() % UInt64(corrupt.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                _ = try CompactCoding.decode(Everything.self, from: corrupt)
            } catch {
                thrown += 1
            }
        }
        #expect(thrown > 1000)
    }

    @Test func aHugeLengthPrefixThrowsBeforeAllocating() throws {
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        let version = CompactCoding.formatVersion
        let cases: [[UInt8]] = [
            [version, 0, CompactTag.string] + huge + [0x41],  // a string of 2^63 bytes
            [version, 0, CompactTag.unkeyed] + huge,  // a container longer than the bytes
            [version, 0, CompactTag.unkeyed, 9] + huge,  // 2^63 values in 9 bytes
            [version] + huge + [1, 0x61],  // 2^63 key names
        ]
        for bytes in cases {
            let error = try #require(throws: CompactCoding.DecodingError.self) {
                try CompactCoding.decode([String].self, from: bytes)
            }
            #expect(error.kind == .truncated || error.kind == .malformed)
        }
        let overlong: [UInt8] = [version, 0, CompactTag.signed] + Array(repeating: 0xFF, count: 11)
        #expect(throws: CompactCoding.DecodingError.self) { try CompactCoding.decode(Int.self, from: overlong) }
    }

    @Test func aTypeMismatchNamesTheCodingPath() throws {
        struct Item: Codable { var name: String }
        struct Numbered: Codable { var name: Int }
        let bytes = try CompactCoding.encode(Wrapper(items: [Item(name: "a"), Item(name: "b")]))
        let error = try #require(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode(Wrapper<Numbered>.self, from: bytes)
        }
        #expect(error.kind == .typeMismatch)
        #expect(error.codingPath == "items[0].name")
        #expect(error.description.contains("expected an integer, found a string at items[0].name"))
    }

    @Test func aMissingKeyAndAnInvalidRawValueThrowWithTheirPaths() throws {
        struct Before: Codable { var method: String }
        struct After: Codable {
            var method: Method
            var extra: Int
        }
        let missing = try #require(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode(After.self, from: try CompactCoding.encode(Before(method: "get")))
        }
        #expect(missing.kind == .keyNotFound)
        #expect(missing.codingPath == "extra")
        let invalid = try #require(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode([Method].self, from: try CompactCoding.encode(["get", "patch"]))
        }
        #expect(invalid.kind == .invalidValue)
        #expect(invalid.codingPath == "[1]")
    }

    @Test func otherVersionsAndTrailingBytesAreRefused() throws {
        var bytes = try CompactCoding.encode([1, 2])
        bytes[0] = 0x01
        let version = try #require(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode([Int].self, from: bytes)
        }
        #expect(version.kind == .unsupportedFormat)
        let trailing = try #require(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode([Int].self, from: try CompactCoding.encode([1, 2]) + [0])
        }
        #expect(trailing.kind == .malformed)
    }

    @Test func nestingDeeperThanTheLimitThrows() throws {
        let shallow = Tree.chain(100)
        #expect(try CompactCoding.decode(Tree.self, from: try CompactCoding.encode(shallow)) == shallow)
        let error = try #require(throws: CompactCoding.DecodingError.self) {
            try CompactCoding.decode(Tree.self, from: try CompactCoding.encode(Tree.chain(CompactCoding.maximumDepth)))
        }
        #expect(error.kind == .tooDeep)
    }

    @Test func decodingFromDataOrABufferReadsTheSameBytes() throws {
        let bytes = try CompactCoding.encode(Everything.sample)
        #expect(try CompactCoding.decode(Everything.self, from: Data(bytes)) == Everything.sample)
        let fromBuffer = try bytes.withUnsafeBytes { try CompactCoding.decode(Everything.self, from: $0) }
        #expect(fromBuffer == Everything.sample)
    }

    @Test func aContainerKeptPastItsValueStillFindsItsKeys() throws {
        let pair = FieldPair(first: Field(name: "a", value: "1"), second: Field(name: "b", value: nil))
        let reader = try CompactCoding.decode(PairReader.self, from: try CompactCoding.encode(pair))
        #expect(reader.read == [nil, "a", "b", "1"])
    }

    @Test func aSubclassSharingItsEncoderWithItsSuperclassRoundTrips() throws {
        let derived = Derived()
        derived.id = 7
        derived.size = 9
        let decoded = try CompactCoding.decode(Derived.self, from: try CompactCoding.encode(derived))
        #expect(decoded.id == 7 && decoded.size == 9)
    }

    @Test func askingOneEncoderForTwoKindsOfContainerThrows() throws {
        #expect(throws: EncodingError.self) { try CompactCoding.encode(Confused()) }
    }

    @Test func collectionsOfOptionalsAndNestedCollectionsRoundTrip() throws {
        let optionals: [String: Int?] = ["some": 1, "none": nil]
        #expect(try CompactCoding.decode([String: Int?].self, from: try CompactCoding.encode(optionals)) == optionals)
        let nested: [[String: [Int]]] = [["a": [1, 2]], [:], ["b": []]]
        #expect(try CompactCoding.decode([[String: [Int]]].self, from: try CompactCoding.encode(nested)) == nested)
        let set: Set<Int> = [3, 1, 2]
        #expect(try CompactCoding.decode(Set<Int>.self, from: try CompactCoding.encode(set)) == set)
    }

    @Test func userInfoReachesEveryNestedEncoderAndDecoder() throws {
        let value = Wrapper(items: [Contextual(text: "a"), Contextual(text: "b")])
        let bytes = try CompactCoding.encode(value, userInfo: [Contextual.suffix: "-written"])
        let decoded = try CompactCoding.decode(
            Wrapper<Contextual>.self, from: bytes, userInfo: [Contextual.suffix: "-read"])
        #expect(decoded.items.map(\.text) == ["a-written-read", "b-written-read"])
    }

    @Test func theSameValueEncodesToTheSameBytes() throws {
        let value = Everything.sample
        #expect(try CompactCoding.encode(value) == CompactCoding.encode(value))
    }
}
