import Foundation
import Networking

// PiuPiu 1.3's "Custom Encoding" and "Custom Decoding" examples extend `BasicRequest` and
// `ResponseInterface` for ObjectMapper and MapCodableKit, which are not on this machine. The
// two small stand-ins below give those examples the few calls they make (same names, same
// shapes, backed by Foundation's JSON coders) so that the examples themselves compile and run
// unchanged against the library's extension points.

// MARK: - Stand-in for ObjectMapper's API

protocol BaseMappable: Codable {}
struct MapContext {}

struct Mapper<N: BaseMappable> {
    init(context: MapContext? = nil, shouldIncludeNilValues: Bool = false) {}

    func toJSONString(_ value: N) -> String? { encode(value) }
    func toJSONString(_ value: [N]) -> String? { encode(value) }
    func map(JSONString: String) -> N? { decode(N.self, JSONString) }
    func mapArray(JSONString: String) -> [N]? { decode([N].self, JSONString) }
    func mapDictionary(JSONString: String) -> [String: N]? { decode([String: N].self, JSONString) }
    /// As ObjectMapper's: a Foundation JSON object (what `JSONSerialization` and
    /// `decodeJSONObject()` give), cast to the dictionary of arrays of JSON objects it maps.
    func mapDictionaryOfArrays(JSONObject: Any?) -> [String: [N]]? {
        guard let lists = JSONObject as? [String: [[String: Any]]],
            let data = try? JSONSerialization.data(withJSONObject: lists)
        else { return nil }
        return try? JSONDecoder().decode([String: [N]].self, from: data)
    }

