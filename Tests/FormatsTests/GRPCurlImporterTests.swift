import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// `explorer import grpcurl` reads grpcurl's command line as grpcurl does (Go's flag package:
/// `-flag`/`--flag`, `-flag value`/`-flag=value`, flags before the address and the method).
/// The command lines marked "README" are grpcurl's own examples (fullstorydev/grpcurl,
/// README.md at commit afea969).
@Suite struct GRPCurlImporterTests {
    let folder = URL(fileURLWithPath: "/work/api")

    private func imported(_ command: String) throws -> ImportResult {
        try GRPCurlImporter(baseDirectory: folder).importCommand(command)
    }

    private func onlyEndpoint(_ result: ImportResult) throws -> (Endpoint, GRPCSettings) {
        #expect(result.collection.endpoints.count == 1)
        let endpoint = try #require(result.collection.endpoints.first)
        return (endpoint, try #require(endpoint.grpc))
    }

    // MARK: - grpcurl's README

    @Test func aTLSCallWithoutFlagsGoesToAGRPCSServer() throws {
        // README: "This minimal invocation sends an empty request body".
        let result = try imported("grpcurl grpc.server.com:443 my.custom.server.Service/Method")
        let (endpoint, settings) = try onlyEndpoint(result)
        #expect(result.collection.environments.map(\.baseURLTemplate) == ["grpcs://grpc.server.com:443"])
        #expect(result.collection.environments.first?.tls == nil)
        #expect(settings == GRPCSettings(method: "my.custom.server.Service/Method"))
        #expect(endpoint.name == "Service/Method")
        #expect(endpoint.headers.isEmpty)
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        _ = try writtenAndReadBack(result.collection)
    }

    @Test func plaintextGoesToAGRPCServer() throws {
        // README: "# no TLS".
        let result = try imported("grpcurl -plaintext grpc.server.com:80 my.custom.server.Service/Method")
        #expect(result.collection.environments.map(\.baseURLTemplate) == ["grpc://grpc.server.com:80"])
        #expect(result.warnings.isEmpty, "\(result.warnings)")
    }

    @Test func dataBecomesTheMessage() throws {
        // README: "To send a non-empty request, use the -d argument", across a continued line.
        let result = try imported(
            """
            grpcurl -d '{"id": 1234, "tags": ["foo","bar"]}' \\
                grpc.server.com:443 my.custom.server.Service/Method
            """)
        let (_, settings) = try onlyEndpoint(result)
        #expect(settings.messages == [["id": 1234, "tags": ["foo", "bar"]]])
        #expect(!settings.writtenAsList)
        _ = try writtenAndReadBack(result.collection)
    }

    @Test func dataFromStandardInputIsReadFromTheHeredocOnly() throws {
        // README: "-d @, which tells grpcurl to read the actual request body from stdin".
        let heredoc = try imported(
            """
            grpcurl -d @ grpc.server.com:443 my.custom.server.Service/Method <<EOM
            {
              "id": 1234,
              "tags": [
                "foor",
                "bar"
              ]
            }
            EOM
            """)
        #expect(try onlyEndpoint(heredoc).1.messages == [["id": 1234, "tags": ["foor", "bar"]]])

        let piped = try imported("jq -c . body.json | grpcurl -d @ grpc.server.com:443 my.custom.server.Service/Method")
        #expect(try onlyEndpoint(piped).1.messages == [.object([])])
        #expect(
            piped.warnings.contains { $0.contains("-d @") && $0.contains("cannot be imported") }, "\(piped.warnings)")
    }

    @Test func headersBecomeMetadata() throws {
        // README: "Adding Headers/Metadata to Request".
        let result = try imported(
            """
            grpcurl -H header1:value1 -H header2:value2 -d '{"id": 1234, "tags": ["foo","bar"]}' grpc.server.com:443 my.custom.server.Service/Method
            """)
        let (endpoint, settings) = try onlyEndpoint(result)
        #expect(endpoint.headers == [KeyValue("header1", "value1"), KeyValue("header2", "value2")])
        #expect(settings.messages.count == 1)
    }

