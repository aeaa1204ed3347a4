/// Text written into an exported file.
enum ExportText {
    /// Text that must stay on one line of the file (a name, a header, a URL, a variable):
    /// a line break or any other control character is written as a visible escape (`\n`,
    /// `\u{2028}`), so nothing a collection holds, or an imported file brought, can start a
    /// request line or a section of its own in the file.
    static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBreaking) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case _ where isBreaking(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Control characters (a tab aside) and the Unicode line and paragraph separators.
    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
