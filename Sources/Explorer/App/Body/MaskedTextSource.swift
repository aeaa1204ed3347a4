import Terminal
import Workspace

/// A `TextSource` with the secrets of its exchange masked as its lines are drawn: a response
/// that echoes a token, or a login response whose token was captured as a secret, shows
/// `••••••` where the value is, as history does once the exchange is stored.
///
/// Masking happens per line, when the line is drawn: the body's bytes and the indexes built
/// over them stay as they arrived, so a large or streaming body is never copied to be masked.
struct MaskedTextSource: TextSource {
    let base: any TextSource
    let masker: SecretMasker

    var lineCount: Int { base.lineCount }

    func line(_ index: Int, maxCharacters: Int) -> [Span] {
        // Read past what is drawn, so that a secret cut at the edge is still recognised.
        let spans = base.line(index, maxCharacters: maxCharacters + masker.longestForm)
        return Self.masked(spans, at: masker.secretRanges(in: spans.plainText))
    }

    /// The spans with each range (UTF-8 offsets into their joined text) replaced by one mask,
    /// in the style of the span where the range starts.
    static func masked(_ spans: [Span], at ranges: [Range<Int>]) -> [Span] {
        guard !ranges.isEmpty else { return spans }
        var out: [Span] = []
        var next = 0
        var start = 0
        for span in spans {
            let bytes = Array(span.text.utf8)
            let end = start + bytes.count
            var cursor = start
            while cursor < end {
                while next < ranges.count, ranges[next].upperBound <= cursor { next += 1 }
                if next < ranges.count, ranges[next].lowerBound <= cursor {
                    if cursor == ranges[next].lowerBound { out.append(Span(SecretMasker.mask, span.style)) }
                    cursor = min(end, ranges[next].upperBound)
                } else {
                    let stop = next < ranges.count ? min(end, ranges[next].lowerBound) : end
                    out.append(
                        Span(String(decoding: bytes[(cursor - start)..<(stop - start)], as: UTF8.self), span.style))
                    cursor = stop
                }
            }
            start = end
        }
        return out
    }
}
