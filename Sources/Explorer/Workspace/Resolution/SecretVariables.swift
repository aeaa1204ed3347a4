import NetworkingCore

extension Authentication {
    /// Every template the scheme holds (user names too): what an export must treat as a
    /// credential, since any of them may be one.
    package var templates: [String] {
        switch scheme {
        case .none: []
        case .basic(let username, let password), .digest(let username, let password): [username, password]
        case .bearer(let token): [token]
        case .apiKey(let name, let value, _): [name, value]
        case .oauth2(let settings): settings.values.sorted { $0.key < $1.key }.map(\.value)
        case .awsSigV4(let settings): settings.templates
        case .oauth1(let settings): settings.templates
        }
    }
}

extension APICollection {
    /// The variables whose values an export must not write: the environment's `secrets:`,
    /// the variables named like a credential (`api_token`, `client_secret` …), and every
    /// variable an `auth:` or a credential header reads, directly or through other
    /// variables (`tkn` in `auth: { type: bearer, token: "{{tkn}}" }`, and `raw` in
    /// `tkn: "{{raw}}"`).
    ///
    /// - Parameter environment: the environment exported, if any.
    package func secretVariableNames(in environment: Environment?) -> Set<String> {
        let variables = (environment?.variables ?? []) + self.variables
        var secret = Set(environment?.secrets ?? [])
        for variable in variables where Self.isCredentialName(variable.name) { secret.insert(variable.name) }

        let masker = SecretMasker()
        var credentialTexts = [auth, environment?.auth].compactMap { $0 }.flatMap(\.templates)
        credentialTexts += (environment?.headers ?? []).filter { masker.isSensitive(header: $0.name) }.map(\.value)
        for endpoint in endpoints {
            credentialTexts += authentication(for: endpoint, in: environment)?.templates ?? []
            credentialTexts += endpoint.headers.filter { masker.isSensitive(header: $0.name) }.map(\.value)
        }
        // What the credentials read, then what those variables read in turn.
        var pending = credentialTexts.flatMap { Template($0).variableNames }
        while let name = pending.popLast() {
            // A function call (`{{base64 creds}}`) reads its variable arguments.
            if let call = TemplateFunction(name) {
                pending += call.variableArguments
                continue
            }
            guard secret.insert(name).inserted else { continue }
            for variable in variables where variable.name == name { pending += Template(variable.value).variableNames }
        }
        return secret
    }

    /// Whether an export may write a variable's value: it is no secret, or its value holds no
    /// secret itself, only references (`{{env.TOKEN}}`, `{{raw}}`) that the reader of the
    /// file resolves on their side.
    package static func mayExport(_ variable: KeyValue, secrets: Set<String>) -> Bool {
        guard secrets.contains(variable.name) else { return true }
        return Template(variable.value).segments.allSatisfy { segment in
            switch segment {
            case .literal(let text): text.allSatisfy(\.isWhitespace)
            case .variable(let name): TemplateFunction(name) == nil
            }
        }
    }

    /// Whether a variable's name says it holds a credential.
    package static func isCredentialName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return SecretMasker.sensitiveNameWords.contains { lowered.contains($0) }
    }
}

extension TemplateFunction {
    /// The variables a call reads as arguments (`credentials` in `{{base64 credentials}}`).
    var variableArguments: [String] {
        arguments.compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }
}
