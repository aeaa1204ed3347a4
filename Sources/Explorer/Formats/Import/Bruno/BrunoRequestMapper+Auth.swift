import Foundation
import NetworkingCore
import Workspace

extension BrunoRequestMapper {
    /// A Bruno `auth` (`mode` and the mode's values) as an `auth:`.
    ///
    /// - Parameters:
    ///   - owner: the request, folder or collection, for the report.
    ///   - turnsOff: whether `none` must be written (a folder or the collection around has auth).
    /// - Returns: `nil` to inherit (`inherit`, `none` with nothing to turn off, or a kind that
    ///   cannot be sent as it is, reported; nothing weaker is sent in its place).
    mutating func authentication(_ auth: LooseObject?, owner: String, turnsOff: Bool) -> Authentication? {
        guard let auth, let mode = auth.text("mode") else { return turnsOff ? Authentication(.none) : nil }
        let values = auth.object(mode) ?? [:]
        func value(_ key: String) -> String { templates.convert(values.text(key) ?? "") }
        switch mode {
        case "inherit":
            return nil
        case "none":
            return turnsOff ? Authentication(.none) : nil
        case "basic":
            return Authentication(.basic(username: value("username"), password: value("password")))
        case "digest":
            return Authentication(.digest(username: value("username"), password: value("password")))
        case "bearer":
            return Authentication(.bearer(token: value("token")))
        case "apikey":
            guard !value("key").trimmingCharacters(in: .whitespaces).isEmpty else {
                report.auth.append("\(owner) has API key auth without the key's name: imported as no auth.")
                return turnsOff ? Authentication(.none) : nil
            }
            let placement: Authentication.KeyPlacement = values.text("placement") == "queryparams" ? .query : .header
            return Authentication(.apiKey(name: value("key"), value: value("value"), placement: placement))
        case "oauth2":
            return oauth2(values, owner: owner, turnsOff: turnsOff)
        case "awsv4":
            let names = [
                "access_key_id": "accessKeyId", "secret_access_key": "secretAccessKey",
                "session_token": "sessionToken", "region": "region", "service": "service", "profile": "profileName",
            ]
            var settings: [String: String] = [:]
            for (key, brunoKey) in names where !value(brunoKey).isEmpty { settings[key] = value(brunoKey) }
            return Authentication(.awsSigV4(AWSSigV4Settings(settings)))
        case "oauth1":
            return oauth1(values, owner: owner)
        default:
            report.auth.append(
                "\(owner) uses \(mode) auth, which explorer cannot send: it was imported without auth "
                    + "(nothing weaker is sent in its place); add its credentials by hand.")
            return nil
        }
    }

    /// Bruno's OAuth 1.0a values as `auth: {type: oauth1}`; `nil` (reported) for a signature
    /// method explorer has not (nothing weaker is sent in its place).
    private mutating func oauth1(_ values: LooseObject, owner: String) -> Authentication? {
        func value(_ key: String) -> String { templates.convert(values.text(key) ?? "") }
        let method = values.text("signatureMethod").flatMap { $0.isEmpty ? nil : $0 } ?? "HMAC-SHA1"
        guard OAuth1Settings.methodNames.contains(method) else {
            report.auth.append(
                "\(owner) signs OAuth 1.0a with \(method), which explorer cannot (it signs with "
                    + OAuth1Settings.methodNames.joined(separator: ", ")
                    + "): imported without auth; choose one of those in its auth: by hand.")
            return nil
        }
        let names = [
            "consumer_key": "consumerKey", "consumer_secret": "consumerSecret", "token": "accessToken",
            "token_secret": "accessTokenSecret", "realm": "realm", "nonce": "nonce", "timestamp": "timestamp",
            "callback": "callbackUrl", "verifier": "verifier",
        ]
        var settings = ["signature_method": method]
        for (key, brunoKey) in names where !value(brunoKey).isEmpty { settings[key] = value(brunoKey) }
        let placement = values.text("placement") ?? "header"
        settings["in"] = OAuth1Settings.placementNames.contains(placement) ? placement : "header"
        var key = values.text("privateKey") ?? ""
        if key.hasPrefix("@file("), key.hasSuffix(")") { key = String(key.dropFirst(6).dropLast()) }
        if !key.isEmpty {
            if key.contains("-----BEGIN") {
                settings["private_key"] = key
            } else if let path = insideCollection(key, id: owner) {
                settings["private_key"] = "{{file \"\(path)\"}}"
            }
        }
        return Authentication(.oauth1(OAuth1Settings(settings)))
    }

    /// Bruno's OAuth 2 values as `auth: {type: oauth2}`.
    private mutating func oauth2(_ values: LooseObject, owner: String, turnsOff: Bool) -> Authentication? {
        func value(_ key: String) -> String { templates.convert(values.text(key) ?? "") }
        let grants = [
            "client_credentials": "client_credentials", "password": "password",
            "authorization_code": "authorization_code",
        ]
        let grantType = values.text("grantType") ?? "authorization_code"
        guard let grant = grants[grantType] else {
            report.auth.append(
                "\(owner) uses OAuth 2 with the \(grantType) grant, which explorer has not: "
                    + "imported without auth; add its token by hand.")
            return nil
        }
        var settings = ["grant": grant]
        let keys = [
            "token_url": "accessTokenUrl", "client_id": "clientId", "client_secret": "clientSecret", "scope": "scope",
            "authorization_url": "authorizationUrl", "username": "username", "password": "password",
        ]
        for (key, brunoKey) in keys {
            let text = value(brunoKey)
            if !text.isEmpty { settings[key] = text }
        }
        settings["client_auth"] = values.text("credentialsPlacement") == "basic_auth_header" ? "basic" : "body"
        let placement = values.text("tokenPlacement") ?? "header"
        let prefix = values.text("tokenHeaderPrefix") ?? "Bearer"
        if placement != "header" || !(prefix.isEmpty || prefix.lowercased() == "bearer") {
            report.auth.append(
                "\(owner) sends its OAuth 2 token "
                    + (placement == "header" ? "with the prefix \"\(prefix)\"" : "in the URL")
                    + "; explorer sends it as a Bearer token in the Authorization header.")
        }
        let missing = (["token_url", "client_id"] + (OAuth2Settings.requiredKeys[grant] ?? [])).filter {
            settings[$0] == nil
        }
        guard missing.isEmpty else {
            report.auth.append(
                "\(owner) uses OAuth 2 (\(grant)) without its \(missing.joined(separator: ", ")): "
                    + "imported as no auth; write its auth: by hand.")
            return turnsOff ? Authentication(.none) : nil
        }
        return Authentication(.oauth2(OAuth2Settings(settings)))
    }
}
