/// What was wrong with a response that is not valid HTTP/1.1 (RFC 9112), as the HTTP parser
/// found it: the part of the reply at fault, in words a person can check against the server.
///
/// None of these can be read safely: a client and a proxy that read such a reply differently
/// can be made to see different responses (response splitting and smuggling), so the reply is
/// refused, as curl and browsers refuse most of them.
public enum MalformedResponse: Sendable, Hashable, CustomStringConvertible {
    /// The first line is not an HTTP/1.x status line: an HTTP/0.9 reply (a body alone), or not
    /// HTTP at all.
    case noStatusLine
    /// The status line names an HTTP version other than 1.0 or 1.1.
    case unsupportedVersion
    /// The status code is not three digits.
    case invalidStatus
    /// A header's name or value holds a byte HTTP does not allow there: a NUL, another
    /// control character (ESC among them), or a space before the colon.
    case invalidHeaderCharacter
    /// A line of the head ends in CR without the LF that must follow it.
    case carriageReturnWithoutLineFeed
    /// The headers are larger than the parser reads: `bytes` in one field or in all, or more
    /// than `fields` fields.
    case headersTooLarge(bytes: Int, fields: Int)
    /// `Content-Length` is empty or not a number, or it came with `Transfer-Encoding`.
    case invalidContentLength
    /// `Content-Length` was sent more than once.
    case duplicateContentLength
    /// A chunk of a chunked body does not start with a hexadecimal size on its own line.
    case invalidChunkSize
    /// Bytes arrived after a response that said `Connection: close`.
    case dataAfterClose
    /// Something the parser does not name (llhttp's errors that SwiftNIO reports as
    /// `unknown`): most often a line that ends in LF alone, or a `Transfer-Encoding` that
    /// cannot be read or that follows `Content-Length`.
    case unnamed
    /// Anything else the parser refused, in its words.
    case other(String)

    /// The largest header field, and all the headers together, the parser reads (SwiftNIO's
    /// `NIOHTTPDecoderLimitConfiguration`, which async-http-client does not let a client set).
    public static let headerBytesLimit = 80 * 1024
    /// The most header fields the parser reads.
    public static let headerFieldsLimit = Int(UInt16.max) - 1

    /// What was wrong, as the end of a sentence: "its … ".
    public var description: String {
        switch self {
        case .noStatusLine:
            return
                "it does not begin with an HTTP/1.x status line (an HTTP/0.9 reply, "
                + "a body without a head, or another protocol)"
        case .unsupportedVersion:
            return "its status line names an HTTP version other than 1.0 or 1.1"
        case .invalidStatus:
            return "its status code is not three digits"
        case .invalidHeaderCharacter:
            return
                "a header holds a byte HTTP does not allow there (a NUL or another control character, "
                + "or a space before the colon)"
        case .carriageReturnWithoutLineFeed:
            return "a line of its head ends in CR without the LF that must follow it"
        case .headersTooLarge(let bytes, let fields):
            return "its headers are larger than the client reads (\(bytes / 1024) KB in one header or in all of them, "
                + "or more than \(fields) header lines; the limit is fixed)"
        case .invalidContentLength:
            return
                "its Content-Length is empty or not a number, "
                + "or it came with Transfer-Encoding (a client and a proxy could then read different bodies)"
        case .duplicateContentLength:
            return "it sent Content-Length more than once"
        case .invalidChunkSize:
            return "a chunk of its chunked body does not start with a hexadecimal size"
        case .dataAfterClose:
            return "it sent more bytes after a response that said Connection: close"
        case .unnamed:
            return
                "its head breaks HTTP/1.1 in a way the parser does not name "
                + "(most often a line that ends in LF alone where CRLF is required, "
                + "or a Transfer-Encoding that cannot be read or that follows Content-Length)"
        case .other(let reason):
            return "the HTTP parser refused it (\(reason))"
        }
    }
}
