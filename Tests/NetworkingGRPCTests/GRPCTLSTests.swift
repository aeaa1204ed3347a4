import Foundation
import NetworkingCore
import NetworkingGRPC
import Testing

/// `grpcs://` with the HTTP dispatcher's `TLSSettings`, against a server whose CA a test made.
@Suite struct GRPCTLSTests {
    @Test func aServerSignedByTheGivenCAAnswersOverTLS() async throws {
        let authority = try TestCertificateAuthority()
        let caFile = try authority.writePEM()
        try await withTestServer(security: try authority.serverSecurity()) { port, _ in
            let client = TestClient(port: port, scheme: "grpcs", tls: TLSSettings(caCertificateFile: caFile))
            // The certificate is for localhost: the authority names it (and TLS checks that name).
            let response = try await client.dispatcher.unary(
                "/test.Test/Echo", stringValue("secure"), options: GRPCCallOptions(authority: "localhost:\(port)"),
                as: StringValue.self)
            #expect(response.message?.value == "A: secure")
            await client.dispatcher.shutdown()

            let insecure = TestClient(port: port, scheme: "grpcs", tls: TLSSettings(insecure: true))
            let unchecked = try await insecure.dispatcher.unary(
                "/test.Test/Echo", stringValue("x"), as: StringValue.self)
            #expect(unchecked.message?.value == "A: x")
            await insecure.dispatcher.shutdown()
        }
    }

    @Test func anUntrustedCertificateIsATLSFailureNamingTheSettings() async throws {
        let authority = try TestCertificateAuthority()
        try await withTestServer(security: try authority.serverSecurity()) { port, _ in
            let client = TestClient(port: port, scheme: "grpcs")
            let error = await #expect(throws: TransportError.self) {
                _ = try await client.dispatcher.unary(
                    "/test.Test/Echo", stringValue("x"), options: GRPCCallOptions(authority: "localhost"),
                    as: StringValue.self)
            }
            #expect(error == .tlsFailure(host: "127.0.0.1", reason: .untrustedCertificate))
            #expect(error?.description.contains("TLSSettings.caCertificateFile") == true)
            await client.dispatcher.shutdown()
        }
    }

    @Test func plaintextToATLSServerSaysItIsNotHTTP2() async throws {
        let authority = try TestCertificateAuthority()
        try await withTestServer(security: try authority.serverSecurity()) { port, _ in
            let client = TestClient(port: port, scheme: "grpc")
            let error = await #expect(throws: TransportError.self) {
                _ = try await client.dispatcher.unary("/test.Test/Echo", stringValue("x"), as: StringValue.self)
            }
            #expect(error?.description.contains("did not answer HTTP/2") == true)
            #expect(error?.description.contains("grpcs://") == true)
            await client.dispatcher.shutdown()
        }
    }

    @Test func tlsToAPlaintextServerIsNotTLS() async throws {
        try await withTestServer { port, _ in
            let client = TestClient(port: port, scheme: "grpcs", tls: TLSSettings(insecure: true))
            let error = await #expect(throws: TransportError.self) {
                _ = try await client.dispatcher.unary("/test.Test/Echo", stringValue("x"), as: StringValue.self)
            }
            guard case .tlsFailure(let host, _)? = error else {
                Issue.record("not a TLS failure: \(String(describing: error))")
                return
            }
            #expect(host == "127.0.0.1")
            await client.dispatcher.shutdown()
        }
    }
}
