/// Attributes drawn on top of a role's colours: bold, underline, reverse ...
public struct TextAttributes: OptionSet, Sendable, Hashable, Codable {
    /// The raw bits.
    public let rawValue: UInt8

    /// Creates attributes from raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold (or bright).
    public static let bold = TextAttributes(rawValue: 1 << 0)
    /// Dim.
    public static let dim = TextAttributes(rawValue: 1 << 1)
    /// Italic.
    public static let italic = TextAttributes(rawValue: 1 << 2)
    /// Underline.
    public static let underline = TextAttributes(rawValue: 1 << 3)
    /// Reverse video: foreground and background swapped.
    public static let reverse = TextAttributes(rawValue: 1 << 4)
    /// Blink.
    public static let blink = TextAttributes(rawValue: 1 << 5)

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
