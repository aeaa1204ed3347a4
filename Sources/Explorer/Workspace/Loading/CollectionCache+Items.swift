import NetworkingCore

// The endpoint tree as the parsed-collection cache writes it: by hand, by position, with every
// string once in a table. A large collection holds tens of thousands of endpoints, and a
// `Decoder` costs a container, a type check and a key comparison per field: read this way,
// 10,107 endpoints decode in a fraction of the time (docs/benchmarks.md). What an endpoint
// seldom has (checks, auth, GraphQL, WebSocket and gRPC settings, disabled rows, form and
// multipart bodies) is written with `CompactCoding` inside, as a block of bytes.
//
// Layout: the strings (count, then each one's byte count and UTF-8 bytes), the folder paths
// (count, then each one's count and string indexes), then the items (count, then each item).
// Numbers are unsigned LEB128; a string is its index in the table, an optional one its index
// plus one (0: none).

/// Writes an endpoint tree.
struct CachedItemsWriter {
    private var body: [UInt8] = []
    private var table: [String] = []
    private var stringIndexes: [String: Int] = [:]
    private var folderPaths: [[String]] = []
    private var folderPathIndexes: [[String]: Int] = [:]

    /// The bytes of a tree.
    ///
    /// - Throws: what `CompactCoding` throws for a part written with it.
    static func encode(_ items: [CollectionItem]) throws -> [UInt8] {
        var writer = CachedItemsWriter()
        try writer.write(items)
        var head = CachedItemsWriter()
        head.number(writer.table.count)
        for text in writer.table {
            var text = text
            text.withUTF8 { utf8 in
                head.number(utf8.count)
                head.body.append(contentsOf: utf8)
            }
        }
        head.number(writer.folderPaths.count)
        for path in writer.folderPaths {
            head.number(path.count)
            for component in path { head.number(writer.stringIndexes[component]!) }
        }
        return head.body + writer.body
    }

