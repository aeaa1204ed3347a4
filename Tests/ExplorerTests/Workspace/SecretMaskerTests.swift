import Foundation
import Networking
import Testing
@testable import Terminal
@testable import Workspace

@Suite struct SecretMaskerTests {
    @Test func sensitiveHeadersAreAlwaysMaskedKeepingTheScheme() {
        let masker = SecretMasker()
        let headers: HTTPHeaders = ["authorization": "Basic dXNlcjpwYXNz", "Cookie": "a=b", "x-api-key": "k", "Accept": "*/*"]
        let masked = masker.mask(headers: headers)
        #expect(masked["Authorization"] == "Basic ••••••")
        #expect(masked["Cookie"] == "••••••")
        #expect(masked["X-Api-Key"] == "••••••")
        #expect(masked["Accept"] == "*/*")
    }

    @Test func secretValuesAreMaskedEverywhereIncludingTheirURLEncoding() {
        let masker = SecretMasker(secretValues: ["p@ss word", "ab"])
        #expect(masker.mask("u=p@ss word") == "u=••••••")
        #expect(masker.mask("u=p%40ss%20word") == "u=••••••")
        #expect(masker.mask("about") == "about")
        let body = masker.mask(body: Data(#"{"password":"p@ss word"}"#.utf8))
        #expect(body == Data(#"{"password":"••••••"}"#.utf8))
    }
}
