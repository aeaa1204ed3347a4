/// Attributes drawn on top of a role's colours: bold, underline, reverse ...
package struct TextAttributes: OptionSet, Sendable, Hashable, Codable {
    /// The raw bits.
    package let rawValue: UInt8

    /// Creates attributes from raw bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold (or bright).
    package static let bold = TextAttributes(rawValue: 1 << 0)
    /// Dim.
    package static let dim = TextAttributes(rawValue: 1 << 1)
    /// Italic.
    package static let italic = TextAttributes(rawValue: 1 << 2)
    /// Underline.
    package static let underline = TextAttributes(rawValue: 1 << 3)
    /// Reverse video: foreground and background swapped.
    package static let reverse = TextAttributes(rawValue: 1 << 4)
    /// Blink.
    package static let blink = TextAttributes(rawValue: 1 << 5)

    /// One letter per attribute for snapshot masks, in a fixed order.
    var letters: String {
        var result = ""
        if contains(.bold) { result += "b" }
        if contains(.dim) { result += "d" }
        if contains(.italic) { result += "i" }
        if contains(.underline) { result += "u" }
        if contains(.reverse) { result += "r" }
        if contains(.blink) { result += "k" }
        return result
    }
}
