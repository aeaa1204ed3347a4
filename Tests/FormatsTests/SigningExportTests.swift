import Foundation
import Testing
import Workspace

@testable import Formats

/// `auth: aws_sigv4` and `auth: oauth1` in the exports: Postman's `awsv4` and `oauth1`, Hurl's
/// `aws-sigv4` option, and a comment where a format cannot sign.
@Suite struct SigningExportTests {
    let collection: APICollection

    init() throws {
        collection = try CollectionLoader.parse(
            """
            name: signed
            environments: [{ name: e, base_url: "https://sqs.eu-west-2.amazonaws.com" }]
            endpoints:
              - name: Queue
                path: /
                retry: { count: 2, interval: 1 }
                auth: { type: aws_sigv4, access_key_id: AKID, secret_access_key: "{{secret}}", session_token: tok, region: eu-west-2, service: sqs }
              - name: Profile
                path: /
                auth: { type: aws_sigv4, profile: work }
              - name: Tweet
                path: /t
                auth: { type: oauth1, consumer_key: ck, consumer_secret: cs, signature_method: HMAC-SHA256, in: query }
            """, file: "signed.yaml")
    }

    @Test func postmanWritesAwsv4AndOauth1() throws {
        let json = PostmanExporter.json(for: collection, environment: collection.environments.first)
        #expect(json.contains("\"awsv4\"") && json.contains("\"accessKey\"") && json.contains("\"sessionToken\""))
        #expect(json.contains("\"oauth1\"") && json.contains("\"consumerKey\"") && json.contains("HMAC-SHA256"))
        #expect(json.contains("\"addParamsToHeader\""))
    }

    @Test func hurlSignsWithItsAwsSigv4OptionInTheOneOptionsSection() throws {
        let text = HurlExporter.text(
            for: [try collection.endpoint(named: "Queue")], in: collection, environment: collection.environments.first)
        #expect(
            text.contains(
                "[Options]\nretry: 2\nretry-interval: 1\naws-sigv4: aws:amz:eu-west-2:sqs\nuser: AKID:{{secret}}\n"))
        #expect(text.components(separatedBy: "[Options]").count == 2)
        #expect(text.contains("X-Amz-Security-Token: tok"))
        let others = HurlExporter.text(
            for: [try collection.endpoint(named: "Profile"), try collection.endpoint(named: "Tweet")], in: collection,
            environment: collection.environments.first)
        #expect(others.contains("# auth: aws_sigv4 with a profile"))
        #expect(others.contains("# auth: oauth1 is not exported"))
    }

    @Test func curlSignsWithItsAwsSigv4OptionAndMasksTheSecret() throws {
        let resolved = try RequestResolver(processEnvironment: [:]).resolve(
            try collection.endpoint(named: "Queue"), in: collection, overrides: ["secret": "s3cr3t-value"])
        let masked = CurlExporter.command(for: resolved)
        #expect(masked.contains("--aws-sigv4 aws:amz:eu-west-2:sqs"))
        #expect(masked.contains("--user 'AKID:\(SecretMasker.mask)'") || masked.contains("--user AKID:"))
        #expect(!masked.contains("s3cr3t-value"))
        #expect(CurlExporter.command(for: resolved, revealSecrets: true).contains("AKID:s3cr3t-value"))
    }

    @Test func httpFilesSayTheyCannotSign() {
        let text = HTTPFileExporter.text(for: collection, environment: collection.environments.first)
        #expect(text.contains("# auth: aws_sigv4 is not exported"))
        #expect(text.contains("# auth: oauth1 is not exported"))
    }
}