    private func encode(_ value: some Encodable) -> String? {
        (try? JSONEncoder().encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ text: String) -> Value? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

// MARK: - Stand-in for MapCodableKit's API

public protocol MapEncodable: Encodable {}
protocol MapDecodable: Decodable {}

extension MapEncodable {
    func jsonData(options: JSONSerialization.WritingOptions = []) throws -> Data {
        let encoder = JSONEncoder()
        if options.contains(.sortedKeys) { encoder.outputFormatting.insert(.sortedKeys) }
        return try encoder.encode(self)
    }
}

extension MapDecodable {
    init(jsonData: Data) throws { self = try JSONDecoder().decode(Self.self, from: jsonData) }
    static func parseArray(jsonData: Data) throws -> [Self] { try JSONDecoder().decode([Self].self, from: jsonData) }
}

extension Post: BaseMappable, MapEncodable, MapDecodable {}

// MARK: - "Custom Encoding": ObjectMapper

extension BasicRequest {
    /// Add JSON body to the request from a `BaseMappable` object.
    ///
    /// - Parameters:
    ///   - mappable: The `BaseMappable` object to serialize into JSON.
    ///   - context: The context of the mapping object
    ///   - shouldIncludeNilValues: Wether or not we should serialize nil values into the json object
    mutating func setJSONBody<T: BaseMappable>(
        mappable: T, context: MapContext? = nil, shouldIncludeNilValues: Bool = false
    ) {
        let mapper = Mapper<T>(context: context, shouldIncludeNilValues: shouldIncludeNilValues)

        guard let jsonString = mapper.toJSONString(mappable) else {
            return
        }

        self.setJSONBody(string: jsonString)
    }

    /// Add JSON body to the request from a `BaseMappable` array.
    ///
    /// - Parameters:
    ///   - mappable: The `BaseMappable` array to serialize into JSON.
    ///   - context: The context of the mapping object
    ///   - shouldIncludeNilValues: Wether or not we should serialize nil values into the json object
    mutating func setJSONBody<T: BaseMappable>(
        mappable: [T], context: MapContext? = nil, shouldIncludeNilValues: Bool = false
    ) {
        let mapper = Mapper<T>(context: context, shouldIncludeNilValues: shouldIncludeNilValues)

        guard let jsonString = mapper.toJSONString(mappable) else {
            return
        }

        self.setJSONBody(string: jsonString)
    }
}

// MARK: - "Custom Encoding": MapCodableKit

extension BasicRequest {
    /// Add body to the request from a `MapEncodable` object.
    ///
    /// - Parameters:
    ///   - mapEncodable: The `MapEncodable` object to serialize into JSON.
    ///   - options: Writing options for serializing the `MapEncodable` object.
    /// - Throws: Any serialization errors thrown by `MapCodableKit`.
    mutating public func setJSONBody<T: MapEncodable>(mapEncodable: T, options: JSONSerialization.WritingOptions = [])
        throws
    {
        ensureJSONContentType()
        self.httpBody = try mapEncodable.jsonData(options: options)
    }
}

// MARK: - "Custom Decoding": ObjectMapper

extension ResponseInterface where T == Data? {

    /// Attempt to Decode the response data into an BaseMappable object.
    ///
    /// - Parameters:
    ///   - type: The mappable type to decode
    ///   - context: The Base mappable object
    /// - Returns: The decoded object
    /// - Throws: `SerializationError`
    func decodeMappable<D: BaseMappable>(_ type: D.Type, context: MapContext? = nil) throws -> D {
        let jsonString = try self.decodeString()
        let mapper = Mapper<D>(context: context)

        guard let result = mapper.map(JSONString: jsonString) else {
            throw SerializationError.failedToDecodeResponseData(cause: nil)
        }

        return result
    }

    /// Attempt to decode the response data into a BaseMappable array.
    ///
    /// - Parameters:
    ///   - type: The array type to decode
    ///   - context: The Base mappable object
    /// - Returns: The decoded array
    /// - Throws: `SerializationError`
    func decodeMappable<D: BaseMappable>(_ type: [D].Type, context: MapContext? = nil) throws -> [D] {
        let jsonString = try self.decodeString()
        let mapper = Mapper<D>(context: context)

        guard let result = mapper.mapArray(JSONString: jsonString) else {
            throw SerializationError.failedToDecodeResponseData(cause: nil)
        }

        return result
    }

    /// Attempt to decode the response data into a BaseMappable array.
    ///
    /// - Parameters:
    ///   - type: The dictionary type to decode
    ///   - context: The Base mappable object
    /// - Returns: The decoded array
    /// - Throws: `SerializationError`
    func decodeMappable<D: BaseMappable>(_ type: [String: D].Type, context: MapContext? = nil) throws -> [String: D] {
        let jsonString = try self.decodeString()
        let mapper = Mapper<D>(context: context)

        guard let result = mapper.mapDictionary(JSONString: jsonString) else {
            throw SerializationError.failedToDecodeResponseData(cause: nil)
        }

        return result
    }

    /// Attempt to decode the response data into a BaseMappable array.
    ///
    /// - Parameters:
    ///   - type: The dictionary of arrays type to decode
    ///   - context: The Base mappable object
    /// - Returns: The decoded array
    /// - Throws: `SerializationError`
    func decodeMappable<D: BaseMappable>(_ type: [String: [D]].Type, context: MapContext? = nil) throws -> [String: [D]]
    {
        let jsonObject = try self.decodeJSONObject()
        let mapper = Mapper<D>(context: context)

        guard let result = mapper.mapDictionaryOfArrays(JSONObject: jsonObject) else {
            throw SerializationError.failedToDecodeResponseData(cause: nil)
        }

        return result
    }
}

// MARK: - "Custom Decoding": MapCodableKit

extension ResponseInterface where T == Data? {

    /// Attempt to deserialize the response data into a MapDecodable object.
    ///
    /// - Parameters:
    ///   - type: The map decodable type to decode
    /// - Returns: The decoded object
    /// - Throws: `SerializationError`
    func decodeMapDecodable<D: MapDecodable>(_ type: D.Type) throws -> D {
        let data = try self.unwrapData()

        do {
            // Attempt to deserialize the object.
            return try D(jsonData: data)
        } catch {
            // Wrap this error so that we're controlling the error type and return a safe message to the user.
            throw SerializationError.failedToDecodeResponseData(cause: error)
        }
    }

    /// Attempt to decode the response data into a MapDecodable array.
    ///
    /// - Parameters:
    ///   - type: The map decodable array type to decode
    /// - Returns: The map decodable array
    /// - Throws: `SerializationError`
    func decodeMapDecodable<D: MapDecodable>(_ type: [D].Type) throws -> [D] {
        let data = try self.unwrapData()

        do {
            // Attempt to deserialize the object.
            return try D.parseArray(jsonData: data)
        } catch {
            // Wrap this error so that we're controlling the error type and return a safe message to the user.
            throw SerializationError.failedToDecodeResponseData(cause: error)
        }
    }
}
