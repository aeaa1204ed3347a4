import NetworkingCore

extension ProtoSchema {
    /// A message of `messageType` to fill in: every field with a zero value of its type, in JSON
    /// names.
    ///
    /// Strings are `""`, numbers `0`, 64-bit integers `"0"`, enums their first name, bytes `""`,
    /// repeated fields one element, maps `{}`; nested messages recursively up to depth 3 and
    /// once per type on a path (then `{}`); well-known types in their own JSON (a Timestamp
    /// `"1970-01-01T00:00:00Z"`, a Duration `"0s"`, an Any `{}`). Of a oneof only the first member
    /// is given. An unknown type gives `{}`.
    public func skeleton(of messageType: String) -> JSONValue {
        guard let index = messageIndex(of: messageType) else { return .object([]) }
        var visiting: Set<Int> = []
        return skeleton(index: index, depth: 0, visiting: &visiting)
    }

    private func skeleton(index: Int, depth: Int, visiting: inout Set<Int>) -> JSONValue {
        let message = messages[index]
        switch message.wellKnown {
        case .timestamp: return .string("1970-01-01T00:00:00Z")
        case .duration: return .string("0s")
        case .fieldMask: return .string("")
        case .value: return .null
        case .listValue: return .array([])
        case .wrapper(let kind): return WireToJSON.zero(of: kind)
        case .any, .structValue, .empty: return .object([])
        case nil: break
        }
        guard depth <= 3, visiting.insert(index).inserted else { return .object([]) }
        defer { visiting.remove(index) }
        var members: [(key: String, value: JSONValue)] = []
        var oneofsGiven = Set<Int>()
        for field in message.descriptor.field.compactMap({ message.indexByName[$0.name] }).map({ message.fields[$0] }) {
            if field.oneofIndex >= 0, !oneofsGiven.insert(field.oneofIndex).inserted { continue }
            if field.isMap {
                members.append((field.jsonName, .object([])))
                continue
            }
            let value: JSONValue
            if field.messageIndex >= 0 {
                value = skeleton(index: field.messageIndex, depth: depth + 1, visiting: &visiting)
            } else if field.enumIndex >= 0 {
                let info = enums[field.enumIndex]
                value = info.fullName == "google.protobuf.NullValue" ? .null : .string(info.firstName)
            } else {
                value = WireToJSON.zero(of: field.kind)
            }
            members.append((field.jsonName, field.isRepeated ? .array([value]) : value))
        }
        return .object(members)
    }
}
