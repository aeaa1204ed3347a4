import Foundation
import NetworkingCore

/// Where a HAR request's cookies go (`explorer import har --cookies header|jar`).
package enum HARCookiePlacement: String, Sendable, CaseIterable {
    /// Into each endpoint's `Cookie` header, in the collection file.
    case header
    /// Into the cookie jar of the environment the import goes into (a private file in the
    /// state folder), each with the domain, path, expiry and flags the HAR file gives it.
    case jar
}

extension HARImporter {
    /// The `Cookie` header a request's `cookies` list stands for (`name=value; …`, in order), or
    /// `nil` when it lists none.
    static func cookieHeader(_ cookies: [LooseObject]) -> String? {
        let pairs = cookies.compactMap { cookie in
            cookie.text("name").flatMap { $0.isEmpty ? nil : "\($0)=\(cookie.text("value") ?? "")" }
        }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// The cookies of every request, gathered for a jar: one per name, domain and path (the
    /// last request's value), and why the others were left out.
    ///
    /// A request's `cookies` list gives each cookie's `domain` (a leading dot, or a domain
    /// other than the request's host, for one sent to subdomains too), `path`, `expires`
    /// (ISO 8601), `secure`, `httpOnly` and `sameSite`; what it leaves out is the request's host,
    /// `/`, a session cookie and off. A request that lists no cookies but a `Cookie` header
    /// gives that header's pairs. A cookie is left out when it has expired since it was
    /// recorded, is larger than a jar keeps (`CookieJar.maximumCookieSize`), or would not be
    /// sent to the URL it was recorded with (its domain, path or `secure` say otherwise).
    struct JarCookies {
        /// The cookies, in the order first met.
        private(set) var cookies: [Cookie] = []
        private var expired: Set<String> = []
        private var tooLarge: Set<String> = []
        private var mismatched: Set<String> = []

        /// Adds the cookies a request was sent with.
        ///
        /// - Parameters:
        ///   - listed: the request's `cookies` list.
        ///   - headers: the values of its `Cookie` headers, read when the list is empty.
        ///   - url: the request's URL.
        ///   - now: what expiry is measured against.
        mutating func add(_ listed: [LooseObject], orHeaders headers: [String], sentTo url: URL, now: Date) {
            guard let host = url.host?.lowercased(), !host.isEmpty else { return }
            let objects: [LooseObject] = listed.isEmpty ? headers.flatMap(Self.pairs) : listed
            for object in objects {
                guard let name = object.text("name"), !name.isEmpty else { continue }
                let value = object.text("value") ?? ""
                var domain = (object.text("domain") ?? "").lowercased()
                let hostOnly = domain.isEmpty || domain == host
                if domain.hasPrefix(".") { domain.removeFirst() }
                let path = object.text("path").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/"
                let cookie = Cookie(
                    name: name, value: value, domain: domain.isEmpty ? host : domain, hostOnly: hostOnly, path: path,
                    expires: object.text("expires").flatMap(Self.expiry), secure: object.flag("secure"),
                    httpOnly: object.flag("httpOnly"),
                    sameSite: object.text("sameSite").flatMap { $0.isEmpty ? nil : $0 }, created: now)
                if cookie.isExpired(at: now) {
                    expired.insert(name)
                } else if name.utf8.count + value.utf8.count > CookieJar.maximumCookieSize {
                    tooLarge.insert(name)
                } else if !cookie.matches(url) {
                    mismatched.insert(name)
                } else if let index = cookies.firstIndex(where: {
                    $0.name == name && $0.domain == cookie.domain && $0.path == path
                }) {
                    cookies[index] = cookie
                } else {
                    cookies.append(cookie)
                }
            }
        }

        /// Why cookies were left out, one sentence per reason; names only, never values.
        var warnings: [String] {
            func listed(_ names: Set<String>) -> String {
                names.sorted().prefix(10).joined(separator: ", ") + (names.count > 10 ? ", …" : "")
            }
            var warnings: [String] = []
            if !expired.isEmpty {
                warnings.append(
                    "Cookies that have expired since the HAR file was recorded were left out of the jar: "
                        + "\(listed(expired))."
                )
            }
            if !tooLarge.isEmpty {
                warnings.append(
                    "Cookies larger than a jar keeps (\(CookieJar.maximumCookieSize) "
                        + "bytes of name and value) were left out: \(listed(tooLarge))."
                )
            }
            if !mismatched.isEmpty {
                warnings.append(
                    "Cookies whose domain, path or secure flag do not match the request they were recorded with were "
                        + "left out of the jar: \(listed(mismatched))."
                )
            }
            return warnings
        }

        /// The `name=value` pairs of a `Cookie` header, as cookie objects.
        static func pairs(_ header: String) -> [LooseObject] {
            header.split(separator: ";").compactMap { pair in
                guard let equals = pair.firstIndex(of: "=") else { return nil }
                return [
                    "name": pair[..<equals].trimmingCharacters(in: .whitespaces),
                    "value": pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces),
                ]
            }
        }

        /// A HAR `expires` (ISO 8601, with or without fractions of a second); `nil` for a
        /// session cookie, which some exporters write as the epoch or before it.
        static func expiry(_ text: String) -> Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            var date = formatter.date(from: text)
            if date == nil {
                formatter.formatOptions = [.withInternetDateTime]
                date = formatter.date(from: text)
            }
            guard let date, date.timeIntervalSince1970 > 0 else { return nil }
            return date
        }
    }
}
