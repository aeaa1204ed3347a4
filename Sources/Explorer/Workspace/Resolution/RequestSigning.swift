import Foundation
import NetworkingCore

/// What signs a resolved request as it is sent (`auth: aws_sigv4` and `auth: oauth1`): last,
/// after every other header and the body are final, by a request adapter the dispatcher runs
/// once per request (a redirect is not signed again: the origin rule leaves `Authorization`
/// and the signing headers behind on another origin).
package enum RequestSigning: Sendable, Hashable {
    /// AWS Signature Version 4 in the headers.
    case awsSigV4(AWSSignatureV4)
    /// OAuth 1.0a, its parameters where the settings say.
    case oauth1(OAuth1Signer)

    /// The adapter that signs.
    package var adapter: any RequestAdapter {
        switch self {
        case .awsSigV4(let signer): signer
        case .oauth1(let signer): signer
        }
    }

    /// The request signed as the dispatcher would sign it (for a preview or an export).
    ///
    /// - Throws: the signer's `Failure`.
    package func signed(_ request: PreparedRequest) throws -> PreparedRequest {
        switch self {
        case .awsSigV4(let signer): try signer.signed(request, payload: .data(request.body ?? Data()))
        case .oauth1(let signer): try signer.signed(request)
        }
    }

    /// A URL that carries its own signature, valid for `expires` seconds: AWS's query signing,
    /// or OAuth 1.0a with its parameters in the query.
    ///
    /// - Throws: the signer's `Failure`.
    package func presignedURL(for request: PreparedRequest, expires: Int) throws -> URL {
        switch self {
        case .awsSigV4(let signer):
            return try signer.presignedURL(for: request, expires: expires)
        case .oauth1(var signer):
            signer.placement = .query
            return try signer.signed(request).url
        }
    }
}

extension AWSSigV4Settings {
    /// Why credentials or a scope could not be found.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The settings with their templates expanded, credentials found (the keys given, else the
    /// profile, else the `AWS_*` variables and the default profile) and the region and service
    /// taken from the host when not given.
    ///
    /// - Parameters:
    ///   - expand: expands a template.
    ///   - host: the request's host, for the region and service.
    ///   - environment: the process environment (`AWS_*`, `HOME`).
    /// - Returns: the signer, and the secrets to mask.
    /// - Throws: what `expand` throws, or `Failure` naming what is missing.
    package func signer(
        expandingWith expand: (String) throws -> String, host: String?, environment: [String: String]
    ) throws -> (signer: AWSSignatureV4, secrets: [String]) {
        var expanded: [String: String] = [:]
        for (key, template) in values { expanded[key] = try expand(template).trimmingCharacters(in: .whitespaces) }
        func given(_ key: String) -> String? { expanded[key].flatMap { $0.isEmpty ? nil : $0 } }
        let files = AWSSharedFiles(environment: environment)
        var profileRegion: String?
        let credentials: AWSCredentials
        if let id = given("access_key_id"), let secret = given("secret_access_key") {
            credentials = AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: given("session_token"))
        } else if let profile = given("profile") {
            (credentials, profileRegion) = try files.credentials(profile: profile)
        } else if let id = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"],
            !id.isEmpty, !secret.isEmpty
        {
            credentials = AWSCredentials(
                accessKeyID: id, secretAccessKey: secret,
                sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
        } else {
            let profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
            do {
                (credentials, profileRegion) = try files.credentials(profile: profile)
            } catch let failure as Failure {
                throw Failure(
                    description:
                        "no credentials: write access_key_id and secret_access_key (or profile) in it, "
                        + "or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (\(failure.description))")
            }
        }
        let guessed = host.flatMap(AWSSignatureV4.scope(forHost:))
        let environmentRegion = [environment["AWS_REGION"], environment["AWS_DEFAULT_REGION"]].compactMap { $0 }.first {
            !$0.isEmpty
        }
        guard let region = given("region") ?? guessed?.region ?? profileRegion ?? environmentRegion else {
            throw Failure(
                description: "no region: write region: (us-east-1 …), the host \(host ?? "") is not *.amazonaws.com")
        }
        guard let service = given("service") ?? guessed?.service else {
            throw Failure(
                description:
                    "no service: write service: (s3, execute-api …), the host \(host ?? "") is not *.amazonaws.com")
        }
        let signer = AWSSignatureV4(
            credentials: credentials, region: region, service: service, normalizesPath: normalizePath,
            signsPayload: signPayload)
        return (signer, [credentials.secretAccessKey] + (credentials.sessionToken.map { [$0] } ?? []))
    }
}

