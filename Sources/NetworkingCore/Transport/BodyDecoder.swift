import CompressNIO
import Foundation
import NIOCore

/// Turns the bytes of a body as they arrive into the bytes a client reads: inflates gzip and
/// deflate in bounded pieces and enforces the body limits as it goes.
///
/// Feed it one received chunk, then take pieces until it answers `nil`. Inflating never holds
/// more than one piece (`pieceSize`) of output at a time, so a compression bomb is stopped by
/// its ratio or size limit after a few pieces, never inflated whole.
struct BodyDecoder {
    /// The limits in force.
    struct Limits: Sendable {
        /// The largest body in bytes after decompression.
        var bodyBytes: Int?
        /// The largest size a compressed body may inflate to.
        var decompressedBytes: Int?
        /// The largest ratio of inflated to compressed bytes.
        var decompressionRatio: Int?
    }

    /// The largest piece of inflated output handed over at once.
    static let pieceSize = 64 * 1024

    private let url: URL
    private let limits: Limits
    private let inflater: ZlibDecompressor?
    /// The coding inflated (`gzip`, `deflate`), for errors.
    private let algorithmName: String?
    private var pending = ByteBuffer()
    /// A chunk fed as `Data`, handed over whole by the next call of `next()`.
    private var whole: Data?
    private var inflaterEnded = false
    /// The smaller of the size limits in force, with the error that names it.
    private let sizeLimit: (bytes: Int, error: TransportError)?
    /// The size limit the body passed: thrown once the bytes up to it have been handed over.
    private var passedLimit: TransportError?
    /// Bytes received on the wire.
    private(set) var receivedBytes = 0
    /// Bytes handed over.
    private(set) var decodedBytes = 0

    /// The `Content-Encoding` values this decoder inflates.
    static func decodes(_ contentEncoding: String?) -> Bool {
        algorithm(for: contentEncoding) != nil
    }

