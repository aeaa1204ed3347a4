/// A theme: what every `Role` looks like.
package struct Theme: Sendable, Hashable {
    /// The theme's name (`default`, `light` ...).
    package var name: String
    /// The styles by role; a role missing here draws as `.text`.
    package var styles: [Role: ThemeStyle]

    /// Creates a theme.
    package init(name: String, styles: [Role: ThemeStyle]) {
        self.name = name
        self.styles = styles
    }

    /// The look of a role.
    package func style(for role: Role) -> ThemeStyle {
        styles[role] ?? styles[.text] ?? ThemeStyle()
    }

    /// The look of a cell style: the role's colours with the style's attributes added.
    package func resolve(_ style: Style) -> ThemeStyle {
        var result = self.style(for: style.role)
        result.attributes.formUnion(style.attributes)
        return result
    }
}