    private mutating func number(_ value: Int) {
        var rest = UInt(bitPattern: value)
        while rest >= 0x80 {
            body.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        body.append(UInt8(rest))
    }

    private mutating func index(of text: String) -> Int {
        if let index = stringIndexes[text] { return index }
        table.append(text)
        stringIndexes[text] = table.count - 1
        return table.count - 1
    }

    private mutating func string(_ text: String) { number(index(of: text)) }

    private mutating func optional(_ text: String?) { number(text.map { index(of: $0) + 1 } ?? 0) }

    private mutating func stringList(_ texts: [String]) {
        number(texts.count)
        for text in texts { string(text) }
    }

    private mutating func rows(_ rows: [KeyValue]) {
        number(rows.count)
        for row in rows {
            string(row.name)
            string(row.value)
        }
    }

    private mutating func place(_ location: FileLocation) {
        string(location.file)
        number(location.line)
        number(location.column)
    }

    private mutating func block(_ value: some Encodable) throws {
        let bytes = try CompactCoding.encode(value)
        number(bytes.count)
        body.append(contentsOf: bytes)
    }

    private mutating func json(_ value: JSONValue) {
        switch value {
        case .null: body.append(0)
        case .bool(let flag): body.append(flag ? 2 : 1)
        case .number(let text):
            body.append(3)
            string(text)
        case .string(let text):
            body.append(4)
            string(text)
        case .array(let elements):
            body.append(5)
            number(elements.count)
            for element in elements { json(element) }
        case .object(let members):
            body.append(6)
            number(members.count)
            for member in members {
                string(member.key)
                json(member.value)
            }
        }
    }

    private mutating func write(_ items: [CollectionItem]) throws {
        number(items.count)
        for item in items {
            switch item {
            case .endpoint(let endpoint):
                body.append(0)
                try write(endpoint)
            case .folder(let folder):
                body.append(1)
                string(folder.name)
                optional(folder.description)
                stringList(folder.tags)
                if let auth = folder.auth {
                    body.append(1)
                    try block(auth)
                } else {
                    body.append(0)
                }
                try write(folder.items)
            }
        }
    }

    private mutating func write(_ endpoint: Endpoint) throws {
        number(Int(EndpointPart.present(in: endpoint)))
        string(endpoint.name)
        if let index = folderPathIndexes[endpoint.folderPath] {
            number(index)
        } else {
            for component in endpoint.folderPath { _ = index(of: component) }
            folderPaths.append(endpoint.folderPath)
            folderPathIndexes[endpoint.folderPath] = folderPaths.count - 1
            number(folderPaths.count - 1)
        }
        string(endpoint.method.rawValue)
        string(endpoint.path)
        if !endpoint.query.isEmpty { rows(endpoint.query) }
        if !endpoint.headers.isEmpty { rows(endpoint.headers) }
        switch endpoint.body {
        case nil: break
        case .json(let value)?:
            body.append(0)
            json(value)
        case .raw(let text)?:
            body.append(1)
            string(text)
        case .file(let path)?:
            body.append(2)
            string(path)
        case .form(let form)?:
            body.append(3)
            rows(form)
        case .multipart(let fields)?:
            body.append(4)
            try block(fields)
        }
        if !endpoint.disabled.isEmpty { try block(endpoint.disabled) }
        if !endpoint.captures.isEmpty { try block(endpoint.captures) }
        if !endpoint.assertions.isEmpty { try block(endpoint.assertions) }
        if let retry = endpoint.retry { try block(retry) }
        if !endpoint.requirements.isEmpty { try block(endpoint.requirements) }
        if let auth = endpoint.auth { try block(auth) }
        if let graphql = endpoint.graphql { try block(graphql) }
        if let operation = endpoint.operation { string(operation) }
        if let followRedirects = endpoint.followRedirects { body.append(followRedirects ? 1 : 0) }
        if let webSocket = endpoint.webSocket { try block(webSocket) }
        if let grpc = endpoint.grpc { try block(grpc) }
        if !endpoint.tags.isEmpty { stringList(endpoint.tags) }
        if let traces = endpoint.traces { body.append(traces ? 1 : 0) }
        if let location = endpoint.location { place(location) }
        if let description = endpoint.description { string(description) }
        if !endpoint.locations.isEmpty {
            // In the order of their places, so the same endpoint writes the same bytes.
            let places = endpoint.locations.sorted { $0.key < $1.key }
            number(places.count)
            for entry in places {
                string(entry.key)
                place(entry.value)
            }
        }
    }
}

/// The parts an endpoint may leave empty, a bit each, in the order they are written: only those
/// it has are (most endpoints have a name, a path and a few more), after the bits.
enum EndpointPart: Int, CaseIterable {
    case query, headers, body, disabled, captures, assertions, retry, requirements, auth, graphql, operation
    case followRedirects, webSocket, grpc, tags, traces, location, description, locations

    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The bits of the parts an endpoint has.
    static func present(in endpoint: Endpoint) -> UInt32 {
        let has: [EndpointPart: Bool] = [
            .query: !endpoint.query.isEmpty, .headers: !endpoint.headers.isEmpty, .body: endpoint.body != nil,
            .disabled: !endpoint.disabled.isEmpty, .captures: !endpoint.captures.isEmpty,
            .assertions: !endpoint.assertions.isEmpty, .retry: endpoint.retry != nil,
            .requirements: !endpoint.requirements.isEmpty, .auth: endpoint.auth != nil,
            .graphql: endpoint.graphql != nil, .operation: endpoint.operation != nil,
            .followRedirects: endpoint.followRedirects != nil, .webSocket: endpoint.webSocket != nil,
            .grpc: endpoint.grpc != nil, .tags: !endpoint.tags.isEmpty, .traces: endpoint.traces != nil,
            .location: endpoint.location != nil, .description: endpoint.description != nil,
            .locations: !endpoint.locations.isEmpty,
        ]
        return allCases.reduce(0) { has[$1] == true ? $0 | $1.bit : $0 }
    }
}

/// Reads an endpoint tree `CachedItemsWriter` wrote. Every count, index and length is checked
/// against the bytes: a damaged tree throws, it is never half read.
struct CachedItemsReader {
    /// Why a tree did not read, at which byte.
    struct Damaged: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "the cached endpoint tree is damaged at byte \(offset)" }
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 0
    private var table: [String] = []
    private var folderPaths: [[String]] = []
    private let maximumDepth: Int

    /// Reads a tree from the whole of `bytes`.
    ///
    /// - Parameter maximumDepth: the deepest folders and JSON values read (the document
    ///   limits': a damaged tree is not trusted to be shallow, so the stack is not).
    /// - Throws: `Damaged`, or what `CompactCoding` throws for a part written with it.
    static func decode(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int) throws -> [CollectionItem] {
        var reader = CachedItemsReader(bytes: bytes, maximumDepth: maximumDepth)
        try reader.readTables()
        let items = try reader.items(depth: 0)
        guard reader.offset == bytes.count else { throw Damaged(offset: reader.offset) }
        return items
    }

