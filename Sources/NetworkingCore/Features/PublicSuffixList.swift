import Foundation

/// The Public Suffix List: the names under which anyone may register a name of their own
/// (`com`, `co.uk`, `github.io`), so that a cookie may not be set for all of them (RFC 6265
/// §5.3 step 5), as browsers and curl refuse it.
///
/// `shared` is the list compiled in from `publicsuffix/public_suffix_list.dat` (Mozilla Public
/// License 2.0; its source, commit and date are in `publicsuffix/README.md`). The algorithm is
/// the list's own (https://publicsuffix.org/list/): every rule that matches the name, an
/// exception rule (`!www.ck`) first, else the one of most labels, else the default rule `*`;
/// a wildcard (`*.ck`) stands for one label. Names are compared in lower case and in their
/// ASCII form (`xn--…`), whichever form the name and the rule are written in.
public struct PublicSuffixList: Sendable {
    /// The list compiled in, read once at first use.
    public static let shared = PublicSuffixList(rules: embeddedRules)

    /// Rules without a wildcard or exception, in ASCII form.
    private let names: Set<String>
    /// The parents of wildcard rules (`ck` for `*.ck`).
    private let wildcardParents: Set<String>
    /// Exception rules without their `!` (`www.ck`).
    private let exceptions: Set<String>

    /// A list from the text of rules, one a line, as `public_suffix_list.dat` writes them;
    /// comments (`//`), blank lines and what follows a rule on its line are left out.
    ///
    /// - Parameter text: the rules.
    public init(rules text: String) {
        var names = Set<String>()
        var wildcardParents = Set<String>()
        var exceptions = Set<String>()
        // Read as bytes: splitting 140 KB into Characters takes longer than the rest.
        for line in text.utf8.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            let bytes = line.prefix { $0 != 0x20 && $0 != 0x09 }
            guard !bytes.isEmpty, !bytes.starts(with: [0x2F, 0x2F]) else { continue }
            let word = String(decoding: bytes, as: UTF8.self)
            if word.hasPrefix("!") {
                if let rule = Self.asciiForm(of: word.dropFirst()) { exceptions.insert(rule) }
            } else if word.hasPrefix("*.") {
                if let rule = Self.asciiForm(of: word.dropFirst(2)) { wildcardParents.insert(rule) }
            } else if let rule = Self.asciiForm(of: word) {
                names.insert(rule)
            }
        }
        (self.names, self.wildcardParents, self.exceptions) = (names, wildcardParents, exceptions)
    }

    /// The public suffix of a domain name: its last labels that the prevailing rule matches
    /// (`co.uk` for `www.example.co.uk`, `example` for `a.example` by the default rule), in
    /// lower case, in the form the name was written in; `nil` for a name that is not one (empty,
    /// a leading dot, an empty label).
    ///
    /// - Parameter domain: the name, in ASCII (`xn--…`) or Unicode form.
    public func publicSuffix(of domain: String) -> String? {
        guard let (labels, count) = suffixLabels(of: domain) else { return nil }
        return labels.suffix(count).joined(separator: ".")
    }

    /// The registrable domain of a name: its public suffix and the label before it
    /// (`example.co.uk` for `www.example.co.uk`), or `nil` when the name is a public suffix
    /// itself (`co.uk`, `com`) or not a name.
    ///
    /// - Parameter domain: the name, in ASCII (`xn--…`) or Unicode form.
    public func registrableDomain(of domain: String) -> String? {
        guard let (labels, count) = suffixLabels(of: domain), labels.count > count else { return nil }
        return labels.suffix(count + 1).joined(separator: ".")
    }

    /// Whether a name is a public suffix: a cookie's `Domain` may not be one, unless it is the
    /// host itself (the cookie is then the host's alone).
    ///
    /// - Parameter domain: the name, in ASCII (`xn--…`) or Unicode form.
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard let (labels, count) = suffixLabels(of: domain) else { return false }
        return labels.count == count
    }

    /// The labels of a name in lower case, and how many of the last ones are its public suffix.
    private func suffixLabels(of domain: String) -> (labels: [String], count: Int)? {
        let labels = domain.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !labels.contains(where: \.isEmpty) else { return nil }
        guard let ascii = Self.asciiForm(of: domain) else { return nil }
        let asciiLabels = ascii.split(separator: ".").map(String.init)
        // An exception rule prevails; the suffix is the rule without its first label.
        for start in asciiLabels.indices where exceptions.contains(asciiLabels[start...].joined(separator: ".")) {
            return (labels, asciiLabels.count - start - 1)
        }
        // Else the matching rule of most labels: the first found from the left.
        for start in asciiLabels.indices {
            let suffix = asciiLabels[start...].joined(separator: ".")
            if names.contains(suffix) { return (labels, asciiLabels.count - start) }
            if start + 1 < asciiLabels.count,
                wildcardParents.contains(asciiLabels[(start + 1)...].joined(separator: "."))
            {
                return (labels, asciiLabels.count - start)
            }
        }
        // The default rule `*`: the last label.
        return (labels, 1)
    }

    /// A name in lower case with each label that is not ASCII in its Punycode form (`xn--…`,
    /// RFC 3492), or `nil` when a label is empty or cannot be encoded.
    static func asciiForm<S: StringProtocol>(of name: S) -> String? {
        // Most names (and all but 459 of the list's 10,248 rules) are lower-case ASCII already.
        if name.utf8.allSatisfy({ $0 < 0x80 && !(0x41...0x5A).contains($0) }) {
            let text = String(name)
            return text.isEmpty || text.hasPrefix(".") || text.hasSuffix(".") || text.contains("..") ? nil : text
        }
        var labels: [String] = []
        for label in name.lowercased().precomposedStringWithCanonicalMapping.split(
            separator: ".", omittingEmptySubsequences: false)
        {
            guard !label.isEmpty else { return nil }
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                labels.append(String(label))
            } else {
                guard let encoded = Punycode.encode(String(label)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }
}

/// RFC 3492's encoder, for the labels of a domain name (IDNA's `xn--` form without the prefix).
enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128

    /// The Punycode form of a label, or `nil` when it overflows.
    static func encode(_ label: String) -> String? {
        let input = label.unicodeScalars.map { Int($0.value) }
        var output = input.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            guard let m = input.filter({ $0 >= n }).min() else { return nil }
            let (product, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += product
            n = m
            for code in input {
                if code < n { delta += 1 }
                guard code == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, handled + 1, handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(output)
    }

    private static func digit(_ value: Int) -> Character {
        Character(Unicode.Scalar(UInt8(value < 26 ? value + 97 : value + 22)))
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
