import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hosts reached without a proxy: `NO_PROXY` as curl reads it.
///
/// A comma- (or space-) separated list. `*` alone matches every host. A name matches itself
/// and its subdomains (`example.com` and `.example.com` both match `example.com` and
/// `api.example.com`, never `notexample.com`); case and a trailing dot do not count. An IP
/// address matches that address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) the addresses in it;
/// names are never resolved, so an address entry matches only a URL that names an address.
/// IPv6 entries are written without brackets (`::1`). Beyond curl: `*.example.com` reads as
/// `.example.com`, and an entry with a port (`localhost:8080`, `[::1]:8080`) matches only
/// that port (curl never matches such an entry).
public struct NoProxyList: Sendable, Hashable {
    /// The entries, as written.
    public let entries: [String]
    private let matchesAll: Bool
    private let patterns: [Pattern]

    private enum Pattern: Hashable {
        case name(String, port: Int?)
        case address([UInt8], bits: Int, port: Int?)
    }

    /// Reads a list as `NO_PROXY` holds it.
    ///
    /// - Parameter text: the entries, separated by commas or spaces.
    public init(_ text: String) {
        self.init(entries: text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init))
    }

    /// A list of entries.
    ///
    /// - Parameter entries: the entries; empty ones are skipped.
    public init(entries: [String]) {
        let cleaned = entries.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        self.entries = cleaned
        matchesAll = cleaned == ["*"]
        patterns = cleaned.compactMap(Self.pattern)
    }

    /// Whether the list has no entries.
    public var isEmpty: Bool { entries.isEmpty }

    /// Whether a request to this host and port goes without a proxy.
    ///
    /// - Parameters:
    ///   - host: the URL's host (an IPv6 address with or without brackets).
    ///   - port: the URL's port (its scheme's default when it names none).
    /// - Returns: whether an entry matches.
    public func matches(host: String, port: Int) -> Bool {
        if matchesAll { return true }
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        while name.hasSuffix(".") { name.removeLast() }
        let address = Self.address(name)
        for pattern in patterns {
            switch pattern {
            case .name(let entry, let entryPort):
                if let entryPort, entryPort != port { continue }
                if name == entry || name.hasSuffix("." + entry) { return true }
            case .address(let network, let bits, let entryPort):
                if let entryPort, entryPort != port { continue }
                if let address, Self.contains(network, bits: bits, address) { return true }
            }
        }
        return false
    }

    /// Whether a request to this URL goes without a proxy.
    public func matches(_ url: URL) -> Bool {
        guard let host = url.host else { return false }
        return matches(host: host, port: url.port ?? Self.defaultPort(of: url))
    }

    static func defaultPort(of url: URL) -> Int {
        ["https", "wss"].contains(url.scheme?.lowercased() ?? "") ? 443 : 80
    }

    // MARK: - Reading entries

    private static func pattern(_ entry: String) -> Pattern? {
        var text = Substring(entry.lowercased())
        var port: Int?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":"),
            let number = Int(text[text.index(after: colon)...])
        {
            port = number
            text = text[..<colon]
        }
        var bits: Int?
        if let slash = text.firstIndex(of: "/") {
            guard let number = Int(text[text.index(after: slash)...]) else { return nil }
            bits = number
            text = text[..<slash]
        }
        if let address = address(String(text)) {
            let width = address.count * 8
            let prefix = bits ?? width
            guard (0...width).contains(prefix) else { return nil }
            return .address(address, bits: prefix, port: port)
        }
        guard bits == nil else { return nil }
        if text.hasPrefix("*.") { text = text.dropFirst() }
        while text.hasPrefix(".") { text = text.dropFirst() }
        while text.hasSuffix(".") { text = text.dropLast() }
        return text.isEmpty ? nil : .name(String(text), port: port)
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) address, or `nil` for a name.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    private static func contains(_ network: [UInt8], bits: Int, _ address: [UInt8]) -> Bool {
        guard network.count == address.count else { return false }
        var remaining = bits
        for (left, right) in zip(network, address) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if left & mask != right & mask { return false }
            remaining -= 8
        }
        return true
    }
}