    private static func algorithm(for contentEncoding: String?) -> ZlibAlgorithm? {
        switch contentEncoding?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "gzip", "x-gzip": .gzip
        case "deflate": .zlib
        default: nil
        }
    }

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - url: the response's URL, for errors.
    ///   - contentEncoding: the response's `Content-Encoding`; gzip and deflate are inflated
    ///     when `decompress` is true, anything else passes through as it is.
    ///   - decompress: whether to inflate.
    ///   - limits: the limits.
    /// - Throws: `TransportError.other` when the inflater cannot start.
    init(url: URL, contentEncoding: String?, decompress: Bool, limits: Limits) throws {
        self.url = url
        self.limits = limits
        algorithmName =
            decompress && Self.algorithm(for: contentEncoding) != nil
            ? contentEncoding?.trimmingCharacters(in: .whitespaces).lowercased() : nil
        if decompress, let algorithm = Self.algorithm(for: contentEncoding) {
            do {
                inflater = try ZlibDecompressor(algorithm: algorithm, windowSize: 15)
            } catch {
                throw TransportError.other("the \(algorithm) decompressor could not start (\(error))")
            }
        } else {
            inflater = nil
        }
        if inflater != nil, let inflated = limits.decompressedBytes, inflated < (limits.bodyBytes ?? .max) {
            sizeLimit = (inflated, TransportError.bodyTooLarge(url: url, limit: .decompressedBytes(inflated)))
        } else {
            sizeLimit = limits.bodyBytes.map { ($0, TransportError.bodyTooLarge(url: url, limit: .bodyBytes($0))) }
        }
    }

    /// Whether the body is being inflated.
    var inflates: Bool { inflater != nil }

    /// Takes one received chunk.
    mutating func feed(_ chunk: ByteBuffer) {
        receivedBytes += chunk.readableBytes
        if pending.readableBytes == 0 {
            pending = chunk
        } else {
            var copy = chunk
            pending.writeBuffer(&copy)
        }
    }

    /// Takes one received chunk that came as `Data` (through a `BodyChannel`): a body that is
    /// not inflated hands it over as it is, with no copy.
    mutating func feed(_ chunk: Data) {
        guard inflater == nil, pending.readableBytes == 0, whole == nil else {
            feed(ByteBuffer(bytes: chunk))
            return
        }
        receivedBytes += chunk.count
        whole = chunk
    }

    /// The next piece of body to hand over, or `nil` when the chunks fed so far are used up.
    ///
    /// - Throws: `TransportError.bodyTooLarge` naming the limit passed (a size limit once the
    ///   bytes up to it have been handed over), or
    ///   `TransportError.decompressionFailed` for data that is not what its encoding says.
    mutating func next() throws -> Data? {
        if let passedLimit { throw passedLimit }
        if let piece = whole {
            whole = nil
            return try withinLimits(piece)
        }
        guard pending.readableBytes > 0 else { return nil }
        guard let inflater else {
            // Copied straight from the buffer's bytes, and the buffer let go rather than cleared:
            // `clear()` on a chunk async-http-client still holds makes a new storage of the
            // chunk's capacity, and `Data(readableBytesView)` goes through a dynamic cast, each
            // an allocation a response.
            let piece = Self.data(of: pending)
            pending = ByteBuffer()
            return try withinLimits(piece)
        }
        if inflaterEnded {
            // Bytes after the end of the compressed stream are not part of the body.
            pending.clear()
            return nil
        }
        var output = ByteBufferAllocator().buffer(capacity: Self.pieceSize)
        do {
            try inflater.inflate(from: &pending, to: &output)
            // Returned without an error: either the stream ended or all input was used.
            if pending.readableBytes > 0 { inflaterEnded = true }
        } catch let error as CompressNIOError where error == .bufferOverflow || error == .inputBufferOverflow {
            // The piece is full (more to come from the same input), or the input is used up.
        } catch {
            throw TransportError.decompressionFailed(url: url, reason: "\(error)")
        }
        guard output.readableBytes > 0 else {
            if pending.readableBytes > 0, !inflaterEnded {
                throw TransportError.decompressionFailed(url: url, reason: "the inflater made no progress")
            }
            return pending.readableBytes > 0 ? try next() : nil
        }
        return try withinLimits(Self.data(of: output))
    }

    /// What is left once the body has ended: the inflater's last output, if it held any.
    ///
    /// - Returns: the last piece, or `nil`.
    /// - Throws: `TransportError.decompressionFailed` when the compressed data stops before the
    ///   end of its stream (a gzip or deflate body cut short: what inflated so far was handed
    ///   over, but it is not the whole body).
    mutating func finish() throws -> Data? {
        guard let inflater, !inflaterEnded, receivedBytes > 0, passedLimit == nil else { return nil }
        // Asked again with no input, the inflater answers the end of its stream if it saw it,
        // else that it wants more input.
        var noInput = ByteBufferAllocator().buffer(capacity: 16)
        var output = ByteBufferAllocator().buffer(capacity: Self.pieceSize)
        do {
            try inflater.inflate(from: &noInput, to: &output)
            // No output and no error: the end of the stream (zlib answers an error when it can
            // make no progress). With output, the end is looked for at the next call.
            if output.readableBytes == 0 { inflaterEnded = true }
        } catch let error as CompressNIOError where error == .bufferOverflow {
            // Output held back by the inflater: handed over now, the end looked for next time.
            return try withinLimits(Self.data(of: output))
        } catch let error as CompressNIOError where error == .inputBufferOverflow {
            let name = algorithmName ?? "compressed"
            throw TransportError.decompressionFailed(
                url: url, reason: "the \(name) data stops before the end of its stream, so the body was cut short")
        } catch {
            throw TransportError.decompressionFailed(url: url, reason: "\(error)")
        }
        return output.readableBytes > 0 ? try withinLimits(Self.data(of: output)) : nil
    }

    /// A buffer's readable bytes, copied into `Data`.
    private static func data(of buffer: ByteBuffer) -> Data {
        buffer.withUnsafeReadableBytes { Data($0) }
    }

    /// The piece to hand over: all of it, or, when it passes a size limit, the bytes up to the
    /// limit (what arrived is kept), with the limit's error thrown by the next call.
    private mutating func withinLimits(_ piece: Data) throws -> Data {
        var kept = piece
        if let (limit, error) = sizeLimit, decodedBytes + piece.count > limit {
            guard limit > decodedBytes else { throw error }
            kept = piece.prefix(limit - decodedBytes)
            passedLimit = error
        }
        decodedBytes += kept.count
        // Checked only past a first piece, so a tiny compressed body of a few bytes may inflate
        // to one piece whatever its ratio.
        if inflater != nil, let ratio = limits.decompressionRatio, decodedBytes > Self.pieceSize,
            decodedBytes / max(1, receivedBytes - pending.readableBytes) > ratio
        {
            throw TransportError.bodyTooLarge(url: url, limit: .decompressionRatio(ratio))
        }
        return kept
    }

}
