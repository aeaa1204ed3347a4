import Foundation

/// JSON text as it may be shown: DEL and the C1 controls, which JSON lets stand raw in a
/// string (and `JSONSerialization` and the serializer of `JSONValue` leave so), written as
/// `\u009b`-style escapes. A JSON reader reads back the same characters, and none reaches a
/// terminal raw (it acts on U+009B as on ESC [) when the output or an exported file is shown.
/// The C0 controls are escaped by the serializers already; outside strings JSON has none.
package enum JSONControlEscapes {
    /// `json` with DEL and U+0080–U+009F escaped.
    package static func escaping(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
