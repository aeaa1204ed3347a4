import Foundation
import NetworkingCore
import Testing

@testable import Workspace

/// `auth: aws_sigv4` and `auth: oauth1`: read with errors at their line, written back,
/// resolved into the signer the dispatcher runs last (credentials from the keys, a profile of
/// the AWS CLI's files or the `AWS_*` variables; region and service from the host), their
/// secrets masked, and what they read outside the collection counted in its reach.
@Suite struct SigningAuthTests {
    let yaml = """
        name: signing
        environments:
          - name: aws
            base_url: https://sqs.eu-west-2.amazonaws.com
          - name: local
            base_url: http://127.0.0.1:9
        endpoints:
          - name: Queue
            path: /
            auth:
              type: aws_sigv4
              access_key_id: AKIDEXAMPLE
              secret_access_key: "{{aws_secret}}"
              session_token: "{{aws_token}}"
          - name: Bucket
            path: /bucket/key
            auth: { type: aws_sigv4, access_key_id: AKID, secret_access_key: s3cr3t, region: us-east-1, service: s3, normalize_path: false, sign_payload: true }
          - name: Profile
            path: /
            auth: { type: aws_sigv4, profile: work, service: execute-api }
          - name: Keyless
            path: /
            auth: { type: aws_sigv4, region: us-east-1, service: execute-api }
          - name: Tweet
            method: POST
            path: /statuses
            form: { status: hello }
            auth:
              type: oauth1
              consumer_key: ck
              consumer_secret: "{{consumer_secret}}"
              token: tk
              token_secret: ts-secret
              signature_method: HMAC-SHA256
              realm: Example
              in: body
              nonce: fixed
              timestamp: "1318622958"
        variables:
          aws_secret: wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY
          aws_token: session-token-value
          consumer_secret: consumer-secret-value
        """

    func resolve(_ name: String, environment: String = "aws", process: [String: String] = [:]) throws
        -> ResolvedRequest
    {
        let collection = try CollectionLoader.parse(yaml, file: "signing.yaml")
        return try RequestResolver(processEnvironment: process).resolve(
            try collection.endpoint(named: name), in: collection,
            environment: collection.environment(named: environment))
    }

    // MARK: - Reading and writing

    @Test func bothTypesAreReadWithTheirKeys() throws {
        let collection = try CollectionLoader.parse(yaml, file: "signing.yaml")
        guard case .awsSigV4(let bucket)? = try collection.endpoint(named: "Bucket").auth?.scheme else {
            Issue.record("Bucket has no aws_sigv4 auth")
            return
        }
        #expect(bucket.values["service"] == "s3" && bucket.normalizePath == false && bucket.signPayload == true)
        guard case .oauth1(let tweet)? = try collection.endpoint(named: "Tweet").auth?.scheme else {
            Issue.record("Tweet has no oauth1 auth")
            return
        }
        #expect(tweet.values["signature_method"] == "HMAC-SHA256" && tweet.values["in"] == "body")
        #expect(collection.warnings.isEmpty)
    }

    @Test func bothTypesAreWrittenBackAsWritten() throws {
        let collection = try CollectionLoader.parse(yaml, file: "signing.yaml")
        let written = try CollectionWriter.yaml(for: collection)
        #expect(try CollectionLoader.parse(written, file: "again.yaml") == collection)
        #expect(written.contains("type: aws_sigv4") && written.contains("type: oauth1"))
        #expect(written.contains("normalize_path: false") && written.contains("sign_payload: true"))
    }

