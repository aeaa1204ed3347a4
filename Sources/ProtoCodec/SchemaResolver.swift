import SwiftProtobuf

/// Turns descriptor files into the schema's arrays: every message and enum by full name, fields
/// indexed by number and name, type names resolved to indices, once.
struct SchemaResolver {
    var messages: [MessageInfo] = []
    var messageIndex: [String: Int] = [:]
    var enums: [EnumInfo] = []
    var enumIndex: [String: Int] = [:]
    var services: [(service: ProtoService, descriptor: Google_Protobuf_ServiceDescriptorProto, file: String)] = []
    /// Each message's field descriptors and scope, kept until their types are resolved.
    private var pending: [(scope: String, fields: [Google_Protobuf_FieldDescriptorProto])] = []

    /// Resolves `files`, which must hold every dependency of each.
    init(files: [Google_Protobuf_FileDescriptorProto]) throws(ProtoSchemaError) {
        let names = Set(files.map(\.name))
        for file in files {
            for dependency in file.dependency where !names.contains(dependency) {
                throw .missingDependency(file: file.name, dependency: dependency)
            }
        }
        for file in files {
            let proto3 = file.syntax == "proto3"
            let closedEnums = file.syntax != "proto3" && file.syntax != "editions"
            for message in file.messageType {
                try collect(message, scope: file.package, proto3: proto3, closedEnums: closedEnums)
            }
            for enumType in file.enumType {
                try collect(enumType, scope: file.package, closed: closedEnums)
            }
        }
        for index in messages.indices {
            try resolveFields(of: index)
        }
        for file in files {
            for service in file.service {
                services.append((try resolve(service, package: file.package), service, file.name))
            }
        }
    }

    // MARK: - Collecting names

    private static func join(_ scope: String, _ name: String) -> String {
        scope.isEmpty ? name : "\(scope).\(name)"
    }

    private mutating func collect(
        _ message: Google_Protobuf_DescriptorProto,
        scope: String,
        proto3: Bool,
        closedEnums: Bool
    ) throws(ProtoSchemaError) {
        let fullName = Self.join(scope, message.name)
        guard messageIndex[fullName] == nil, enumIndex[fullName] == nil else { throw .duplicate(name: fullName) }
        messageIndex[fullName] = messages.count
        messages.append(
            MessageInfo(
                fullName: fullName,
                descriptor: message,
                isProto3: proto3,
                fields: [],
                indexByNumber: [],
                sparseIndexByNumber: [:],
                indexByName: [:],
                oneofNames: message.oneofDecl.map(\.name),
                isMapEntry: message.options.mapEntry,
                wellKnown: WellKnown(fullName: fullName)
            )
        )
        pending.append((fullName, message.field))
        for nested in message.nestedType {
            try collect(nested, scope: fullName, proto3: proto3, closedEnums: closedEnums)
        }
        for enumType in message.enumType {
            try collect(enumType, scope: fullName, closed: closedEnums)
        }
    }

    private mutating func collect(
        _ enumType: Google_Protobuf_EnumDescriptorProto,
        scope: String,
        closed: Bool
    ) throws(ProtoSchemaError) {
        let fullName = Self.join(scope, enumType.name)
        guard messageIndex[fullName] == nil, enumIndex[fullName] == nil else { throw .duplicate(name: fullName) }
        var byName: [String: Int32] = [:]
        var byNumber: [Int32: String] = [:]
        for value in enumType.value {
            byName[value.name] = value.number
            if byNumber[value.number] == nil { byNumber[value.number] = value.name }
        }
        enumIndex[fullName] = enums.count
        enums.append(
            EnumInfo(
                fullName: fullName,
                descriptor: enumType,
                isClosed: closed,
                numberByName: byName,
                nameByNumber: byNumber,
                firstName: enumType.value.first?.name ?? ""
            )
        )
    }

    // MARK: - Resolving

    /// The full name `typeName` means in `scope`: absolute when it starts with a dot, otherwise
    /// searched from the innermost scope outwards, as protoc does.
    private func lookUp(_ typeName: String, in scope: String) -> String? {
        if typeName.hasPrefix(".") {
            let name = String(typeName.dropFirst())
            return messageIndex[name] != nil || enumIndex[name] != nil ? name : nil
        }
        var scopeParts = scope.split(separator: ".").map(String.init)
        while true {
            let candidate = Self.join(scopeParts.joined(separator: "."), typeName)
            if messageIndex[candidate] != nil || enumIndex[candidate] != nil { return candidate }
            if scopeParts.isEmpty { return nil }
            scopeParts.removeLast()
        }
    }

