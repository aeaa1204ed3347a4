import NetworkingCore
import SwiftProtobuf

extension ProtoSchema {
    /// A service, method, message or enum as proto text, as `grpcurl describe` prints it; nil
    /// when no such symbol is known.
    ///
    /// - Parameter symbol: a full name (`grpc.testing.SimpleRequest`), a method as
    ///   `pkg.Service.Method` or `pkg.Service/Method`; a leading dot is allowed.
    public func describe(_ symbol: String) -> String? {
        var name = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
        if name.hasPrefix("/") { name.removeFirst() }
        if let service = serviceDescriptors[name] { return Self.text(of: service) }
        if let method = methodDescriptor(name) { return Self.text(of: method) + "\n" }
        if let index = messageIndex[name] {
            return text(ofMessage: messages[index].descriptor, proto3: messages[index].isProto3, indent: "")
        }
        if let index = enumIndex[name] { return Self.text(ofEnum: enums[index].descriptor, indent: "") }
        return nil
    }

    /// Up to five known symbols nearest to a mistyped one: services, methods
    /// (`pkg.Service.Method`), messages and enums, by edit distance, and those with its last part.
    public func nearNames(_ symbol: String) -> [String] {
        let wanted = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
        let lowered = Array(wanted.lowercased().replacingOccurrences(of: "/", with: ".").utf8)
        let lastPart = wanted.split(whereSeparator: { $0 == "." || $0 == "/" }).last.map { $0.lowercased() } ?? ""
        var scored: [(name: String, score: Int)] = []
        for name in symbolNames {
            let candidate = Array(name.lowercased().utf8)
            var score = Self.editDistance(lowered, candidate)
            let candidateLast = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            if !lastPart.isEmpty, candidateLast == lastPart { score = min(score, 1) }
            let limit = max(2, lowered.count / 3)
            if score <= limit { scored.append((name, score)) }
        }
        scored.sort { $0.score != $1.score ? $0.score < $1.score : $0.name < $1.name }
        return scored.prefix(5).map(\.name)
    }

    /// Every name `describe` knows, the embedded files' ones too.
    var symbolNames: [String] {
        var names: [String] = []
        for (serviceName, service) in serviceDescriptors {
            names.append(serviceName)
            for method in service.method { names.append("\(serviceName).\(method.name)") }
        }
        names += messages.filter { !$0.isMapEntry }.map(\.fullName)
        names += enums.map(\.fullName)
        return names
    }

    private func methodDescriptor(_ name: String) -> Google_Protobuf_MethodDescriptorProto? {
        guard let separator = name.lastIndex(where: { $0 == "." || $0 == "/" }) else { return nil }
        let service = serviceDescriptors[String(name[..<separator])]
        return service?.method.first { $0.name == name[name.index(after: separator)...] }
    }

    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    // MARK: - Proto text

    private static func text(of service: Google_Protobuf_ServiceDescriptorProto) -> String {
        var lines = ["service \(service.name) {"]
        for method in service.method { lines.append("  " + text(of: method)) }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func text(of method: Google_Protobuf_MethodDescriptorProto) -> String {
        let input = (method.clientStreaming ? "stream " : "") + dotted(method.inputType)
        let output = (method.serverStreaming ? "stream " : "") + dotted(method.outputType)
        return "rpc \(method.name) ( \(input) ) returns ( \(output) );"
    }

    private static func dotted(_ typeName: String) -> String {
        typeName.hasPrefix(".") ? typeName : "." + typeName
    }

    private func text(ofMessage message: Google_Protobuf_DescriptorProto, proto3: Bool, indent: String) -> String {
        var lines = ["\(indent)message \(message.name) {"]
        let inner = indent + "  "
        var oneofsWritten = Set<Int32>()
        for field in message.field {
            if field.hasOneofIndex, !field.proto3Optional {
                guard oneofsWritten.insert(field.oneofIndex).inserted else { continue }
                lines.append("\(inner)oneof \(message.oneofDecl[Int(field.oneofIndex)].name) {")
                for member in message.field where member.hasOneofIndex && member.oneofIndex == field.oneofIndex {
                    lines.append(inner + "  " + fieldText(member, in: message, proto3: proto3))
                }
                lines.append("\(inner)}")
            } else {
                lines.append(inner + fieldText(field, in: message, proto3: proto3))
            }
        }
        for nested in message.nestedType where !nested.options.mapEntry {
            lines.append(text(ofMessage: nested, proto3: proto3, indent: inner).trimmingSuffixNewline)
        }
        for nested in message.enumType { lines.append(Self.text(ofEnum: nested, indent: inner).trimmingSuffixNewline) }
        lines.append("\(indent)}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func fieldText(
        _ field: Google_Protobuf_FieldDescriptorProto,
        in message: Google_Protobuf_DescriptorProto,
        proto3: Bool
    ) -> String {
        var type = Self.typeText(field)
        if field.label == .repeated, let entry = mapEntry(field, in: message), entry.field.count == 2 {
            type = "map<\(Self.typeText(entry.field[0])), \(Self.typeText(entry.field[1]))>"
        } else if field.label == .repeated {
            type = "repeated " + type
        } else if field.label == .required {
            type = "required " + type
        } else if field.proto3Optional || (field.label == .optional && !proto3 && !field.hasOneofIndex) {
            type = "optional " + type
        }
        var options: [String] = []
        if field.hasDefaultValue {
            options.append("default = " + (field.type == .string ? "\"\(field.defaultValue)\"" : field.defaultValue))
        }
        if field.hasJsonName, field.jsonName != SchemaResolver.lowerCamel(field.name) {
            options.append("json_name = \"\(field.jsonName)\"")
        }
        if field.options.hasPacked { options.append("packed = \(field.options.packed)") }
        if field.options.deprecated { options.append("deprecated = true") }
        let suffix = options.isEmpty ? "" : " [\(options.joined(separator: ", "))]"
        return "\(type) \(field.name) = \(field.number)\(suffix);"
    }

    private func mapEntry(
        _ field: Google_Protobuf_FieldDescriptorProto,
        in message: Google_Protobuf_DescriptorProto
    ) -> Google_Protobuf_DescriptorProto? {
        let entryName = field.typeName.split(separator: ".").last.map(String.init)
        return message.nestedType.first { $0.name == entryName && $0.options.mapEntry }
    }

    private static func typeText(_ field: Google_Protobuf_FieldDescriptorProto) -> String {
        switch field.type {
        case .message, .enum, .group: dotted(field.typeName)
        default: String(describing: field.type)
        }
    }

    private static func text(ofEnum enumType: Google_Protobuf_EnumDescriptorProto, indent: String) -> String {
        var lines = ["\(indent)enum \(enumType.name) {"]
        for value in enumType.value { lines.append("\(indent)  \(value.name) = \(value.number);") }
        lines.append("\(indent)}")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
