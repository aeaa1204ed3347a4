/// Lines of text a `ScrollText` draws, fetched one at a time so a body of any size is never
/// laid out whole.
package protocol TextSource: Sendable {
    /// The number of lines.
    var lineCount: Int { get }

    /// One line, styled.
    ///
    /// - Parameters:
    ///   - index: the line, from 0.
    ///   - maxCharacters: the most characters the caller will draw; a source may cut a
    ///     longer line there (a 50 MB one-line body is never decoded whole).
    /// - Returns: the line's spans, without the line break.
    func line(_ index: Int, maxCharacters: Int) -> [Span]
}

/// A `TextSource` over lines already in memory.
package struct LinesTextSource: TextSource {
    /// The lines.
    package var lines: [[Span]]

    /// Creates a source from styled lines.
    package init(_ lines: [[Span]]) { self.lines = lines }

    /// Creates a source from plain text, split at line breaks.
    package init(text: String, style: Style = .plain) {
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { [Span(String($0), style)] }
    }

    /// The number of lines.
    package var lineCount: Int { lines.count }

    /// The line at `index` (empty outside the range).
    package func line(_ index: Int, maxCharacters: Int) -> [Span] {
        guard index >= 0, index < lines.count else { return [] }
        return lines[index]
    }
}

/// A `TextSource` over raw bytes (a file, a download), indexed by `LineIndex`.
package struct BytesTextSource: TextSource {
    /// The index over the bytes.
    package let index: LineIndex
    /// The style every line is drawn in.
    package var style: Style

    /// Creates a source over bytes.
    package init(_ index: LineIndex, style: Style = .plain) {
        self.index = index
        self.style = style
    }

    /// The number of lines.
    package var lineCount: Int { index.lineCount }

    /// The line at `index`, decoded as UTF-8 (invalid bytes become U+FFFD), at most about
    /// `maxCharacters` characters.
    package func line(_ index: Int, maxCharacters: Int) -> [Span] {
        [Span(self.index.line(index, maxBytes: max(16, maxCharacters) * 4), style)]
    }
}
