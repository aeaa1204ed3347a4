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

    /// Whether a body holds a control character a terminal acts on (C0 but tab, line feed and
    /// carriage return; DEL; C1), which a file must not carry raw: `cat` would run it.
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isBodyControl)
    }

    /// Body text with its control characters (as `hasControls` finds them) written as visible
    /// escapes, `\u{1B}`; line breaks and tabs stay.
    static func visibleControls(_ text: String) -> String {
        guard hasControls(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isBodyControl(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func isBodyControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r")
            || (0x7F...0x9F).contains(scalar.value)
    }

    /// Control characters (a tab aside) and the Unicode line and paragraph separators.
    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
    }
}
