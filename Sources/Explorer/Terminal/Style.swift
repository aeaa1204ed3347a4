/// How a cell is drawn: a semantic role plus extra attributes.
///
/// Colours are never chosen here; the theme maps the role to colours at flush time, so
/// the same grid draws correctly in every theme and with `NO_COLOR`.
package struct Style: Sendable, Hashable {
    /// What the text is.
    package var role: Role
    /// Attributes added to the role's own attributes.
    package var attributes: TextAttributes

    /// Creates a style.
    ///
    /// - Parameters:
    ///   - role: what the text is.
    ///   - attributes: attributes added to the theme's attributes for the role.
    package init(_ role: Role = .text, _ attributes: TextAttributes = []) {
        self.role = role
        self.attributes = attributes
    }

    /// Plain text.
    package static let plain = Style()

    /// The same style with more attributes.
    ///
    /// - Parameter more: the attributes to add.
    /// - Returns: a style with the union of attributes.
    package func adding(_ more: TextAttributes) -> Style {
        Style(role, attributes.union(more))
    }
}
