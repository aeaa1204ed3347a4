/// A JSON value that does not fit a message type, or bytes that are not a message of it.
///
/// Its description is one line: `grpc.testing.SimpleRequest.responseSize: expected an integer,
/// got "abc"`, or for a field the type does not have, `unknown field "foo" in
/// grpc.testing.SimpleRequest (known: responseType, responseSize, payload, …)`.
public struct ProtoCodecError: Error, CustomStringConvertible, Sendable {
    /// The message type that was being encoded or decoded (the outermost one).
    public let messageType: String
    /// Where in it, as JSON names: `payload.body`, `rMessage[1].child`, `stringMap["k"]`; empty
    /// for the message itself.
    public let fieldPath: String
    /// What is wrong there.
    public let reason: String
    /// Whether `reason` names its own place (an unknown field names the type it is not in).
    let reasonStandsAlone: Bool

    /// An error at `fieldPath` of `messageType`.
    public init(messageType: String, fieldPath: String, reason: String) {
        self.init(messageType: messageType, fieldPath: fieldPath, reason: reason, standsAlone: false)
    }

    init(messageType: String, fieldPath: String, reason: String, standsAlone: Bool) {
        self.messageType = messageType
        self.fieldPath = fieldPath
        self.reason = reason
        self.reasonStandsAlone = standsAlone
    }

    /// One line naming the place and the reason.
    public var description: String {
        if reasonStandsAlone {
            let parent = fieldPath.lastIndex(of: ".").map { String(fieldPath[..<$0]) } ?? ""
            return parent.isEmpty ? reason : "\(reason) at \(messageType).\(parent)"
        }
        return fieldPath.isEmpty ? "\(messageType): \(reason)" : "\(messageType).\(fieldPath): \(reason)"
    }
}

/// Descriptors that do not make a schema: a type that no file defines, a name defined twice, a
/// dependency that is missing, bytes that are not a descriptor set.
public enum ProtoSchemaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `typeName`, used by `user` (a field or a method), is defined by no file.
    case unresolvedType(typeName: String, usedBy: String)
    /// `name` (a file or a symbol) is defined twice.
    case duplicate(name: String)
    /// `file` imports `dependency`, which is not among the files.
    case missingDependency(file: String, dependency: String)
    /// The bytes are not a serialized `FileDescriptorSet`.
    case malformedDescriptorSet(String)

    /// One sentence naming what is wrong.
    public var description: String {
        switch self {
        case .unresolvedType(let typeName, let user): "unresolved type \"\(typeName)\" used by \(user)"
        case .duplicate(let name): "\"\(name)\" is defined twice"
        case .missingDependency(let file, let dependency):
            "\(file) imports \(dependency), which is missing from the descriptors"
        case .malformedDescriptorSet(let detail): "not a FileDescriptorSet: \(detail)"
        }
    }
}
