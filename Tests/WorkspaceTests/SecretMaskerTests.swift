import Foundation
import NetworkingCore
import Testing

@testable import Terminal
@testable import Workspace

@Suite struct SecretMaskerTests {
    @Test func sensitiveHeadersAreAlwaysMaskedKeepingTheScheme() {
        let masker = SecretMasker()
        let headers: HTTPHeaders = [
            "authorization": "Basic dXNlcjpwYXNz", "Cookie": "a=b", "x-api-key": "k", "Accept": "*/*",
        ]
        let masked = masker.mask(headers: headers)
        #expect(masked["Authorization"] == "Basic ••••••")
        #expect(masked["Cookie"] == "••••••")
        #expect(masked["X-Api-Key"] == "••••••")
        #expect(masked["Accept"] == "*/*")
    }

    @Test func aBodyIsSearchedForEveryFormOfASecretBeforeItIsTurnedIntoText() {
        let masker = SecretMasker(secretValues: ["p@ss w/rd"])
        let clean = Data(String(repeating: "nothing secret here ", count: 10_000).utf8)
        #expect(!masker.mayHoldSecret(clean))
        #expect(masker.mask(body: clean) == clean)
        // The percent-encoded form, its hex digits in the other case, is still found and masked.
        let encoded = Data(#"{"echo": "p%40SS%20w%2Frd"}"#.utf8)
        #expect(masker.mayHoldSecret(encoded))
        #expect(
            masker.mask(body: encoded).map { String(decoding: $0, as: UTF8.self) }
                == #"{"echo": "\#(SecretMasker.mask)"}"#)
    }

    @Test func secretValuesAreMaskedEverywhereIncludingTheirURLEncoding() {
        let masker = SecretMasker(secretValues: ["p@ss word", "ab"])
        #expect(masker.mask("u=p@ss word") == "u=••••••")
        #expect(masker.mask("u=p%40ss%20word") == "u=••••••")
        #expect(masker.mask("about") == "about")
        let body = masker.mask(body: Data(#"{"password":"p@ss word"}"#.utf8))
        #expect(body == Data(#"{"password":"••••••"}"#.utf8))
    }

    @Test func overlappingSecretsLeaveNoFragmentAndRangesAreUTF8Offsets() {
        let masker = SecretMasker(secretValues: ["abcdef", "defghi"])
        // One after the other would leave "ghi" of the second behind; merged, nothing is left.
        #expect(masker.mask("x abcdefghi y") == "x ••••••" + " y")
        #expect(masker.secretRanges(in: "é abcdef") == [3..<9])
        #expect(masker.mask("é abcdef, é") == "é ••••••, é")
    }
}
