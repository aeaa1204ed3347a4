import NetworkingCore
import ProtoCodec

/// A method of a gRPC server offered for a new endpoint (`Ctrl-N` on a gRPC environment): what
/// the draft is made of.
package struct GRPCMethodOffer: Sendable, Hashable {
    /// `package.Service/Method`.
    package var method: String
    /// Unary, or which side streams.
    package var kind: ProtoCallKind
    /// The request's message type (`grpc.testing.SimpleRequest`).
    package var inputType: String
    /// Every field of the input type with its zero value, in proto3 JSON
    /// (`ProtoSchema.skeleton(of:)`): the new endpoint's `message:`.
    package var skeleton: JSONValue
    /// The server's template when it is not the environment's base URL (an endpoint's
    /// `server:`): the new endpoint's `server:`.
    package var server: String?

    /// An offer.
    package init(
        method: String, kind: ProtoCallKind, inputType: String, skeleton: JSONValue, server: String? = nil
    ) {
        self.method = method
        self.kind = kind
        self.inputType = inputType
        self.skeleton = skeleton
        self.server = server
    }

    /// Every method of a schema's services, in the order their files declare them, on
    /// `server` (nil: the environment's base URL).
    package static func offers(_ schema: ProtoSchema, server: String?) -> [GRPCMethodOffer] {
        schema.services.flatMap { service in
            service.methods.map { method in
                GRPCMethodOffer(
                    method: "\(method.serviceName)/\(method.name)", kind: method.kind, inputType: method.inputType,
                    skeleton: schema.skeleton(of: method.inputType), server: server)
            }
        }
    }
}

/// What asking a gRPC server for its methods gave: the methods and where the schema came
/// from, or the sentence that says why there are none.
package struct GRPCMethodsLoad: Sendable, Hashable {
    /// The methods, as `GRPCMethodOffer.offers` lists them.
    package var methods: [GRPCMethodOffer]
    /// Where the schema came from (`server reflection (grpc.reflection.v1)`, a file).
    package var origin: String
    /// Why no method could be offered; nil when the schema was read.
    package var problem: String?
    /// The server asked, as an endpoint's `server:` template; nil: the environment's base URL.
    package var server: String?

    /// The methods of a schema read from `origin`.
    ///
    /// - Parameters:
    ///   - methods: the methods.
    ///   - origin: where the schema came from.
    ///   - server: the server asked (nil: the environment's base URL).
    package init(methods: [GRPCMethodOffer], origin: String, server: String? = nil) {
        self.methods = methods
        self.origin = origin
        problem = nil
        self.server = server
    }

    /// No schema, and why.
    ///
    /// - Parameters:
    ///   - problem: the sentence that says why.
    ///   - server: the server asked (nil: the environment's base URL).
    package init(problem: String, server: String? = nil) {
        methods = []
        origin = ""
        self.problem = problem
        self.server = server
    }
}
