import Foundation
import NetworkingCore
import ProtoCodec
import SwiftProtobuf
import Testing

@Suite struct ProtoSchemaTests {
    let schema = ProtoFixtures.schema

    @Test func servicesAreTheUsersOnesSortedByName() {
        #expect(
            schema.services.map(\.fullName) == [
                "explorer.test.Explorer", "grpc.testing.ReconnectService", "grpc.testing.TestService",
                "grpc.testing.UnimplementedService",
            ]
        )
        let test = schema.service(named: "grpc.testing.TestService")
        #expect(test?.methods.map(\.name).first == "EmptyCall")
        #expect(test?.methods.count == 8)
    }

    @Test func methodsAreFoundByAnyOfTheirThreeSpellings() {
        for path in [
            "grpc.testing.TestService/UnaryCall", "grpc.testing.TestService.UnaryCall",
            "/grpc.testing.TestService/UnaryCall",
        ] {
            let method = schema.method(path)
            #expect(method?.path == "/grpc.testing.TestService/UnaryCall")
            #expect(method?.inputType == "grpc.testing.SimpleRequest")
            #expect(method?.outputType == "grpc.testing.SimpleResponse")
            #expect(method?.kind == .unary)
        }
        #expect(schema.method("grpc.testing.TestService/FullDuplexCall")?.kind == .bidirectionalStreaming)
        #expect(schema.method("grpc.testing.TestService/StreamingInputCall")?.kind == .clientStreaming)
        #expect(schema.method("grpc.testing.TestService/StreamingOutputCall")?.kind == .serverStreaming)
        #expect(schema.method("grpc.testing.TestService/Nope") == nil)
        #expect(schema.method("Nope") == nil)
    }

    @Test func theEmbeddedTypesAreAlwaysThere() throws {
        let bare = try ProtoSchema(files: [])
        #expect(bare.services.isEmpty)
        for name in [
            "google.protobuf.Timestamp", "google.protobuf.Any", "google.protobuf.FieldDescriptorProto",
            "google.rpc.Status", "google.rpc.BadRequest", "google.rpc.RetryInfo",
        ] {
            #expect(bare.hasMessage(name), "\(name)")
        }
        #expect(bare.describe("google.rpc.Code")?.contains("NOT_FOUND = 5;") == true)
        #expect(!bare.hasMessage("grpc.testing.SimpleRequest"))
    }

    @Test func aMissingDependencyIsNamed() {
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "a.proto"
        file.dependency = ["b.proto"]
        #expect(throws: ProtoSchemaError.missingDependency(file: "a.proto", dependency: "b.proto")) {
            try ProtoSchema(files: [file])
        }
    }

    @Test func anUnresolvedTypeIsNamedWithItsUser() {
        var field = Google_Protobuf_FieldDescriptorProto()
        field.name = "thing"
        field.number = 1
        field.type = .message
        field.typeName = ".pkg.Missing"
        var message = Google_Protobuf_DescriptorProto()
        message.name = "Holder"
        message.field = [field]
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "a.proto"
        file.package = "pkg"
        file.messageType = [message]
        #expect(throws: ProtoSchemaError.unresolvedType(typeName: ".pkg.Missing", usedBy: "pkg.Holder.thing")) {
            try ProtoSchema(files: [file])
        }
    }

    @Test func aTypeDefinedTwiceIsRefused() {
        var message = Google_Protobuf_DescriptorProto()
        message.name = "Twice"
        var first = Google_Protobuf_FileDescriptorProto()
        first.name = "a.proto"
        first.messageType = [message]
        var second = first
        second.name = "b.proto"
        #expect(throws: ProtoSchemaError.duplicate(name: "Twice")) { try ProtoSchema(files: [first, second]) }
        #expect(throws: ProtoSchemaError.self) { try ProtoSchema(descriptorSet: Data([0xFF, 0xFF])) }
    }

    @Test func relativeTypeNamesResolveFromTheInnermostScope() throws {
        var inner = Google_Protobuf_DescriptorProto()
        inner.name = "Inner"
        var field = Google_Protobuf_FieldDescriptorProto()
        field.name = "inner_value"
        field.number = 1
        field.typeName = "Inner"
        var outer = Google_Protobuf_DescriptorProto()
        outer.name = "Outer"
        outer.nestedType = [inner]
        outer.field = [field]
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "rel.proto"
        file.package = "rel"
        file.syntax = "proto3"
        file.messageType = [outer]
        let relative = try ProtoSchema(files: [file])
        let bytes = try relative.encode(["inner_value": [:]], as: "rel.Outer")
        #expect(bytes == [0x0A, 0x00])
        #expect(try relative.decode(bytes, as: "rel.Outer") == ["innerValue": [:]])
    }

    @Test func describePrintsProtoTextAsGrpcurlDoes() {
        #expect(
            schema.describe("grpc.testing.ReconnectService") == """
                service ReconnectService {
                  rpc Start ( .grpc.testing.ReconnectParams ) returns ( .grpc.testing.Empty );
                  rpc Stop ( .grpc.testing.Empty ) returns ( .grpc.testing.ReconnectInfo );
                }

                """
        )
        #expect(
            schema.describe("grpc.testing.TestService.FullDuplexCall")
                == "rpc FullDuplexCall ( stream .grpc.testing.StreamingOutputCallRequest ) returns "
                + "( stream .grpc.testing.StreamingOutputCallResponse );\n"
        )
        #expect(
            schema.describe("grpc.testing.LoadBalancerStatsResponse") == """
                message LoadBalancerStatsResponse {
                  map<string, int32> rpcs_by_peer = 1;
                  int32 num_failures = 2;
                  map<string, .grpc.testing.LoadBalancerStatsResponse.RpcsByPeer> rpcs_by_method = 3;
                  message RpcsByPeer {
                    map<string, int32> rpcs_by_peer = 1;
                  }
                }

                """
        )
        let choice = schema.describe("explorer.test.Choice") ?? ""
        #expect(choice.contains("  oneof kind {\n    string text = 1;\n"))
        #expect(choice.contains("  optional int32 maybe = 5;"))
        let legacy = schema.describe(".explorer.legacy.Legacy") ?? ""
        #expect(legacy.contains("required string id = 1;"))
        #expect(legacy.contains("optional int32 count = 2 [default = 7];"))
        #expect(legacy.contains("optional string label = 3 [default = \"none\"];"))
        #expect(schema.describe("grpc.testing.PayloadType") == "enum PayloadType {\n  COMPRESSABLE = 0;\n}\n")
        #expect(schema.describe("grpc.testing.Nothing") == nil)
    }

    @Test func nearNamesSuggestWhatWasMeant() {
        #expect(schema.nearNames("grpc.testing.SimpleRequets").first == "grpc.testing.SimpleRequest")
        #expect(schema.nearNames("grpc.testing.TestService/UnaryCal").first == "grpc.testing.TestService.UnaryCall")
        #expect(schema.nearNames("SimpleResponse").contains("grpc.testing.SimpleResponse"))
        #expect(schema.nearNames("grpc.testing.TestServic").first == "grpc.testing.TestService")
        #expect(schema.nearNames("completely.unrelated.Zebra").isEmpty)
        #expect(schema.nearNames("Empty").count <= 5)
    }

    @Test func skeletonHasEveryFieldAtItsZero() throws {
        let skeleton = schema.skeleton(of: "grpc.testing.SimpleRequest")
        #expect(
            skeleton == [
                "responseType": "COMPRESSABLE", "responseSize": 0, "payload": ["type": "COMPRESSABLE", "body": ""],
                "fillUsername": false, "fillOauthScope": false, "responseCompressed": ["value": false],
                "responseStatus": ["code": 0, "message": ""], "expectCompressed": ["value": false],
                "fillServerId": false, "fillGrpclbRouteType": false,
            ]
        )
        // The skeleton is a valid request.
        #expect(try schema.encode(skeleton, as: "grpc.testing.SimpleRequest").count > 0)
        let scalars = schema.skeleton(of: "explorer.test.Scalars")
        #expect(scalars["fInt64"] == "0")
        #expect(scalars["fEnum"] == "COLOR_UNSPECIFIED")
        let repeated = schema.skeleton(of: "explorer.test.Repeated")
        #expect(repeated["rMessage"] == [["name": "", "value": 0, "child": [:], "color": "COLOR_UNSPECIFIED"]])
        #expect(repeated["rTimestamp"] == ["1970-01-01T00:00:00Z"])
        let maps = schema.skeleton(of: "explorer.test.Maps")
        #expect(maps["stringMap"] == [:])
        let choice = schema.skeleton(of: "explorer.test.Choice")
        #expect(choice["text"] == "")
        #expect(choice["number"] == nil)
        // A message that holds itself stops after one level of itself.
        #expect(schema.skeleton(of: "explorer.test.Nested")["child"] == [:])
        let everything = schema.skeleton(of: "explorer.test.Everything")
        #expect(try schema.encode(everything, as: "explorer.test.Everything").count > 0)
        #expect(schema.skeleton(of: "no.Such") == [:])
    }
}
