import Foundation
import NetworkingCore
import Testing

@testable import Formats
@testable import Workspace

/// `explorer export grpcurl` writes a resolved gRPC endpoint as grpcurl's command line, and
/// `explorer import grpcurl` reads it back to the same endpoint.
@Suite struct GRPCurlExporterTests {
    let collectionFile = URL(fileURLWithPath: "/work/api/explorer.yaml")

    private func collection(_ yaml: String) throws -> APICollection {
        try CollectionLoader.parse(yaml, file: "explorer.yaml")
    }

    private let secured = """
        name: Secured
        protoset: schema/api.protoset
        environments:
          - name: prod
            base_url: grpcs://api.example.com:8443
            variables: { token: s3cr3t-token, user: "42" }
            secrets: [token]
            tls: { ca_cert: certs/ca.pem, client_cert: certs/client.pem, client_key: certs/client.key }
        endpoints:
          - name: Get user
            grpc: acme.v1.Users/GetUser
            metadata: { authorization: "Bearer {{token}}", x-note: "it's fine" }
            message: { id: "{{user}}", note: "a 'quoted' word" }
          - name: Upload
            grpc: acme.v1.Users/Upload
            messages: [{ chunk: "1" }, { chunk: "2" }]
          - name: Ping
            grpc: acme.v1.Users/Ping
          - name: Health
            method: GET
            path: /health
        """

    private func command(_ name: String, in collection: APICollection, reveal: Bool = false) throws -> String {
        let resolved = try RequestResolver().resolve(try collection.endpoint(named: name), in: collection)
        return try GRPCurlExporter.command(
            for: resolved, schema: collection.grpcSchema, collectionFile: collectionFile, revealSecrets: reveal)
    }

    @Test func aTLSCallWithMetadataAMessageAndAProtoset() throws {
        let loaded = try collection(secured)
        #expect(
            try command("Get user", in: loaded)
                == "grpcurl -cacert /work/api/certs/ca.pem -cert /work/api/certs/client.pem "
                + "-key /work/api/certs/client.key -H 'authorization: Bearer \(SecretMasker.mask)' "
                + #"-H 'x-note: it'\''s fine' -d '{"id":"42","note":"a '\''quoted'\'' word"}' "#
                + "-protoset /work/api/schema/api.protoset api.example.com:8443 acme.v1.Users/GetUser")
        let revealed = try command("Get user", in: loaded, reveal: true)
        #expect(revealed.contains("'authorization: Bearer s3cr3t-token'"))
    }

    @Test func aStreamSendsItsMessagesOneAfterAnotherAndAnEmptyMessageNeedsNoData() throws {
        let loaded = try collection(secured)
        #expect(try command("Upload", in: loaded).contains(#"-d '{"chunk":"1"} {"chunk":"2"}'"#))
        #expect(!(try command("Ping", in: loaded)).contains(" -d "))
    }

    @Test func plaintextAndProtoSources() throws {
        let loaded = try collection(
            """
            name: Local
            protos: { files: [protos/acme/users.proto, other/extra.proto], import_paths: [protos] }
            environments: [{ name: local, base_url: "grpc://localhost:50051" }]
            endpoints: [{ name: Ping, grpc: acme.v1.Users/Ping }]
            """)
        #expect(
            try command("Ping", in: loaded)
                == "grpcurl -plaintext -import-path /work/api/protos -import-path /work/api/other "
                + "-proto acme/users.proto -proto extra.proto localhost:50051 acme.v1.Users/Ping")
    }

    @Test func anHTTPEndpointIsNotACall() throws {
        let loaded = try collection(secured)
        let resolved = try RequestResolver().resolve(try loaded.endpoint(named: "Health"), in: loaded)
        #expect(throws: GRPCurlExportError.notGRPC(endpoint: "Health")) {
            try GRPCurlExporter.command(for: resolved, schema: loaded.grpcSchema, collectionFile: collectionFile)
        }
    }

    @Test func theShellReadsBackEveryWord() throws {
        let loaded = try collection(secured)
        let words = try ShellWords.split(try command("Get user", in: loaded, reveal: true))
        #expect(words.contains("x-note: it's fine"))
        #expect(words.contains(#"{"id":"42","note":"a 'quoted' word"}"#))
        #expect(words.suffix(2) == ["api.example.com:8443", "acme.v1.Users/GetUser"])
    }

    @Test func importingTheExportGivesTheSameEndpoints() throws {
        let loaded = try collection(secured)
        for name in ["Get user", "Upload", "Ping"] {
            let original = try loaded.endpoint(named: name)
            let exported = try command(name, in: loaded, reveal: true)
            let result = try GRPCurlImporter(baseDirectory: URL(fileURLWithPath: "/elsewhere"))
                .importCommand(exported, name: name)
            let back = try #require(result.collection.endpoints.first)
            let environment = try #require(result.collection.environments.first)
            #expect(environment.baseURLTemplate == "grpcs://api.example.com:8443")
            #expect(environment.tls == loaded.environments[0].tlsSettings(collectionFile: collectionFile))
            #expect(result.collection.grpcSchema.descriptorSet == "/work/api/schema/api.protoset")
            // The same call: method, messages, metadata and server resolve to what the original sends.
            let resolvedOriginal = try RequestResolver().resolve(original, in: loaded)
            let resolvedBack = try RequestResolver().resolve(back, in: result.collection)
            #expect(back.grpc?.method == original.grpc?.method)
            #expect(back.grpc?.writtenAsList == original.grpc?.writtenAsList)
            #expect(resolvedBack.grpcMessages == resolvedOriginal.grpcMessages)
            #expect(resolvedBack.url == resolvedOriginal.url)
            #expect(
                Array(resolvedBack.request.headers.map { "\($0.name.lowercased()): \($0.value)" })
                    == Array(resolvedOriginal.request.headers.map { "\($0.name.lowercased()): \($0.value)" }))
            // And it exports to the same command.
            let again = try RequestResolver().resolve(back, in: result.collection)
            #expect(
                try GRPCurlExporter.command(
                    for: again, schema: result.collection.grpcSchema, collectionFile: nil, revealSecrets: true)
                    == exported)
            _ = try writtenAndReadBack(result.collection)
        }
    }
}
