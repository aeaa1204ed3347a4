import Foundation

/// A colour in a theme: the terminal's default, one of the 16 ANSI colours, one of 256,
/// or a 24-bit RGB value (drawn as the nearest the terminal can show).
package enum ThemeColor: Sendable, Hashable, CustomStringConvertible {
    /// The terminal's own foreground or background.
    case terminalDefault
    /// An ANSI colour, 0–15 (8–15 are the bright ones).
    case ansi(Int)
    /// An xterm 256-colour palette entry.
    case indexed(Int)
    /// A 24-bit colour.
    case rgb(UInt8, UInt8, UInt8)

    /// The colour names a theme file may use, with their ANSI numbers.
    package static let names: [String: Int] = [
        "black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
        "gray": 8, "grey": 8, "bright-black": 8, "bright-red": 9, "bright-green": 10, "bright-yellow": 11,
        "bright-blue": 12, "bright-magenta": 13, "bright-cyan": 14, "bright-white": 15,
    ]

    /// Parses `default`, a name (`red`, `bright-blue`), a number 0–255 or `#rrggbb`.
    ///
    /// - Parameter text: the colour as written in a theme file.
    /// - Returns: the colour, or nil when the text is none of these.
    package init?(parsing text: String) {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        if value == "default" || value == "none" {
            self = .terminalDefault
        } else if let ansi = ThemeColor.names[value] {
            self = .ansi(ansi)
        } else if let number = Int(value), (0...255).contains(number) {
            self = number < 16 ? .ansi(number) : .indexed(number)
        } else if value.hasPrefix("#"), value.count == 7, let rgb = UInt32(value.dropFirst(), radix: 16) {
            self = .rgb(UInt8(rgb >> 16 & 0xFF), UInt8(rgb >> 8 & 0xFF), UInt8(rgb & 0xFF))
        } else {
            return nil
        }
    }

    /// The colour as a theme file writes it.
    package var description: String {
        switch self {
        case .terminalDefault: return "default"
        case .ansi(let n): return ThemeColor.names.first { $0.value == n && !$0.key.hasPrefix("gr") }?.key ?? String(n)
        case .indexed(let n): return String(n)
        case .rgb(let r, let g, let b):
            return "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    /// The RGB value of the colour (xterm's palette for ANSI and 256 colours).
    package var rgbValue: (r: Int, g: Int, b: Int)? {
        switch self {
        case .terminalDefault:
            return nil
        case .rgb(let r, let g, let b):
            return (Int(r), Int(g), Int(b))
        case .ansi(let n), .indexed(let n):
            return ThemeColor.paletteRGB(n)
        }
    }

    /// The nearest xterm 256-colour index (16–255 cube and greys; ANSI kept as is).
    package var nearest256: Int? {
        switch self {
        case .terminalDefault: return nil
        case .ansi(let n), .indexed(let n): return n
        case .rgb(let r, let g, let b):
            let steps = [0, 95, 135, 175, 215, 255]
            func cube(_ v: UInt8) -> Int {
                var best = 0
                for i in 0..<6 where abs(steps[i] - Int(v)) < abs(steps[best] - Int(v)) { best = i }
                return best
            }
            let (ri, gi, bi) = (cube(r), cube(g), cube(b))
            let cubeIndex = 16 + 36 * ri + 6 * gi + bi
            let average = (Int(r) + Int(g) + Int(b)) / 3
            let greyIndex = min(23, max(0, (average - 8 + 5) / 10))
            let greyValue = 8 + 10 * greyIndex
            let cubeDistance = ThemeColor.distance((steps[ri], steps[gi], steps[bi]), (Int(r), Int(g), Int(b)))
            let greyDistance = ThemeColor.distance((greyValue, greyValue, greyValue), (Int(r), Int(g), Int(b)))
            return greyDistance < cubeDistance ? 232 + greyIndex : cubeIndex
        }
    }

    /// The nearest of the 16 ANSI colours (or 8 when `limit` is 8).
    package func nearestANSI(limit: Int = 16) -> Int? {
        if case .ansi(let n) = self { return limit >= 16 ? n : n % 8 }
        guard let rgb = rgbValue else { return nil }
        var best = 0
        var bestDistance = Int.max
        for n in 0..<min(16, limit) {
            let p = ThemeColor.paletteRGB(n)
            let d = ThemeColor.distance(p, rgb)
            if d < bestDistance {
                best = n
                bestDistance = d
            }
        }
        return best
    }

    static func distance(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Int {
        let dr = a.0 - b.0
        let dg = a.1 - b.1
        let db = a.2 - b.2
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    static func paletteRGB(_ n: Int) -> (r: Int, g: Int, b: Int) {
        let ansi: [(Int, Int, Int)] = [
            (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229),
            (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
            (255, 255, 255),
        ]
        if n < 16 { return ansi[max(0, n)] }
        if n >= 232 {
            let v = 8 + 10 * (n - 232)
            return (v, v, v)
        }
        let steps = [0, 95, 135, 175, 215, 255]
        let i = n - 16
        return (steps[i / 36], steps[i / 6 % 6], steps[i % 6])
    }
}
