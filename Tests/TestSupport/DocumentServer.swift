import Foundation
import NIOCore
import NIOPosix

/// A small HTTP/1.1 server on 127.0.0.1 (SwiftNIO) that serves fixed documents by path, for
/// what a document named by URL needs tested: how often it is asked for, a large one, a
/// missing one (404), and one that never answers (`silent` paths keep the connection open and
/// say nothing). Every request's path (with its query) is recorded, in order.
package final class DocumentServer: Sendable {
    /// What a path answers.
    package struct Document: Sendable {
        package var status: Int
        package var contentType: String
        package var body: Data

        package init(status: Int = 200, contentType: String = "application/json", body: Data) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }

        package init(status: Int = 200, contentType: String = "application/json", _ text: String) {
            self.init(status: status, contentType: contentType, body: Data(text.utf8))
        }
    }

    package let port: Int
    private let channel: any Channel
    private let book: Book

    /// The paths asked for so far, in order (`/openapi.json?x=1`).
    package var requests: [String] { book.all }

    /// `http://127.0.0.1:PORT` followed by `path`.
    package func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Starts serving on a free port.
    ///
    /// - Parameters:
    ///   - documents: the answers, by path (the query is not part of it); other paths are 404.
    ///   - silent: paths that are never answered.
    package static func start(_ documents: [String: Document], silent: Set<String> = []) async throws -> DocumentServer
    {
        let book = Book()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(
                        Handler(documents: documents, silent: silent, book: book))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return DocumentServer(port: channel.localAddress?.port ?? 0, channel: channel, book: book)
    }

    private init(port: Int, channel: any Channel, book: Book) {
        self.port = port
        self.channel = channel
        self.book = book
    }

    /// Stops listening.
    package func stop() async {
        try? await channel.close()
    }

    private final class Book: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func append(_ path: String) { lock.withLock { paths.append(path) } }
        var all: [String] { lock.withLock { paths } }
    }

    /// Reads a request head, then answers it and closes the connection (or, for a silent path,
    /// holds it).
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let documents: [String: Document]
        let silent: Set<String>
        let book: Book
        private var head = ByteBuffer()
        private var answered = false

        init(documents: [String: Document], silent: Set<String>, book: Book) {
            self.documents = documents
            self.silent = silent
            self.book = book
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            guard !answered else { return }
            head.writeBuffer(&bytes)
            let text = String(buffer: head)
            guard text.contains("\r\n\r\n") else { return }
            answered = true
            let target = text.split(separator: " ", maxSplits: 2).dropFirst().first.map(String.init) ?? "/"
            book.append(target)
            let path = String(target.prefix { $0 != "?" })
            if silent.contains(path) { return }
            let document = documents[path] ?? Document(status: 404, contentType: "text/plain", "not here")
            var out = context.channel.allocator.buffer(capacity: document.body.count + 128)
            out.writeString(
                "HTTP/1.1 \(document.status) \(document.status == 200 ? "OK" : "Other")\r\n"
                    + "Content-Type: \(document.contentType)\r\nContent-Length: \(document.body.count)\r\nConnection: close\r\n\r\n"
            )
            out.writeBytes(document.body)
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(out)).whenComplete { _ in channel.close(promise: nil) }
        }
    }
}
