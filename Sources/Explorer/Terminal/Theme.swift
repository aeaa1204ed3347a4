/// A theme: what every `Role` looks like.
public struct Theme: Sendable, Hashable {
    /// The theme's name (`default`, `light` ...).
    public var name: String
    /// The styles by role; a role missing here draws as `.text`.
    public var styles: [Role: ThemeStyle]

    /// Creates a theme.
    public init(name: String, styles: [Role: ThemeStyle]) {
        self.name = name
        self.styles = styles
    }

    /// The look of a role.
    public func style(for role: Role) -> ThemeStyle {
        styles[role] ?? styles[.text] ?? ThemeStyle()
    }

    /// The look of a cell style: the role's colours with the style's attributes added.
    public func resolve(_ style: Style) -> ThemeStyle {
        var result = self.style(for: style.role)
        result.attributes.formUnion(style.attributes)
        return result
    }

    /// The built-in dark theme, used when nothing else is chosen or a theme file is broken.
    public static let fallback: Theme = {
        (try? ThemeFile.parse(BuiltinThemes.source["default"] ?? "", file: "default.yaml", base: nil))
            ?? Theme(name: "default", styles: [:])
    }()
}
