import CNcurses
import Terminal

/// Turns cell styles into ncurses attributes and colour pairs, caching each.
///
/// Colours go to the best the terminal has: direct (24-bit) colour, else the nearest of
/// 256, else of 16 or 8; with no colour (or `NO_COLOR`) only attributes are drawn, from
/// the theme the screen chose for no colour. Pairs come from `alloc_pair`, so ncurses manages the pair table
/// and extended (above 32767) pairs work.
struct CursesPalette {
    /// How many colours the terminal shows; 0 when drawing without colour.
    let colors: Int
    /// The theme in effect (the screen passes its monochrome theme when there is no colour).
    let theme: Theme
    private var cache: [Style: (attr_t, Int32)] = [:]

    /// Creates a palette.
    ///
    /// - Parameters:
    ///   - theme: the chosen theme.
    ///   - colors: the terminal's colour count, 0 for none.
    init(theme: Theme, colors: Int) {
        self.colors = colors
        self.theme = theme
    }

    /// The attributes and pair for a style.
    mutating func attributes(for style: Style) -> (attr_t, Int32) {
        if let cached = cache[style] { return cached }
        let resolved = theme.resolve(style)
        var attrs = explorer_a_normal()
        let a = resolved.attributes
        if a.contains(.bold) { attrs |= explorer_a_bold() }
        if a.contains(.dim) { attrs |= explorer_a_dim() }
        if a.contains(.italic) { attrs |= explorer_a_italic() }
        if a.contains(.underline) { attrs |= explorer_a_underline() }
        if a.contains(.reverse) { attrs |= explorer_a_reverse() }
        if a.contains(.blink) { attrs |= explorer_a_blink() }
        var pair: Int32 = 0
        if colors > 0 {
            let fg = terminalColor(resolved.foreground)
            let bg = terminalColor(resolved.background)
            if fg != -1 || bg != -1 {
                let allocated = alloc_pair(fg, bg)
                pair = allocated > 0 ? allocated : 0
            }
        }
        cache[style] = (attrs, pair)
        return (attrs, pair)
    }

    /// The terminal's number for a theme colour; -1 is the terminal's default.
    func terminalColor(_ color: ThemeColor) -> Int32 {
        CursesPalette.terminalColor(color, colors: colors)
    }

    /// The terminal's number for a theme colour at a given colour depth.
    static func terminalColor(_ color: ThemeColor, colors: Int) -> Int32 {
        if case .terminalDefault = color { return -1 }
        if colors >= 0x1000000 {
            if case .ansi(let n) = color, n < 8 { return Int32(n) }
            guard let rgb = color.rgbValue else { return -1 }
            return Int32(rgb.r << 16 | rgb.g << 8 | rgb.b)
        }
        if colors >= 256 { return Int32(color.nearest256 ?? -1) }
        if colors >= 16 { return Int32(color.nearestANSI(limit: 16) ?? -1) }
        if colors >= 8 { return Int32(color.nearestANSI(limit: 8) ?? -1) }
        return -1
    }
}