    @Test(arguments: [
        "grpcurl localhost:8787 list",
        "grpcurl -protoset my-protos.bin list",
        "grpcurl -import-path ../protos -proto my-stuff.proto list",
        #"grpcurl -plaintext -proto-out-dir "out_protos" "localhost:8787" describe my.custom.server.Service"#,
        #"grpcurl -plaintext -protoset-out "out.protoset" "localhost:8787" describe my.custom.server.Service"#,
        "grpcurl localhost:8787 list my.custom.server.Service",
        "grpcurl localhost:8787 describe my.custom.server.Service.MethodOne",
        "grpcurl -protoset my-protos.bin describe my.custom.server.Service.MethodOne",
        "grpcurl -import-path ../protos -proto my-stuff.proto describe my.custom.server.Service.MethodOne",
        "docker run fullstorydev/grpcurl api.grpc.me:443 list",
    ])
    func listAndDescribeAreRefusedAsNotCalls(_ command: String) throws {
        let error = try #require(throws: GRPCurlImportError.self) { try imported(command) }
        #expect(error.description.contains("not a call"), "\(error)")
        #expect(error.description.contains("explorer grpc"), "\(error)")
    }

    // MARK: - Flags

    @Test func protosetAndProtoSourcesBecomeTheCollectionsSchema() throws {
        let protoset = try imported(
            "grpcurl -protoset my-protos.bin grpc.server.com:443 my.custom.server.Service/Method")
        #expect(protoset.collection.grpcSchema == GRPCSchemaFiles(descriptorSet: "/work/api/my-protos.bin"))

        // A -proto file is found in the import paths, as grpcurl finds it.
        let sources = try imported(
            "grpcurl -import-path ../protos -proto my-stuff.proto grpc.server.com:443 my.custom.server.Service.MethodOne"
        )
        #expect(
            sources.collection.grpcSchema
                == GRPCSchemaFiles(protoFiles: ["/work/protos/my-stuff.proto"], importPaths: ["/work/protos"]))
        #expect(try onlyEndpoint(sources).1.method == "my.custom.server.Service/MethodOne")
        _ = try writtenAndReadBack(sources.collection)
    }

    @Test func tlsFlagsBecomeTheEnvironmentsTLS() throws {
        let result = try imported(
            "grpcurl -cacert certs/ca.pem -cert certs/client.pem -key certs/client.key api.example.com:8443 a.B/C")
        let tls = try #require(result.collection.environments.first?.tls)
        #expect(
            tls
                == TLSSettings(
                    caCertificateFile: "/work/api/certs/ca.pem", clientCertificateFile: "/work/api/certs/client.pem",
                    clientKeyFile: "/work/api/certs/client.key"))
        #expect(result.collection.environments.first?.baseURLTemplate == "grpcs://api.example.com:8443")
        #expect(result.warnings.filter { $0.contains("does not exist") }.count == 3)

        let insecure = try imported("grpcurl -insecure localhost:8443 a.B/C")
        #expect(insecure.collection.environments.first?.tls?.insecure == true)
        _ = try writtenAndReadBack(insecure.collection)
    }

    @Test func whatGrpcurlRefusesIsRefused() throws {
        for command in [
            "grpcurl -plaintext -insecure localhost:80 a.B/C",  // TLS flags without TLS
            "grpcurl -cert client.pem localhost:443 a.B/C",  // -cert without -key
            "grpcurl localhost:443 a.B/C -plaintext",  // a flag after the method is a word too many
            "grpcurl -d '{\"a\": 1' localhost:443 a.B/C",  // not JSON
            "grpcurl -plaintext=maybe localhost:80 a.B/C",  // not a Go boolean
            "grpcurl -d",  // a flag without its value
            "grpcurl localhost:443",  // no method
            "grpcurl localhost:443 NotAMethod",
        ] {
            #expect(throws: GRPCurlImportError.self, "\(command)") { try imported(command) }
        }
    }

    @Test func doubleDashesAndEqualsAreFlagsToo() throws {
        let result = try imported(
            #"grpcurl --plaintext=true --d='{"a":1}' --rpc-header='x-request-id: 7' -H=trace:on localhost:50051 a.B/C"#)
        let (endpoint, settings) = try onlyEndpoint(result)
        #expect(result.collection.environments.first?.baseURLTemplate == "grpc://localhost:50051")
        #expect(settings.messages == [["a": 1]])
        // In the order written, names lower-cased and values trimmed as grpcurl sends them.
        #expect(endpoint.headers == [KeyValue("x-request-id", "7"), KeyValue("trace", "on")])
    }

    @Test func severalMessagesAreAStream() throws {
        let result = try imported(
            #"grpcurl -plaintext -d '{"text":"hi"} {"text":"bye"}' localhost:9000 chat.Room/Talk"#)
        let settings = try onlyEndpoint(result).1
        #expect(settings.messages == [["text": "hi"], ["text": "bye"]])
        #expect(settings.writtenAsList)
        _ = try writtenAndReadBack(result.collection)
    }

    @Test func credentialsInMetadataGoIntoSecretVariables() throws {
        let result = try imported(
            """
            grpcurl -H 'Authorization: Bearer abc.def' -H 'x-api-key: k-123' -H 'x-tenant: acme' api.example.com:443 a.B/C
            grpcurl -H 'authorization: Bearer abc.def' -H "x-api-key: $API_KEY" api.example.com:443 a.B/D
            """)
        let environment = try #require(result.collection.environments.first)
        #expect(environment.variables == [KeyValue("token", "abc.def"), KeyValue("x_api_key", "k-123")])
        #expect(environment.secrets == ["token", "x_api_key"])
        let endpoints = result.collection.endpoints
        #expect(
            endpoints[0].headers
                == [
                    KeyValue("authorization", "Bearer {{token}}"), KeyValue("x-api-key", "{{x_api_key}}"),
                    KeyValue("x-tenant", "acme"),
                ])
        // The same token is the same variable; a shell variable stays the environment's.
        #expect(
            endpoints[1].headers
                == [KeyValue("authorization", "Bearer {{token}}"), KeyValue("x-api-key", "{{env.API_KEY}}")])
        // Resolved, the call sends the token, and the screen masks it.
        let resolved = try RequestResolver().resolve(endpoints[0], in: result.collection)
        #expect(resolved.request.headers["authorization"] == "Bearer abc.def")
        #expect(!resolved.masked.headers.description.contains("abc.def"))
        _ = try writtenAndReadBack(result.collection)
    }

    @Test func expandHeadersReadsTheEnvironment() throws {
        let result = try imported("grpcurl -expand-headers -H 'x-user: ${USER_ID}' localhost:443 a.B/C")
        #expect(try onlyEndpoint(result).0.headers == [KeyValue("x-user", "{{env.USER_ID}}")])
    }

    @Test func reflectionHeadersAreLeftOutAndSaidSo() throws {
        let result = try imported("grpcurl -reflect-header 'x-reflect: 1' -rpc-header 'x-rpc: 2' localhost:443 a.B/C")
        #expect(try onlyEndpoint(result).0.headers == [KeyValue("x-rpc", "2")])
        #expect(result.warnings.contains { $0.contains("-reflect-header x-reflect") }, "\(result.warnings)")
    }

    @Test func flagsACollectionDoesNotKeepAreNamed() throws {
        let result = try imported(
            "grpcurl -v -format json -emit-defaults -connect-timeout 2 -max-time 5 -max-msg-sz 1048576 "
                + "-authority api.internal localhost:443 a.B/C")
        #expect(result.warnings.contains { $0.contains("-max-time 5") && $0.contains("--max-time") })
        #expect(result.warnings.contains { $0.contains("-max-msg-sz 1048576") && $0.contains("--max-message-size") })
        #expect(result.warnings.contains { $0.contains("-authority api.internal") && $0.contains("--authority") })
        let ignored = try #require(result.warnings.first { $0.hasPrefix("Ignored") })
        for flag in ["-v", "-format", "-emit-defaults", "-connect-timeout"] {
            #expect(ignored.contains(flag), "\(ignored)")
        }
    }

    @Test func anUnknownFlagIsNamedAndTheRestImported() throws {
        let result = try imported("grpcurl -frobnicate -plaintext localhost:80 a.B/C")
        #expect(result.warnings.contains { $0.contains("-frobnicate") }, "\(result.warnings)")
        #expect(result.collection.environments.first?.baseURLTemplate == "grpc://localhost:80")

        // Its value, when the call would otherwise have a word too many.
        let valued = try imported("grpcurl -frobnicate 3 localhost:80 a.B/C")
        #expect(try onlyEndpoint(valued).1.method == "a.B/C")
        #expect(valued.warnings.contains { $0.contains("\"3\"") }, "\(valued.warnings)")
    }

    @Test func severalCommandsToSeveralServers() throws {
        let result = try imported(
            """
            $ grpcurl -plaintext localhost:50051 a.B/C
            echo done
            grpcurl -plaintext other:50052 a.B/C
            """)
        let endpoints = result.collection.endpoints
        #expect(endpoints.map(\.name) == ["B/C", "B/C (2)"])
        #expect(endpoints[0].grpc?.server == nil)
        #expect(endpoints[1].grpc?.server == "grpc://other:50052")
        #expect(endpoints[1].path == "grpc://other:50052/a.B/C")
        #expect(result.warnings.contains { $0.contains("not grpcurl") && $0.contains("echo") })
        _ = try writtenAndReadBack(result.collection)
    }

    @Test func anotherProgramIsNotImported() throws {
        #expect(throws: GRPCurlImportError.self) { try imported("curl https://example.com") }
    }
}
