/// What a `QueryScanner` reads a query as: user-perceived characters (`Character`, as the XPath
/// subset counts them in its messages) or Unicode scalars (`Unicode.Scalar`, as RFC 9535's
/// grammar for JSONPath is written, where `\r\n` is two blanks and a combining mark after a
/// quote does not hide the quote).
package protocol QueryScannerElement: Equatable, Sendable {
    /// The elements of a text, in order.
    static func elements(of text: String) -> [Self]
    /// The text the elements spell.
    static func text(of elements: ArraySlice<Self>) -> String
}

extension Character: QueryScannerElement {
    /// The characters of `text`.
    package static func elements(of text: String) -> [Character] { Array(text) }
    /// The characters as a string.
    package static func text(of elements: ArraySlice<Character>) -> String { String(elements) }
}

extension Unicode.Scalar: QueryScannerElement {
    /// The Unicode scalars of `text`.
    package static func elements(of text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
    /// The scalars as a string.
    package static func text(of elements: ArraySlice<Unicode.Scalar>) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: elements)
        return String(text)
    }
}

/// The one character scanner of the two query languages (JSONPath and the XPath subset): a
/// position in a query's elements, read forward by the recursive-descent parsers.
///
/// It knows no grammar: each parser builds its tokens from `peek`, `consume` and `take(while:)`.
/// `position` counts elements from 0; messages show it 1-based.
package struct QueryScanner<Element: QueryScannerElement>: Sendable {
    /// The query, split into elements.
    package let elements: [Element]
    /// The index of the next element to read (`elements.count` at the end).
    package var position = 0

    /// A scanner at the start of `text`.
    package init(_ text: String) {
        elements = Element.elements(of: text)
    }

    /// Whether every element has been read.
    package var isAtEnd: Bool { position >= elements.count }

    /// The next element, or `nil` at the end.
    package var peek: Element? { isAtEnd ? nil : elements[position] }

    /// The element `offset` places after the next one, or `nil` past the end.
    package func peek(at offset: Int) -> Element? {
        let index = position + offset
        return index >= 0 && index < elements.count ? elements[index] : nil
    }

    /// What is left to read, as text.
    package var rest: String { Element.text(of: elements[min(position, elements.count)...]) }

    /// The text between `start` and the current position.
    package func text(from start: Int) -> String {
        Element.text(of: elements[min(start, position)..<position])
    }

    /// Moves past `count` elements (never past the end).
    package mutating func advance(by count: Int = 1) {
        position = min(position + count, elements.count)
    }

    /// Whether the elements from the current position spell `text` (nothing is read).
    package func isLooking(at text: String) -> Bool {
        let wanted = Element.elements(of: text)
        guard position + wanted.count <= elements.count else { return false }
        return elements[position..<position + wanted.count].elementsEqual(wanted)
    }

    /// Reads `text` when it comes next.
    ///
    /// - Returns: whether it did (otherwise the position is unchanged).
    package mutating func consume(_ text: String) -> Bool {
        guard isLooking(at: text) else { return false }
        position += Element.elements(of: text).count
        return true
    }

    /// Reads `element` when it comes next.
    ///
    /// - Returns: whether it did.
    package mutating func consume(_ element: Element) -> Bool {
        guard peek == element else { return false }
        position += 1
        return true
    }

    /// Reads the elements that satisfy `predicate`, up to the first that does not.
    ///
    /// - Returns: how many it read.
    @discardableResult
    package mutating func skip(while predicate: (Element) -> Bool) -> Int {
        let start = position
        while let next = peek, predicate(next) { position += 1 }
        return position - start
    }

    /// Reads the elements that satisfy `predicate` and gives them as text (empty when none).
    package mutating func take(while predicate: (Element) -> Bool) -> String {
        let start = position
        skip(while: predicate)
        return text(from: start)
    }
}
