import Foundation

/// Turns body bytes into text: the one charset decoder of the library and the app.
///
/// The charset `Content-Type` names when it is a known one and the bytes fit it, else UTF-8,
/// else Latin-1 (which any bytes fit, so text is never lost).
package enum TextDecoding {
    /// The body as text, in `encoding` when given, else by `contentType`'s charset.
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - encoding: the charset to use instead of the headers', or `nil`.
    ///   - contentType: the `Content-Type` field value, if any.
    /// - Returns: the text.
    /// - Throws: `SerializationError.invalidText` when the bytes are not text in `encoding`.
    package static func decode(_ data: Data, encoding: String.Encoding?, contentType: String?) throws -> String {
        guard let encoding else { return decode(data, contentType: contentType) }
        guard let text = String(data: data, encoding: encoding) else {
            throw SerializationError.invalidText(charset: String(describing: encoding))
        }
        return text
    }

    /// The body as text by `contentType`'s charset, else UTF-8, else Latin-1.
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - contentType: the `Content-Type` field value, if any.
    /// - Returns: the text.
    package static func decode(_ data: Data, contentType: String?) -> String {
        if let encoding = contentType.flatMap(charset(in:)).flatMap(encoding(named:)),
            let text = String(data: data, encoding: encoding)
        {
            return text
        }
        if let text = String(data: data, encoding: .utf8) { return text }
        return String(data: data, encoding: .isoLatin1) ?? String(decoding: data, as: UTF8.self)
    }

    /// The charset parameter of a `Content-Type` value, unquoted, as written; `nil` when absent.
    ///
    /// - Parameter contentType: the field value, e.g. `text/plain; charset="ISO-8859-1"`.
    /// - Returns: the charset, e.g. `ISO-8859-1`.
    package static func charset(in contentType: String) -> String? {
        MediaType(contentType).parameters["charset"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The body as text when it is text: in the charset `contentType` names when that is a
    /// known one and the bytes fit it, else UTF-8; `nil` when it is neither (a binary body).
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - contentType: the `Content-Type` field value, if any.
    /// - Returns: the text, or `nil`.
    package static func text(_ data: Data, contentType: String?) -> String? {
        if let encoding = contentType.flatMap(charset(in:)).flatMap(encoding(named:)),
            let text = String(data: data, encoding: encoding)
        {
            return text
        }
        return String(data: data, encoding: .utf8)
    }

    /// The body as UTF-8 bytes when `charset` names a known charset other than UTF-8 that the
    /// bytes fit; `nil` when the body is to be read as it is (UTF-8, or a charset not known).
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - charset: the charset, any case.
    /// - Returns: the UTF-8 bytes, or `nil`.
    package static func convertedToUTF8(_ data: Data, charset: String?) -> [UInt8]? {
        guard let encoding = charset.flatMap(encoding(named:)), encoding != .utf8,
            let text = String(data: data, encoding: encoding)
        else { return nil }
        return Array(text.utf8)
    }

    /// The encoding a charset name stands for, or `nil` when it is not one this decoder knows.
    ///
    /// - Parameter name: the charset, any case (`UTF-8`, `latin1`, `windows-1252` ...).
    /// - Returns: the encoding.
    package static func encoding(named name: String) -> String.Encoding? {
        switch name.lowercased() {
        case "utf-8", "utf8": return .utf8
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1", "iso_8859-1", "l1": return .isoLatin1
        case "iso-8859-2", "latin2": return .isoLatin2
        case "us-ascii", "ascii": return .ascii
        case "utf-16": return .utf16
        case "utf-16le": return .utf16LittleEndian
        case "utf-16be": return .utf16BigEndian
        case "utf-32": return .utf32
        case "windows-1252", "cp1252": return .windowsCP1252
        case "windows-1251", "cp1251": return .windowsCP1251
        case "windows-1250", "cp1250": return .windowsCP1250
        case "shift_jis", "shift-jis", "sjis": return .shiftJIS
        case "euc-jp": return .japaneseEUC
        default: return nil
        }
    }
}
