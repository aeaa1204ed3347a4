import Terminal

/// A pretty-printed JSON document folded to a depth: objects and arrays nested deeper show as
/// one line, `"items": [ … ]`.
///
/// The visible lines are found in one pass over the lines' shapes (the printed text is never
/// kept), and drawing still asks only for the lines in sight.
package struct FoldedDocument: TextSource {
    let document: BodyDocument
    let depth: Int
    /// The document line shown at each visible position.
    private let visible: [Int32]
    /// Visible lines whose block is folded away, with the closing bracket to show.
    private let markers: [Int: Character]

    init(_ document: BodyDocument, depth: Int) {
        self.document = document
        self.depth = depth
        let limit = depth * 2
        var visible: [Int32] = []
        var markers: [Int: Character] = [:]
        document.text.forEachShape { line, indent, first, last in
            guard indent <= limit else { return }
            if indent == limit, depth > 0 || line > 0, first == UInt8(ascii: "}") || first == UInt8(ascii: "]") {
                return
            }
            visible.append(Int32(line))
            if indent == limit {
                if last == UInt8(ascii: "{") { markers[line] = "}" }
                if last == UInt8(ascii: "[") { markers[line] = "]" }
            }
        }
        self.visible = visible
        self.markers = markers
    }

    package var lineCount: Int { visible.count }

    package func line(_ index: Int, maxCharacters: Int) -> [Span] {
        let line = Int(visible[index])
        var spans = document.spans(line, maxCharacters: maxCharacters)
        if let closer = markers[line] { spans.append(Span(" … \(closer)", role: .dim)) }
        return spans
    }
}