    @Test(arguments: [
        ("auth: { type: aws_sigv4, access_key_id: k }", "has no \"secret_access_key\""),
        ("auth: { type: aws_sigv4, secret_access_key: s }", "has no \"access_key_id\""),
        ("auth: { type: aws_sigv4, profile: p, sign_payload: maybe }", "true or false"),
        ("auth: { type: aws_sigv4, profil: p }", ""),
        ("auth: { type: oauth1, consumer_secret: s }", "has no \"consumer_key\""),
        ("auth: { type: oauth1, consumer_key: k, signature_method: HMAC-SHA-1 }", "did you mean \"HMAC-SHA1\"?"),
        ("auth: { type: oauth1, consumer_key: k, signature_method: RSA-SHA256 }", "has no \"private_key\""),
        ("auth: { type: oauth1, consumer_key: k, in: cookie }", "header, query or body (not \"cookie\")"),
        ("auth: { type: aws_sig4 }", "did you mean \"aws_sigv4\"?"),
    ])
    func malformedSigningAuthIsAnErrorAtItsLine(line: String, message: String) throws {
        let text = """
            name: bad
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: p
                \(line)
                path: /
            """
        if message.isEmpty {
            // An unknown key is a warning, as for every auth.
            let collection = try CollectionLoader.parse(text, file: "auth.yaml")
            #expect(collection.warnings.map(\.message).contains { $0.contains("unknown key \"profil\"") })
            return
        }
        #expect {
            try CollectionLoader.parse(text, file: "auth.yaml")
        } throws: { error in
            let sentence = String(describing: error)
            return sentence.hasPrefix("auth.yaml:5:") && sentence.contains(message)
        }
    }

    // MARK: - Resolution

    @Test func anAmazonawsHostGivesTheRegionAndServiceAndTheSecretsAreMasked() throws {
        let resolved = try resolve("Queue")
        guard case .awsSigV4(let signer)? = resolved.signing else {
            Issue.record("no AWS signer")
            return
        }
        #expect(signer.region == "eu-west-2" && signer.service == "sqs")
        #expect(signer.credentials.sessionToken == "session-token-value")
        #expect(signer.normalizesPath && !signer.signsPayload)
        // Signing happens as it is sent, so the resolved headers carry no Authorization yet.
        #expect(resolved.request.headers["Authorization"] == nil)
        let masked = resolved.masker.mask("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY and session-token-value")
        #expect(!masked.contains("EXAMPLEKEY") && !masked.contains("session-token-value"))
    }

    @Test func s3DefaultsAndExplicitSettingsReachTheSigner() throws {
        let resolved = try resolve("Bucket", environment: "local")
        guard case .awsSigV4(let signer)? = resolved.signing else {
            Issue.record("no AWS signer")
            return
        }
        #expect(signer.service == "s3" && !signer.normalizesPath && signer.signsPayload && !signer.encodesPathTwice)
    }

    @Test func aProfileIsReadFromTheSharedFilesTheEnvironmentNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let credentials = folder.appendingPathComponent("credentials")
        let config = folder.appendingPathComponent("config")
        try
            "[default]\naws_access_key_id = DEFAULTKEY\naws_secret_access_key = default-secret\n\n[work]\n# a comment\naws_access_key_id=WORKKEY\naws_secret_access_key = work-secret\naws_session_token = work-token\n"
            .write(to: credentials, atomically: true, encoding: .utf8)
        try "[profile work]\nregion = ap-south-1\n[default]\nregion = us-west-1\n".write(
            to: config, atomically: true, encoding: .utf8)
        let process = ["AWS_SHARED_CREDENTIALS_FILE": credentials.path, "AWS_CONFIG_FILE": config.path]

        let work = try resolve("Profile", environment: "local", process: process)
        guard case .awsSigV4(let signer)? = work.signing else {
            Issue.record("no AWS signer")
            return
        }
        #expect(
            signer.credentials
                == AWSCredentials(accessKeyID: "WORKKEY", secretAccessKey: "work-secret", sessionToken: "work-token"))
        #expect(signer.region == "ap-south-1" && signer.service == "execute-api")
        #expect(!work.masker.mask("work-secret work-token").contains("work-"))

        // Neither keys nor a profile: the AWS_* variables, else AWS_PROFILE's (or the default) profile.
        let fromVariables = try resolve(
            "Keyless", environment: "local",
            process: process.merging(["AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "env-secret"]) { $1 })
        #expect(
            fromVariables.signing.map { if case .awsSigV4(let s) = $0 { s.credentials.accessKeyID } else { "" } }
                == "ENVKEY")
        let fromDefault = try resolve("Keyless", environment: "local", process: process)
        #expect(
            fromDefault.signing.map { if case .awsSigV4(let s) = $0 { s.credentials.accessKeyID } else { "" } }
                == "DEFAULTKEY")
    }

    @Test func missingCredentialsOrScopeAreErrorsSayingWhatToWrite() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-aws-\(UUID().uuidString)").path
        let process = ["AWS_SHARED_CREDENTIALS_FILE": empty + "/credentials", "AWS_CONFIG_FILE": empty + "/config"]
        #expect {
            try resolve("Profile", environment: "local", process: process)
        } throws: { error in
            let sentence = String(describing: error)
            return sentence.contains("the profile \"work\" has no aws_access_key_id")
                && sentence.contains("signing.yaml:")
        }
        #expect {
            try resolve("Keyless", environment: "local", process: process)
        } throws: { error in
            String(describing: error).contains("no credentials: write access_key_id and secret_access_key")
        }
        let collection = try CollectionLoader.parse(
            """
            name: n
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: p
                path: /
                auth: { type: aws_sigv4, access_key_id: k, secret_access_key: s }
            """, file: "n.yaml")
        #expect {
            try RequestResolver(processEnvironment: [:]).resolve(try collection.endpoint(named: "p"), in: collection)
        } throws: { error in
            String(describing: error).contains("no region: write region:")
        }
    }

    @Test func oauth1SettingsReachTheSignerAndTheDispatcherSignsLast() throws {
        let resolved = try resolve("Tweet", environment: "local")
        guard case .oauth1(let signer)? = resolved.signing else {
            Issue.record("no OAuth 1.0a signer")
            return
        }
        #expect(signer.method == .hmacSHA256 && signer.placement == .body && signer.realm == "Example")
        #expect(signer.nonce == "fixed" && signer.timestamp == "1318622958")
        let masked = resolved.masker.mask("consumer-secret-value ts-secret")
        #expect(!masked.contains("consumer-secret-value") && !masked.contains("ts-secret"))
        let dispatcher = resolved.dispatcher(transport: AsyncHTTPClientTransport.shared, prompt: { _ in })
        #expect(dispatcher.requestAdapters.last is OAuth1Signer)
    }

    @Test func anEndpointsOwnAuthorizationHeaderWinsOverAnInheritedSigner() throws {
        let collection = try CollectionLoader.parse(
            """
            name: n
            auth: { type: oauth1, consumer_key: k, consumer_secret: s }
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: own
                path: /
                headers: { Authorization: Bearer mine }
            """, file: "n.yaml")
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            try collection.endpoint(named: "own"), in: collection)
        #expect(resolved.signing == nil)
        #expect(resolved.request.headers["Authorization"] == "Bearer mine")
    }

    // MARK: - Secrets and reach

    @Test func theVariablesASignerReadsAreSecretsOfAnExport() throws {
        let collection = try CollectionLoader.parse(yaml, file: "signing.yaml")
        let secrets = collection.secretVariableNames(in: collection.environments.first)
        #expect(secrets.isSuperset(of: ["aws_secret", "aws_token", "consumer_secret"]))
    }

    @Test func aProfileOrKeylessAuthReachesTheSharedFilesAndTheVariables() throws {
        let folder = FileManager.default.temporaryDirectory
        let collection = try CollectionLoader.parse(yaml, file: "signing.yaml")
        let reach = CollectionReach(collection, folder: folder)
        #expect(reach.references.contains(.environmentVariable("AWS_ACCESS_KEY_ID")))
        #expect(reach.files.contains { $0.hasSuffix("credentials") })
        let keysOnly = try CollectionLoader.parse(
            """
            name: k
            environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
            endpoints:
              - name: p
                path: /
                auth: { type: aws_sigv4, access_key_id: k, secret_access_key: s, region: r, service: s }
            """, file: "k.yaml")
        #expect(CollectionReach(keysOnly, folder: folder).isEmpty)
    }

    @Test func aFoldersKeylessSigningReachesAsItsEndpointsInheritIt() throws {
        let folder = FileManager.default.temporaryDirectory
        func reach(endpointAuth: String) throws -> CollectionReach {
            let collection = try CollectionLoader.parse(
                """
                name: f
                environments: [{ name: e, base_url: "http://127.0.0.1:9" }]
                endpoints:
                  - folder: AWS
                    auth: { type: aws_sigv4, profile: work, region: r, service: s }
                    endpoints:
                      - folder: Deeper
                        endpoints:
                          - name: p
                            path: /
                """ + endpointAuth, file: "f.yaml")
            return CollectionReach(collection, folder: folder)
        }
        // Two folders down, the endpoint signs with the folder's profile: the shared files.
        let inherited = try reach(endpointAuth: "")
        #expect(inherited.files.contains { $0.hasSuffix("credentials") })
        #expect(!inherited.references.contains(.environmentVariable("AWS_ACCESS_KEY_ID")), "a profile names no AWS_*")
        // Its own keys replace the folder's auth, which then signs nothing.
        let own = try reach(
            endpointAuth:
                "\n            auth: { type: aws_sigv4, access_key_id: k, secret_access_key: s, region: r, service: s }"
        )
        #expect(own.isEmpty)
    }
}
