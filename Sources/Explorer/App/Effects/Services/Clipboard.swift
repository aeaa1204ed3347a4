import Foundation

/// The terminal's clipboard, reached with OSC 52 escape sequences written to the terminal.
package struct Clipboard: Sendable {
    /// Where the sequences are written (the terminal); `nil` copies nothing (tests).
    private let writer: (@Sendable (String) -> Void)?

    package init(writer: (@Sendable (String) -> Void)?) {
        self.writer = writer
    }

    /// Asks the terminal to put `text` on the clipboard.
    package func copy(_ text: String) {
        writer?(OSC52.sequence(copying: text))
    }
}

/// The OSC 52 escape sequence that asks the terminal to put text on the clipboard.
enum OSC52 {
    static func sequence(copying text: String) -> String {
        "\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}"
    }
}
