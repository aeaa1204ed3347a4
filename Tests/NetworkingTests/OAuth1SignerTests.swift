import Foundation
import Networking
import Testing

/// `OAuth1Signer` against published OAuth 1.0a examples: RFC 5849's (§1.2 and the §3.4.1.1
/// base string), the OAuth Core 1.0 test cases that libraries check themselves with (the
/// oauth.net wiki's parameter encoding, normalisation, concatenation and HMAC-SHA1 cases, and
/// Appendix A.5's photos request), and Twitter's documented signature.
@Suite struct OAuth1SignerTests {
    // MARK: - RFC 5849

    /// RFC 5849 §3.4.1.1: the example request's signature base string (its secrets are not
    /// given, so only the base string is checked).
    @Test func rfc5849sExampleBaseString() throws {
        let url = URL(string: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b")!
        let base = try OAuth1Signer.baseString(
            method: "POST", url: url, formBody: "c2&a3=2+q",
            parameters: [
                ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
                ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"),
                ("oauth_nonce", "7d8f3e4a"),
            ])
        #expect(
            base
                == "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26"
                + "c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26"
                + "oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7")
    }

    /// RFC 5849 §1.2: the photo request signed with HMAC-SHA1 (no `oauth_version`), and the
    /// temporary-credentials request signed with PLAINTEXT.
    @Test func rfc5849sIntroductionRequests() throws {
        var signer = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "nnch734d00sl2jdk",
            tokenSecret: "pfkkdhi9sl3r4s00", realm: "Photos", nonce: "chapoH", timestamp: "137131202")
        signer.includesVersion = false
        let request = PreparedRequest(
            url: URL(string: "http://photos.example.net/photos?file=vacation.jpg&size=original")!)
        let signed = try signer.signed(request)
        #expect(
            signed.headers["Authorization"]
                == "OAuth realm=\"Photos\", oauth_consumer_key=\"dpf43f3p2l4k3l03\", oauth_token=\"nnch734d00sl2jdk\", "
                + "oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"137131202\", oauth_nonce=\"chapoH\", "
                + "oauth_signature=\"MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D\"")

        var temporary = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", method: .plaintext, realm: "Photos",
            callback: "http://printer.example.com/ready", nonce: "wIjqoS", timestamp: "137131200")
        temporary.includesVersion = false
        let initiate = try temporary.signed(
            PreparedRequest(method: .post, url: URL(string: "https://photos.example.net/initiate")!))
        #expect(
            initiate.headers["Authorization"]
                == "OAuth realm=\"Photos\", oauth_consumer_key=\"dpf43f3p2l4k3l03\", "
                + "oauth_signature_method=\"PLAINTEXT\", oauth_timestamp=\"137131200\", oauth_nonce=\"wIjqoS\", "
                + "oauth_callback=\"http%3A%2F%2Fprinter.example.com%2Fready\", oauth_signature=\"kd94hf93k423kf44%26\""
        )
    }

    // MARK: - The OAuth Core 1.0 test cases

    @Test func parameterEncodingCases() {
        let cases = [
            ("abcABC123", "abcABC123"), ("-._~", "-._~"), ("%", "%25"), ("+", "%2B"), ("&=*", "%26%3D%2A"),
            ("\n", "%0A"), (" ", "%20"), ("\u{7F}", "%7F"), ("\u{80}", "%C2%80"), ("\u{3001}", "%E3%80%81"),
        ]
        for (text, encoded) in cases { #expect(OAuth1Signer.encode(text) == encoded) }
    }

    @Test func normalizedParameterCases() {
        let cases = [
            ("name", "name="), ("a=b", "a=b"), ("a=b&c=d", "a=b&c=d"), ("a=x!y&a=x+y", "a=x%20y&a=x%21y"),
            ("x!y=a&x=a", "x=a&x%21y=a"),
        ]
        for (form, normalized) in cases {
            #expect(OAuth1Signer.normalizedParameters(OAuth1Signer.formPairs(form)) == normalized)
        }
    }

    @Test func concatenationCase() throws {
        let base = try OAuth1Signer.baseString(
            method: "GET", url: URL(string: "http://example.com")!, formBody: nil, parameters: [("n", "v")])
        #expect(base == "GET&http%3A%2F%2Fexample.com%2F&n%3Dv")
    }

    @Test func hmacSHA1Cases() throws {
        for (consumerSecret, tokenSecret, signature) in [
            ("cs", "", "egQqG5AJep5sJ7anhXju1unge2I="), ("cs", "ts", "VZVjXceV7JgPq/dOTnNmEfO0Fv8="),
        ] {
            let signer = OAuth1Signer(consumerKey: "", consumerSecret: consumerSecret, tokenSecret: tokenSecret)
            #expect(try signer.signature(ofBaseString: "bs") == signature)
        }
    }

    /// OAuth Core 1.0 Appendix A.5: the photos request, with `oauth_version`.
    @Test func oauthCoreAppendixA5() throws {
        let signer = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "nnch734d00sl2jdk",
            tokenSecret: "pfkkdhi9sl3r4s00", nonce: "kllo9940pd9333jh", timestamp: "1191242096")
        let signing = try signer.signing(
            method: "GET", url: URL(string: "http://photos.example.net/photos?file=vacation.jpg&size=original")!,
            formBody: nil)
        #expect(
            signing.baseString
                == "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3D"
                + "dpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26"
                + "oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal"
        )
        #expect(signing.signature == "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
    }

    /// Twitter's "Creating a signature" example: a form body and a query, HTTPS.
    @Test func twittersDocumentedSignature() throws {
        let signer = OAuth1Signer(
            consumerKey: "xvz1evFS4wEEPTGEFPHBog", consumerSecret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
            token: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            tokenSecret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
            nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", timestamp: "1318622958")
        let signing = try signer.signing(
            method: "POST", url: URL(string: "https://api.twitter.com/1/statuses/update.json?include_entities=true")!,
            formBody: "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21")
        #expect(
            signing.baseString
                == "POST&https%3A%2F%2Fapi.twitter.com%2F1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26"
                + "oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"
                + "%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-"
                + "GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2520Ladies%2520%252B"
                + "%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521")
        #expect(signing.signature == "tnnArxj06cWHq44gCs1OSKk/jLY=")
    }

    // MARK: - Methods and placements

    /// RSA-SHA256 (PKCS #1 v1.5 over SHA-256): the signature OpenSSL makes with the same key
    /// (`openssl dgst -sha256 -sign`), a key made for this test only.
    @Test func rsaSHA256MatchesOpenSSL() throws {
        let signer = OAuth1Signer(
            consumerKey: "dpf43f3p2l4k3l03", method: .rsaSHA256, privateKeyPEM: Self.testKey,
            nonce: "13917289812797014437", timestamp: "1196666512")
        let signing = try signer.signing(
            method: "GET", url: URL(string: "http://photos.example.net/photos?file=vacation.jpg&size=original")!,
            formBody: nil)
        #expect(
            signing.signature
                == "f302L2Hz+RZVWMks0Y7rJwt0KWNwZbdg0sXhQ37fzcG7Ee1ooxXFqGFr8iUTTuM1uvTE6oLOf5RrzaVK9hbD56/FAu8WOVbPh8jGXAMpYZnN0oj8jSNeNLtqTXHGT6ezlW9hEPGkJH5/PStw9BZMQTQJQp5kRTZpGkDtsKkYew1I2p5fkSk0jOqEBfsQRTV8EKP5N/GBvb24oDYJCElixNKQhmzeONuTSNJg5S/bH8qNnSW/veYL+0SYCNN8GhwRXVJz9K3EOG1NpXqYxXcQJoXLI/hwTcbUhznV+Il8swnqG3+kSeBr8f5qcXFy6ruF1Fb3m7llNQfuNU7jN9Ft1A=="
        )
        #expect(throws: OAuth1Signer.Failure.self) {
            try OAuth1Signer(consumerKey: "k", method: .rsaSHA256, privateKeyPEM: "not a key").signing(
                method: "GET", url: URL(string: "http://example.com/")!, formBody: nil)
        }
    }

    @Test func hmacSHA256SignsWithSHA256() throws {
        let signer = OAuth1Signer(
            consumerKey: "key", consumerSecret: "cs", tokenSecret: "ts", method: .hmacSHA256)
        // HMAC-SHA256("cs&ts", "bs"), base64.
        #expect(try signer.signature(ofBaseString: "bs") == "9HGKdfyP38c9+AtaEhdNhLubhigOrxSw0l46B8qgPso=")
    }

    @Test func parametersGoInTheQueryOrTheFormBody() throws {
        let query = OAuth1Signer(consumerKey: "ck", consumerSecret: "cs", placement: .query, nonce: "n", timestamp: "1")
        let inQuery = try query.signed(PreparedRequest(url: URL(string: "http://example.com/a?x=1")!))
        #expect(inQuery.url.query?.hasPrefix("x=1&oauth_consumer_key=ck&oauth_signature_method=HMAC-SHA1&") == true)
        #expect(inQuery.headers["Authorization"] == nil)

        let body = OAuth1Signer(consumerKey: "ck", consumerSecret: "cs", placement: .body, nonce: "n", timestamp: "1")
        let form = PreparedRequest(
            method: .post, url: URL(string: "http://example.com/a")!,
            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("x=1".utf8))
        let inBody = try body.signed(form)
        let text = String(decoding: inBody.body ?? Data(), as: UTF8.self)
        #expect(text.hasPrefix("x=1&oauth_consumer_key=ck&"))
        #expect(text.contains("oauth_signature="))
        let json = PreparedRequest(
            method: .post, url: URL(string: "http://example.com/a")!, headers: ["Content-Type": "application/json"],
            body: Data("{}".utf8))
        #expect(throws: OAuth1Signer.Failure.notAFormBody) { try body.signed(json) }
    }

    @Test func eachRequestHasAFreshNonce() throws {
        let signer = OAuth1Signer(consumerKey: "ck", consumerSecret: "cs")
        let first = signer.protocolParameters().first { $0.name == "oauth_nonce" }?.value
        let second = signer.protocolParameters().first { $0.name == "oauth_nonce" }?.value
        #expect(first != nil && first != second)
        let timestamp = signer.protocolParameters(now: Date(timeIntervalSince1970: 1_700_000_000))
            .first { $0.name == "oauth_timestamp" }?.value
        #expect(timestamp == "1700000000")
    }

    /// An RSA key made for this test (`openssl genrsa 2048`); it signs nothing else.
    static let testKey = """
        -----BEGIN RSA PRIVATE KEY-----
        MIIEpAIBAAKCAQEA8ymIj/67GKfXvuEYpMvft7I/vFJTGcXoz1iPUfAdoktXqng7
        nlY1g1mkWWnReENqzRNazTaFZLDZKL44evyQmjHzoIHn5fyvQQrdovd1SiEjY4hi
        yPV8eM/SKAwiF2qC4S97mjwbD9M9n2/KX/ZroUfFxO2perXYS+RJJ74SF0sU+Hfa
        erF7PUz5INnhDvZqXKB059z9flhqNqo66530icDbntKQwLYNzQkTLDAVuAnwdTwq
        HG3XIM6PPCntyyB4VPej4B2OgY3P3kDkWEOZ8uVBxFRP42ng240DMVcW/PGgXYnr
        pwN+XFfx7AakvO8KgW1oM5DverkuGt2GEM4ySwIDAQABAoIBAG2Fyw9EhmPsEXZV
        r8JmW51DSYbas7hblmlx85fN5aMYeWN8ZSoDnXXMlgR575HSF9RHv/HHeVypdR5v
        U0Q95ym0jw3ABUHnRs6uhLam6+rYMzbdEtV+ELLftEI6eM6AOHQR7YPCR9QgatSZ
        xxbjCIZrq+3vuBLfvg0sxTCD4WUgmP0PvfTbxzfM5Z06PNxsJG0YOs572I4pru+X
        vSBc9GAmIOMNw/Uv4KZrPBBYooyUI3mlhqHjBMAtpkOXdoRBuKYhSLFrRuO/wIWT
        qT/AQyskrWMtnDObi+NNwLEp0flKwh+h6CxYt/nSCFRGPlnCQgDIR3z8ctRDKBiG
        bq9wF4ECgYEA/9q2fxsGOBbLA47nGrMGuh0aUuOvtQCZ9djNWeZ+ntMB6CbH7/Xx
        peQqcngUs2qCSTLptaW3h9aiz99+AAAGLpFjtudlu1VkUgHlvrhWuURjnKWR8NvI
        Bw6rTdxJkEx1XQ3XfCEwzikqK8Lepr5vIDwWJm9SuEtOgWTNNA9ez4ECgYEA80z4
        i13ZncX36kBaqYsTZh86/rVnKui8IAhYiMjqwWvhWa6GfTEWTU71lGnzZ5Cybh0C
        LxauELc6kcFjVaUdbayCbi1s9OU5UiylDA31OKkzPr4CMYF9+hblaVpbIYymBH4o
        6affTdO80UNmDleCW8bMLFjzj0mgDQtGgkCDJ8sCgYBD9NSqOART24H6pPcvOUPd
        JSO7xmwB+HHsQbRxX25cQxFrlvld/AY+GLdJhimBahXG2XYH4Ec6FkFSUztFRrxd
        nBJPH3D+6/Rkb8qU+KNYPBj1H2j+/3FGppfLa2pCoHw/xhBpEOvEplxkGTNIOKaN
        ekgr1z+yYZYtehei7z4wgQKBgQDmw4q6JTnSu4J5XLChPpgXtGdwTv6bZEOK3l+a
        3XZMHtaPCUnmVDii+tFTA2sqP8P9TOZVY12V3TRgKtzczs8qxwSvG8bMQN4tYsro
        tBRyuYkxaWcLLZcfLbhKRLlLCOwuNrr3Y5IZb0sX8KVL1RR/l/7v0S6yKVL1DEzE
        HgxIIQKBgQDt6HOKYQAvS6jgOK9PeDQyqaaFL5RO72GFTtAaxIlkNW1GCj171bLt
        fm9pWIcKupXZA1dCalBYgUT1PA4IZ47KbEhTLsNVakvqac/efsbQ73B2UTQXf9aj
        UVRBdSsajsPcDU48uSDMDlTJAXqM86Vm2pbei2oP27wsUBXmcZN+5A==
        -----END RSA PRIVATE KEY-----
        """
}