    private mutating func resolveFields(of index: Int) throws(ProtoSchemaError) {
        let (scope, descriptors) = pending[index]
        let message = messages[index]
        var fields: [FieldInfo] = []
        for field in descriptors.sorted(by: { $0.number < $1.number }) {
            let kind = FieldKind(rawValue: UInt8(field.type.rawValue)) ?? .int32
            var messageIdx = -1
            var enumIdx = -1
            if kind == .message || kind == .group || kind == .enum || !field.typeName.isEmpty {
                guard let name = lookUp(field.typeName, in: scope) else {
                    throw .unresolvedType(typeName: field.typeName, usedBy: "\(scope).\(field.name)")
                }
                if let found = messageIndex[name] { messageIdx = found }
                if let found = enumIndex[name] { enumIdx = found }
            }
            let resolvedKind: FieldKind = field.hasType ? kind : (enumIdx >= 0 ? .enum : .message)
            let repeated = field.label == .repeated
            let isMap = repeated && messageIdx >= 0 && messages[messageIdx].isMapEntry
            let packed =
                repeated && resolvedKind.isPackable
                && (field.options.hasPacked ? field.options.packed : message.isProto3)
            let realOneof = field.hasOneofIndex && !field.proto3Optional
            let presence =
                !repeated
                && (!message.isProto3 || field.proto3Optional || realOneof || resolvedKind == .message
                    || resolvedKind == .group)
            fields.append(
                FieldInfo(
                    name: field.name,
                    jsonName: field.hasJsonName ? field.jsonName : Self.lowerCamel(field.name),
                    number: field.number,
                    kind: resolvedKind,
                    isRepeated: repeated,
                    isPacked: packed,
                    isMap: isMap,
                    hasPresence: presence,
                    oneofIndex: realOneof ? Int(field.oneofIndex) : -1,
                    messageIndex: messageIdx,
                    enumIndex: enumIdx,
                    typeName: field.typeName,
                    tag: UInt32(bitPattern: field.number) << 3 | resolvedKind.wireType
                )
            )
        }
        var byName: [String: Int] = [:]
        let largest = Int(fields.last?.number ?? 0)
        var dense = [Int32](repeating: -1, count: min(largest, 1024) + 1)
        var sparse: [Int32: Int] = [:]
        for (position, field) in fields.enumerated() {
            if Int(field.number) < dense.count {
                dense[Int(field.number)] = Int32(position)
            } else {
                sparse[field.number] = position
            }
            byName[field.name] = position
            byName[field.jsonName] = position
        }
        messages[index].fields = fields
        messages[index].indexByNumber = dense
        messages[index].sparseIndexByNumber = sparse
        messages[index].indexByName = byName
    }

    private func resolve(
        _ service: Google_Protobuf_ServiceDescriptorProto,
        package: String
    ) throws(ProtoSchemaError) -> ProtoService {
        let fullName = Self.join(package, service.name)
        var methods: [ProtoMethod] = []
        for method in service.method {
            let user = "\(fullName).\(method.name)"
            guard let input = lookUp(method.inputType, in: fullName), messageIndex[input] != nil else {
                throw .unresolvedType(typeName: method.inputType, usedBy: user)
            }
            guard let output = lookUp(method.outputType, in: fullName), messageIndex[output] != nil else {
                throw .unresolvedType(typeName: method.outputType, usedBy: user)
            }
            methods.append(
                ProtoMethod(
                    name: method.name,
                    serviceName: fullName,
                    inputType: input,
                    outputType: output,
                    kind: ProtoCallKind(
                        clientStreaming: method.clientStreaming, serverStreaming: method.serverStreaming)
                )
            )
        }
        return ProtoService(fullName: fullName, methods: methods)
    }

    /// protoc's JSON name for a field without one: `foo_bar_baz` → `fooBarBaz`.
    static func lowerCamel(_ name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else if upperNext {
                result += character.uppercased()
                upperNext = false
            } else {
                result.append(character)
            }
        }
        return result
    }
}
