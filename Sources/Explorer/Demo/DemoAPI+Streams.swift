import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird

/// Bodies that are streams: live events, endless and huge bodies, a compression bomb. What a
/// user tries the explorer's streaming and limits against, and what its tests and benchmark use.
extension DemoAPI {
    /// `/stream/events?count=N&every=MS`: server-sent events, one every `every` ms (default
    /// 500); `count` 0 (the default) never ends. Each event has an id, a type and JSON data over
    /// two `data` lines; a comment line is sent first.
    func events(_ request: Hummingbird.Request) -> Hummingbird.Response {
        let query = request.uri.queryParameters
        let count = max(query.get("count").flatMap { Int($0) } ?? 0, 0)
        let every = min(max(query.get("every").flatMap { Int($0) } ?? 500, 0), 60_000)
        let environment = self.environment
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": demo event stream from \(environment)\n\n"))
            var index = 0
            while count == 0 || index < count {
                if index > 0 { try await Task.sleep(for: .milliseconds(every)) }
                index += 1
                let kind = index % 3 == 0 ? "alert" : "tick"
                try await writer.write(
                    ByteBuffer(
                        string:
                            "event: \(kind)\nid: \(index)\n"
                            + "data: {\"n\": \(index),\ndata: \"environment\": \"\(environment)\"}\n\n"
                    ))
            }
            try await writer.finish(nil)
        }
        return Hummingbird.Response(status: .ok, headers: headers, body: body)
    }

    /// `/stream/ndjson?count=N&every=MS`: one JSON object a line, one every `every` ms
    /// (default 200); `count` 0 (the default) never ends.
    func ndjson(_ request: Hummingbird.Request) -> Hummingbird.Response {
        let query = request.uri.queryParameters
        let count = max(query.get("count").flatMap { Int($0) } ?? 0, 0)
        let every = min(max(query.get("every").flatMap { Int($0) } ?? 200, 0), 60_000)
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        let body = ResponseBody { writer in
            var index = 0
            while count == 0 || index < count {
                if index > 0, every > 0 { try await Task.sleep(for: .milliseconds(every)) }
                index += 1
                try await writer.write(
                    ByteBuffer(string: "{\"n\": \(index), \"status\": \"\(index % 2 == 0 ? "even" : "odd")\"}\n"))
            }
            try await writer.finish(nil)
        }
        return Hummingbird.Response(status: .ok, headers: headers, body: body)
    }

    /// `/stream/endless`: a JSON-lines body that never ends, as fast as the client reads.
    func endless(_ request: Hummingbird.Request) -> Hummingbird.Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/x-ndjson"
        let line = ByteBuffer(
            string: String(repeating: "{\"endless\": true, \"padding\": \"0123456789abcdef\"}\n", count: 1024))
        let body = ResponseBody { writer in
            while true { try await writer.write(line) }
        }
        return Hummingbird.Response(status: .ok, headers: headers, body: body)
    }

    /// `/stream/bytes?size=N`: `size` bytes (default 1 MiB, at most 16 GiB) of binary data
    /// with a `Content-Length`, written in 256 KiB chunks.
    func bytes(_ request: Hummingbird.Request) -> Hummingbird.Response {
        let size = min(max(request.uri.queryParameters.get("size").flatMap { Int($0) } ?? (1 << 20), 0), 16 << 30)
        var headers = HTTPFields()
        headers[.contentType] = "application/octet-stream"
        headers[.contentLength] = String(size)
        var pattern = ByteBuffer()
        for index in 0..<(256 * 1024) { pattern.writeInteger(UInt8(truncatingIfNeeded: index &* 31 &+ 7)) }
        let chunk = pattern
        let body = ResponseBody(contentLength: size) { writer in
            var left = size
            while left > 0 {
                let count = min(left, chunk.readableBytes)
                try await writer.write(chunk.getSlice(at: 0, length: count)!)
                left -= count
            }
            try await writer.finish(nil)
        }
        return Hummingbird.Response(status: .ok, headers: headers, body: body)
    }

    /// `/stream/bomb`: about 1 MiB of gzip that inflates to 1 GiB of zeros (a compression bomb,
    /// for the decompression limits).
    func bomb() throws -> Hummingbird.Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.contentEncoding] = "gzip"
        return Hummingbird.Response(
            status: .ok, headers: headers, body: ResponseBody(byteBuffer: try DemoBomb.bytes.get()))
    }
}

/// The compression bomb, made once: 1 GiB of zeros gzipped 64 MiB at a time into one stream.
enum DemoBomb {
    static let bytes = Result { () throws -> ByteBuffer in
        let compressor = CompressionAlgorithm.gzip().compressor
        try compressor.startStream()
        var output = ByteBufferAllocator().buffer(capacity: 1_200_000)
        var block = ByteBuffer(repeating: 0, count: 64 << 20)
        for index in 0..<16 {
            var input = block.getSlice(at: 0, length: block.readableBytes)!
            try compressor.streamDeflate(from: &input, to: &output, flush: index == 15 ? .finish : .no)
        }
        block.clear()
        try compressor.finishStream()
        return output
    }
}
