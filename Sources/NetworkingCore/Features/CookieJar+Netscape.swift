import Foundation

/// The cookie files curl (`-b FILE`, `-c FILE`), wget and browsers' exporters write: the
/// Netscape format, one cookie a line, seven fields separated by tabs:
/// `domain  include-subdomains  path  secure  expires  name  value`, where a `#HttpOnly_`
/// prefix on the domain marks an HttpOnly cookie and other `#` lines are comments. As curl
/// does, a line `Set-Cookie: …` is read as that header.
extension CookieJar {
    /// A line of a cookie file that does not read.
    package struct FileProblem: Sendable, Hashable, CustomStringConvertible {
        /// The line's number, from 1.
        package var line: Int
        /// What is wrong with it.
        package var reason: String

        package var description: String { "line \(line): \(reason)" }
    }

    /// The cookies of a Netscape cookie file, without the expired ones.
    ///
    /// - Parameters:
    ///   - text: the file's text.
    ///   - url: the URL a `Set-Cookie:` line is read as coming from.
    ///   - now: the time expiry is measured against.
    /// - Returns: the cookies, and the lines that do not read (left out).
    package static func netscapeCookies(in text: String, settingFrom url: URL, now: Date = Date()) -> (
        cookies: [Cookie], problems: [FileProblem]
    ) {
        var cookies: [Cookie] = []
        var problems: [FileProblem] = []
        for (offset, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = raw.trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
            if line.lowercased().hasPrefix("set-cookie:") {
                let jar = CookieJar()
                jar.store(
                    setCookie: [String(line.dropFirst("set-cookie:".count)).trimmingCharacters(in: .whitespaces)],
                    from: url, now: now)
                cookies += jar.cookies(at: now)
                continue
            }
            var httpOnly = false
            if line.hasPrefix("#HttpOnly_") {
                httpOnly = true
                line.removeFirst("#HttpOnly_".count)
            }
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty, !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7 || fields.count == 6 else {
                problems.append(
                    FileProblem(
                        line: offset + 1,
                        reason:
                            "\(fields.count) tab-separated fields where a cookie has 7 (domain, "
                            + "subdomains, path, secure, expires, name, value)"
                    ))
                continue
            }
            guard let seconds = Int64(fields[4]) else {
                problems.append(
                    FileProblem(
                        line: offset + 1, reason: "the expiry \"\(fields[4])\" is not a number of seconds since 1970"))
                continue
            }
            var domain = fields[0].lowercased()
            let subdomains = fields[1].uppercased() == "TRUE" || domain.hasPrefix(".")
            if domain.hasPrefix(".") { domain.removeFirst() }
            let cookie = Cookie(
                name: fields[5], value: fields.count == 7 ? fields[6] : "", domain: domain, hostOnly: !subdomains,
                path: fields[2].isEmpty ? "/" : fields[2],
                expires: seconds == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(seconds)),
                secure: fields[3].uppercased() == "TRUE", httpOnly: httpOnly,
                created: now.addingTimeInterval(Double(offset) / 1000))
            if !cookie.isExpired(at: now) { cookies.append(cookie) }
        }
        return (cookies, problems)
    }
}
