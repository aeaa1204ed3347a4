import Foundation

/// A value a `capture:` set: what it is, which endpoint set it and when.
package struct CapturedVariable: Sendable, Hashable, Codable {
    /// The largest value a capture may keep, in bytes (a whole body is usually a mistake).
    package static let maximumBytes = 64 * 1024

    /// The value.
    package var value: String
    /// The address of the endpoint that captured it (`Auth/Login`).
    package var endpoint: String
    /// When it was captured.
    package var capturedAt: Date
    /// Whether it is masked wherever it is shown.
    package var isSecret: Bool
    /// The server of the environment it was captured in (`scheme://host:port` of its
    /// `base_url`): it is used only for requests in an environment that still sends there, so
    /// a token captured from one server never goes to another the `base_url` was changed to.
    /// `nil` for a value captured before servers were recorded, which is used as before.
    package var origin: String?

    /// Creates a captured value.
    package init(value: String, endpoint: String, capturedAt: Date, isSecret: Bool, origin: String? = nil) {
        self.value = value
        self.endpoint = endpoint
        self.capturedAt = capturedAt
        self.isSecret = isSecret
        self.origin = origin
    }

    /// `scheme://host:port` of a URL, the port always written: what `origin` holds.
    package static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" || scheme == "wss" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}

/// Where captured variables are kept between runs: one file in the state folder
/// (`$XDG_STATE_HOME/explorer/captures.json`, mode 0600 in a 0700 folder), per collection
/// file and environment, until a capture replaces them or the user clears them.
///
/// Several processes may capture at once (`explorer send Login` in two shells): each change
/// is a read-modify-write under an exclusive `flock`, and the file is replaced atomically.
package struct CaptureStore: Sendable {
    /// The file.
    package let fileURL: URL

    /// A store in a file.
    package init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// The store in the state folder of a process environment.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(
            fileURL: XDGDirectories(environment: environment).stateDirectory.appendingPathComponent("captures.json"))
    }

    /// The file's contents: collection path → environment → variable → value.
    private typealias Contents = [String: [String: [String: CapturedVariable]]]

    /// Why the store could not be read or written, in one sentence.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The captured variables of an environment of a collection.
    ///
    /// - Parameters:
    ///   - collection: the collection file's path (its captures are kept apart from others').
    ///   - environment: the environment's name.
    /// - Returns: the variables by name; empty when none were captured or the file is unreadable.
    package func variables(collection: String, environment: String) -> [String: CapturedVariable] {
        (try? read())?[collection]?[environment] ?? [:]
    }

    /// Keeps captured values, replacing those of the same names.
    ///
    /// - Throws: `Failure` when the file cannot be written.
    package func store(_ values: [String: CapturedVariable], collection: String, environment: String) throws {
        guard !values.isEmpty else { return }
        try update { contents in
            contents[collection, default: [:]][environment, default: [:]].merge(values) { _, new in new }
        }
    }

    /// Forgets one captured variable, or all of an environment's when `name` is `nil`.
    ///
    /// - Throws: `Failure` when the file cannot be written.
    package func clear(_ name: String? = nil, collection: String, environment: String) throws {
        try update { contents in
            if let name {
                contents[collection]?[environment]?[name] = nil
            } else {
                contents[collection]?[environment] = nil
            }
        }
    }

    // MARK: - The file

    private var file: PrivateJSONFile<Contents> {
        PrivateJSONFile(fileURL, holding: "the captured variables", empty: [:])
    }

    private func read() throws -> Contents {
        do { return try file.read() } catch { throw Failure(description: "\(error)") }
    }

    private func update(_ change: (inout Contents) -> Void) throws {
        do { try file.update(change) } catch { throw Failure(description: "\(error)") }
    }
}
