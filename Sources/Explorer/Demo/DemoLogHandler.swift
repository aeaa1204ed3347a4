import Foundation
import Logging

/// The demo server's log: Hummingbird's messages at `critical`, to standard error.
///
/// swift-log's `StreamLogHandler` formats its metadata again every time a value is set, and
/// Hummingbird sets a request id on the logger of every request: 4% of the demo server's CPU
/// time under `explorer load`, for messages that are never written. This one formats metadata
/// only for a message it writes.
struct DemoLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .critical
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// Where a line goes (standard error unless a test looks at it).
    let write: @Sendable (String) -> Void

    init(label: String, write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) })
    {
        self.label = label
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadataProvider?.get() ?? [:]
        all.merge(metadata) { $1 }
        if let more = event.metadata { all.merge(more) { $1 } }
        let fields = all.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        write("\(label): \(event.level): \(event.message)\(fields)\n")
    }
}