    private init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    private mutating func readTables() throws {
        let stringCount = try count()
        table.reserveCapacity(stringCount)
        for _ in 0..<stringCount {
            let length = try count()
            let start = offset
            offset += length
            table.append(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
        }
        let pathCount = try count()
        folderPaths.reserveCapacity(pathCount)
        for _ in 0..<pathCount {
            let components = try count()
            var path: [String] = []
            path.reserveCapacity(components)
            for _ in 0..<components { path.append(try string()) }
            folderPaths.append(path)
        }
    }

    private mutating func byte() throws -> UInt8 {
        guard offset < bytes.count else { throw Damaged(offset: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func number() throws -> Int {
        var value: UInt = 0
        var shift: UInt = 0
        while true {
            let next = try byte()
            guard shift < 63 else { throw Damaged(offset: offset) }
            value |= UInt(next & 0x7F) << shift
            if next & 0x80 == 0 { break }
            shift += 7
        }
        guard value <= UInt(Int.max) else { throw Damaged(offset: offset) }
        return Int(value)
    }

    /// A count of things that each take at least a byte: no more than the bytes left, so a
    /// damaged count allocates nothing.
    private mutating func count() throws -> Int {
        let value = try number()
        guard value <= bytes.count - offset else { throw Damaged(offset: offset) }
        return value
    }

    private mutating func flag() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Damaged(offset: offset - 1)
        }
    }

    private mutating func string() throws -> String {
        let index = try number()
        guard index < table.count else { throw Damaged(offset: offset) }
        return table[index]
    }

    private mutating func optional() throws -> String? {
        let index = try number()
        guard index <= table.count else { throw Damaged(offset: offset) }
        return index == 0 ? nil : table[index - 1]
    }

    private mutating func stringList() throws -> [String] {
        let count = try count()
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count { texts.append(try string()) }
        return texts
    }

    private mutating func rows() throws -> [KeyValue] {
        let count = try count()
        var rows: [KeyValue] = []
        rows.reserveCapacity(count)
        for _ in 0..<count { rows.append(KeyValue(try string(), try string())) }
        return rows
    }

    private mutating func place() throws -> FileLocation {
        FileLocation(file: try string(), line: try number(), column: try number())
    }

    private mutating func block<T: Decodable>(_ type: T.Type) throws -> T {
        let length = try count()
        let start = offset
        offset += length
        return try CompactCoding.decode(type, from: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
    }

    private mutating func json(depth: Int) throws -> JSONValue {
        guard depth <= maximumDepth else { throw Damaged(offset: offset) }
        switch try byte() {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3: return .number(try string())
        case 4: return .string(try string())
        case 5:
            let count = try count()
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try json(depth: depth + 1)) }
            return .array(elements)
        case 6:
            let count = try count()
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(count)
            for _ in 0..<count { members.append((try string(), try json(depth: depth + 1))) }
            return .object(members)
        default: throw Damaged(offset: offset - 1)
        }
    }

    private mutating func items(depth: Int) throws -> [CollectionItem] {
        guard depth <= maximumDepth else { throw Damaged(offset: offset) }
        let count = try count()
        var items: [CollectionItem] = []
        items.reserveCapacity(count)
        for _ in 0..<count {
            if try flag() {
                var folder = Folder(name: try string())
                folder.description = try optional()
                folder.tags = try stringList()
                if try flag() { folder.auth = try block(Authentication.self) }
                folder.items = try self.items(depth: depth + 1)
                items.append(.folder(folder))
            } else {
                items.append(.endpoint(try endpoint()))
            }
        }
        return items
    }

    private mutating func endpoint() throws -> Endpoint {
        let parts = try number()
        guard parts < 1 << EndpointPart.allCases.count else { throw Damaged(offset: offset) }
        func has(_ part: EndpointPart) -> Bool { UInt32(parts) & part.bit != 0 }
        let name = try string()
        let pathIndex = try number()
        guard pathIndex < folderPaths.count else { throw Damaged(offset: offset) }
        var endpoint = Endpoint(
            name: name, folderPath: folderPaths[pathIndex], method: HTTPMethod(exactly: try string()),
            path: try string())
        if has(.query) { endpoint.query = try rows() }
        if has(.headers) { endpoint.headers = try rows() }
        if has(.body) {
            switch try byte() {
            case 0: endpoint.body = .json(try json(depth: 0))
            case 1: endpoint.body = .raw(try string())
            case 2: endpoint.body = .file(try string())
            case 3: endpoint.body = .form(try rows())
            case 4: endpoint.body = .multipart(try block([MultipartField].self))
            default: throw Damaged(offset: offset - 1)
            }
        }
        if has(.disabled) { endpoint.disabled = try block(DisabledRows.self) }
        if has(.captures) { endpoint.captures = try block([Capture].self) }
        if has(.assertions) { endpoint.assertions = try block([Assertion].self) }
        if has(.retry) { endpoint.retry = try block(CheckRetry.self) }
        if has(.requirements) { endpoint.requirements = try block([Requirement].self) }
        if has(.auth) { endpoint.auth = try block(Authentication.self) }
        if has(.graphql) { endpoint.graphql = try block(GraphQLOperation.self) }
        if has(.operation) { endpoint.operation = try string() }
        if has(.followRedirects) { endpoint.followRedirects = try flag() }
        if has(.webSocket) { endpoint.webSocket = try block(WebSocketSettings.self) }
        if has(.grpc) { endpoint.grpc = try block(GRPCSettings.self) }
        if has(.tags) { endpoint.tags = try stringList() }
        if has(.traces) { endpoint.traces = try flag() }
        if has(.location) { endpoint.location = try place() }
        if has(.description) { endpoint.description = try string() }
        if has(.locations) {
            let count = try count()
            var locations: [String: FileLocation] = [:]
            locations.reserveCapacity(count)
            for _ in 0..<count {
                let part = try string()
                locations[part] = try place()
            }
            endpoint.locations = locations
        }
        return endpoint
    }
}