/// The AWS CLI's shared files: `~/.aws/credentials` (`AWS_SHARED_CREDENTIALS_FILE`) with
/// `[NAME]` sections, and `~/.aws/config` (`AWS_CONFIG_FILE`) with `[profile NAME]` and
/// `[default]` sections; a profile's keys are taken from the credentials file first.
package struct AWSSharedFiles: Sendable {
    /// The credentials file.
    package var credentialsFile: URL
    /// The config file.
    package var configFile: URL

    /// The largest file read: these are a few lines.
    static let sizeLimit = 1 << 20

    /// The files the environment names, else those under `~/.aws`.
    package init(environment: [String: String]) {
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        func file(_ variable: String, _ name: String) -> URL {
            if let path = environment[variable], !path.isEmpty {
                return URL(fileURLWithPath: (path as NSString).expandingTildeInPath)
            }
            return home.appendingPathComponent(".aws/\(name)")
        }
        credentialsFile = file("AWS_SHARED_CREDENTIALS_FILE", "credentials")
        configFile = file("AWS_CONFIG_FILE", "config")
    }

    /// The sections of an INI file, by name, each a mapping of its keys (lowercased) to values.
    static func sections(of url: URL) -> [String: [String: String]] {
        guard let handle = try? FileHandle(forReadingFrom: url),
            let data = try? handle.read(upToCount: sizeLimit)
        else { return [:] }
        try? handle.close()
        var sections: [String: [String: String]] = [:]
        var current: String?
        for rawLine in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                current = name
                sections[name, default: [:]] = sections[name] ?? [:]
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current]?[key] = value
        }
        return sections
    }

    /// A profile's credentials and region.
    ///
    /// - Throws: `AWSSigV4Settings.Failure` naming the files read when the profile has no keys.
    package func credentials(profile: String) throws -> (AWSCredentials, region: String?) {
        let credentials = Self.sections(of: credentialsFile)[profile] ?? [:]
        let configSections = Self.sections(of: configFile)
        let config =
            (profile == "default" ? configSections["default"] : nil) ?? configSections["profile \(profile)"] ?? [:]
        func value(_ key: String) -> String? {
            (credentials[key] ?? config[key]).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let id = value("aws_access_key_id"), let secret = value("aws_secret_access_key") else {
            let other = ["role_arn", "credential_process", "sso_session", "sso_start_url"].filter { config[$0] != nil }
            let hint =
                other.isEmpty
                ? "" : "; its \(other.joined(separator: ", ")) is not supported: put the keys it gives in the profile"
            throw AWSSigV4Settings.Failure(
                description:
                    "the profile \"\(profile)\" has no aws_access_key_id and aws_secret_access_key in "
                    + "\(credentialsFile.path) or \(configFile.path)\(hint)")
        }
        return (
            AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: value("aws_session_token")),
            value("region")
        )
    }
}

extension OAuth1Settings {
    /// The settings with their templates expanded, as Networking's signer.
    ///
    /// - Returns: the signer, and the secrets to mask.
    /// - Throws: what `expand` throws.
    package func signer(expandingWith expand: (String) throws -> String) throws -> (
        signer: OAuth1Signer, secrets: [String]
    ) {
        var expanded: [String: String] = [:]
        for (key, template) in values { expanded[key] = try expand(template) }
        func given(_ key: String) -> String? { expanded[key].flatMap { $0.isEmpty ? nil : $0 } }
        let signer = OAuth1Signer(
            consumerKey: expanded["consumer_key"] ?? "", consumerSecret: expanded["consumer_secret"] ?? "",
            token: given("token"), tokenSecret: expanded["token_secret"] ?? "",
            method: given("signature_method").flatMap(OAuth1Signer.SignatureMethod.init(rawValue:)) ?? .hmacSHA1,
            privateKeyPEM: given("private_key"), realm: given("realm"),
            placement: given("in").flatMap(OAuth1Signer.Placement.init(rawValue:)) ?? .header,
            callback: given("callback"), verifier: given("verifier"), nonce: given("nonce"),
            timestamp: given("timestamp"))
        let secrets = Self.secretKeys.sorted().compactMap { given($0) }
        return (signer, secrets)
    }
}

extension ResolvedRequest {
    /// Why a request cannot be presigned.
    package struct PresignFailure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The request's URL signed in its query (`explorer send --presign SECONDS`): valid for
    /// `expires` seconds from the request's own `X-Amz-Date` or now.
    ///
    /// - Throws: `PresignFailure` when the endpoint's auth signs no URL (only `aws_sigv4` and
    ///   `oauth1` do) or the URL cannot be signed.
    package func presignedURL(expires: Int) throws -> URL {
        guard let signing else {
            throw PresignFailure(
                description:
                    "endpoint \"\(endpoint.id)\" has no aws_sigv4 or oauth1 auth: only a signed request can be presigned"
            )
        }
        guard let full = URL(string: url) else {
            throw PresignFailure(description: "\(url) is not a URL that can be signed")
        }
        do {
            return try signing.presignedURL(
                for: PreparedRequest(
                    method: request.method, url: full, headers: request.headers, body: request.httpBody),
                expires: expires)
        } catch {
            throw PresignFailure(description: "\(url) cannot be presigned: \(error)")
        }
    }
}
