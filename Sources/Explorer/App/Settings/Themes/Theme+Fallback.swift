import Terminal

extension Theme {
    /// The built-in dark theme, used when nothing else is chosen or a theme file is broken.
    package static let fallback: Theme = {
        (try? ThemeFile.parse(BuiltinThemes.source["default"] ?? "", file: "default.yaml", base: nil))
            ?? Theme(name: "default", styles: [:])
    }()
}
