import Crypto
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A collection as its text parses, before what it reaches is found on this machine: what
/// `CollectionCache` keeps.
package struct ParsedCollection: Codable, Sendable {
    /// The collection (its `.env` values are not kept: they are read beside it each load).
    package var collection: APICollection
    /// The texts of the file that hold a template (`{{`), each once: what `CollectionReach`
    /// reads of it.
    package var templateTexts: [String]
    /// How many times each of `templateTexts` is written, in the same order (empty when not
    /// counted), so an edit that drops one's last use drops it (`CollectionPatch`).
    package var templateCounts: [Int] = []
    /// Whether an edit within one endpoint may be read alone (`CollectionPatch`): the text was
    /// read without anchors, aliases or merge keys, whose reach is not local.
    package var patchable = false
}

/// Parsed collections kept between launches, so that a large collection opens without its YAML
/// being read again.
///
/// One file per collection in `$XDG_STATE_HOME/explorer/collections/` (mode 0600 in a 0700
/// folder), named by a digest of the collection's path. An entry is used only when all that a
/// parse depends on is what it was when the entry was written: this program (its file's size,
/// time and inode: another build parses differently), the cache's format, the document limits,
/// the collection's path and size, and the SHA-256 of its whole text, computed at each load
/// (a file's time alone is never trusted). The entry's own SHA-256 is checked before it is
/// decoded, so a damaged file is parsed again, never half read. What the collection reaches
/// (files through links, the `.env`) is found again at each load, and the `.env` values are
/// read again, never kept.
///
/// Only collections of `minimumBytes` or more are kept (a smaller one parses about as fast as
/// the cache reads), and at most `maximumEntries` files, the least recently used dropped
/// first; an entry larger than `maximumEntryBytes` is not written. `EXPLORER_COLLECTION_CACHE=off`
/// turns the cache off.
package struct CollectionCache: Sendable {
    /// The version of the file layout and of the model's coding: entries of another are not read.
    package static let formatVersion = 2
    /// The smallest collection text kept, in bytes.
    package static let minimumBytes = 256 << 10
    /// The most entries kept.
    package static let maximumEntries = 8
    /// The environment variable that turns the cache off (`off`, `0`, `false`, `no`).
    package static let switchVariable = "EXPLORER_COLLECTION_CACHE"

    /// Where entries are written after a load has returned, one at a time.
    package static let writing = DispatchQueue(label: "explorer.collection-cache", qos: .utility)
    /// How long after a patched reload its entry is written (`writeAfterEdits`).
    static let editsSettle: DispatchTimeInterval = .seconds(1)
    /// The number of the last write `writeAfterEdits` was given.
    private static let lastEditWrite = Mutex<UInt64>(0)

    /// Writes an entry `editsSettle` after the save it holds, unless another save's comes
    /// first: writing 9 MB of a collection after every save of a few would take the time of the
    /// saves' reloads. A process that ends before then writes nothing (the next start parses).
    static func writeAfterEdits(_ write: @escaping @Sendable () -> Void) {
        let number = lastEditWrite.withLock { last in
            last += 1
            return last
        }
        writing.asyncAfter(deadline: .now() + editsSettle) {
            guard lastEditWrite.withLock({ $0 == number }) else { return }
            write()
        }
    }

    /// The folder the entries are in.
    package let directory: URL
    /// The limits the collections are parsed within (part of every key).
    package let limits: DocumentLimits

    /// The largest entry written or read: four times the largest collection text.
    package var maximumEntryBytes: Int { limits.maxBytes.multipliedReportingOverflow(by: 4).partialValue }

    /// The cache of this process, or `nil` when `EXPLORER_COLLECTION_CACHE` turns it off.
    package static let current = CollectionCache(environment: ProcessInfo.processInfo.environment)

    /// The cache in the state folder of a process environment, or `nil` when its
    /// `EXPLORER_COLLECTION_CACHE` turns it off.
    package init?(environment: [String: String]) {
        if let setting = environment[Self.switchVariable]?.lowercased(), ["off", "0", "false", "no"].contains(setting) {
            return nil
        }
        self.init(
            directory: XDGDirectories(environment: environment).stateDirectory.appendingPathComponent(
                "collections", isDirectory: true))
    }

    /// A cache in a folder.
    package init(directory: URL, limits: DocumentLimits = .current) {
        self.directory = directory
        self.limits = limits
    }

    /// Where a collection's entry is, and what it must say it was made from.
    package struct Key: Sendable, Hashable {
        /// The entry's file.
        package var file: URL
        /// What the entry was made from, as the entry starts.
        package var text: String
    }

    /// The key of a collection's text, or `nil` when it is too small to keep (or this program's
    /// file cannot be told).
    package func key(for url: URL, text: String) -> Key? {
        let size = text.utf8.count
        guard size >= Self.minimumBytes, let program = Self.programIdentity else { return nil }
        let path = url.standardizedFileURL.path
        var hasher = SHA256()
        var copy = text
        copy.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        let keyText = """
            explorer collection cache \(Self.formatVersion)
            program \(program)
            limits \(limits.maxBytes) \(limits.maxDepth) \(limits.maxAliasNodes)
            path \(path)
            size \(size)
            sha256 \(hasher.finalize().hexDigits)

            """
        let name = SHA256.hash(data: Data(path.utf8)).hexDigits.prefix(32)
        return Key(file: directory.appendingPathComponent("\(name).cache"), text: keyText)
    }

    /// The parse kept for a key, or `nil` when there is none, or it was made from anything else,
    /// or it is damaged.
    ///
    /// - Parameter dotEnv: the `.env` values beside the collection now, given to its
    ///   environments.
    package func read(_ key: Key, dotEnv: [String: String]) -> ParsedCollection? {
        guard let bytes = Self.readFile(key.file.path, limit: maximumEntryBytes) else { return nil }
        let expected = Array(key.text.utf8)
        let digestStart = expected.count
        let payloadStart = digestStart + SHA256.byteCount
        guard bytes.count > payloadStart, bytes[0..<digestStart].elementsEqual(expected) else { return nil }
        let parsed: ParsedCollection? = bytes.withUnsafeBufferPointer { buffer in
            let payload = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[payloadStart...]))
            guard SHA256.hash(data: payload).elementsEqual(buffer[digestStart..<payloadStart]) else { return nil }
            return try? decode(payload, dotEnv: dotEnv)
        }
        // Used: the last to be dropped.
        if parsed != nil { utimes(key.file.path, nil) }
        return parsed
    }

    /// Keeps a parse under a key, dropping the least recently used entries past
    /// `maximumEntries`. Best effort: a cache that cannot be written is no cache, not an error.
    package func write(_ parsed: ParsedCollection, for key: Key) {
        guard let payload = try? Self.encode(parsed) else { return }
        var bytes = Array(key.text.utf8)
        guard bytes.count + SHA256.byteCount + payload.count <= maximumEntryBytes else { return }
        do {
            // A folder others may open is made private; one that cannot be, keeps nothing.
            guard try PrivateFiles.prepareDirectory(at: directory) == nil else { return }
        } catch {
            return
        }
        bytes.append(contentsOf: SHA256.hash(data: payload))
        bytes.append(contentsOf: payload)
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp").path
        guard Self.create(temporary, with: bytes) else { return }
        guard rename(temporary, key.file.path) == 0 else {
            unlink(temporary)
            return
        }
        prune(keeping: key.file.lastPathComponent)
    }

    /// Drops the entries used longest ago past `maximumEntries` (never `kept`, the one just
    /// written), and temporary files a stopped process left.
    private func prune(keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        var entries: [(name: String, used: Double)] = []
        let now = Date().timeIntervalSince1970
        for name in names {
            var status = stat()
            let path = directory.appendingPathComponent(name).path
            guard lstat(path, &status) == 0 else { continue }
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            if name.hasSuffix(".tmp") {
                if now - modified > 3600 { unlink(path) }
            } else if name.hasSuffix(".cache"), name != kept {
                entries.append((name, modified))
            }
        }
        for entry in entries.sorted(by: { $0.used > $1.used }).dropFirst(Self.maximumEntries - 1) {
            unlink(directory.appendingPathComponent(entry.name).path)
        }
    }

    // MARK: - Coding

    /// The payload: the byte count of the rest of the collection (8 bytes, little-endian), the
    /// rest of it with `CompactCoding`, then the endpoint tree (`CachedItemsWriter`).
    private static func encode(_ parsed: ParsedCollection) throws -> [UInt8] {
        let rest = try CompactCoding.encode(parsed)
        let items = try CachedItemsWriter.encode(parsed.collection.items)
        var payload = withUnsafeBytes(of: UInt64(rest.count).littleEndian, Array.init)
        payload.reserveCapacity(payload.count + rest.count + items.count)
        payload += rest
        payload += items
        return payload
    }

    /// The `.env` values go to the environments as they are decoded (`CodingUserInfoKey.dotEnv`).
    private func decode(_ payload: UnsafeRawBufferPointer, dotEnv: [String: String]) throws -> ParsedCollection {
        guard payload.count >= 8 else { throw CachedItemsReader.Damaged(offset: 0) }
        let restCount = UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self))
        guard restCount <= payload.count - 8 else { throw CachedItemsReader.Damaged(offset: 0) }
        let itemsStart = 8 + Int(restCount)
        var parsed = try CompactCoding.decode(
            ParsedCollection.self, from: UnsafeRawBufferPointer(rebasing: payload[8..<itemsStart]),
            userInfo: [.dotEnv: dotEnv])
        parsed.collection.items = try CachedItemsReader.decode(
            UnsafeRawBufferPointer(rebasing: payload[itemsStart...]), maximumDepth: limits.maxDepth)
        return parsed
    }

    // MARK: - Files

    /// This program's file, as its size, time and inode: a rebuilt program reads no entry of
    /// the one before. `nil` when it cannot be told (then nothing is kept).
    static let programIdentity: String? = {
        #if os(Linux)
        let path = "/proc/self/exe"
        #else
        guard let path = Bundle.main.executablePath else { return nil }
        #endif
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        #if os(Linux)
        let time = "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        #else
        let time = "\(status.st_mtimespec.tv_sec).\(status.st_mtimespec.tv_nsec)"
        #endif
        return "\(status.st_size) \(time) \(status.st_dev):\(status.st_ino)"
    }()

    /// The bytes of a regular file no larger than `limit`, or `nil`.
    private static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= limit else {
            return nil
        }
        let size = Int(status.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < size {
                let count = systemRead(descriptor, buffer.baseAddress! + done, size - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// Writes a new private file (0600) whole; false (and no file) when it cannot.
    private static func create(_ path: String, with bytes: [UInt8]) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, PrivateFiles.fileMode)
        guard descriptor >= 0 else { return false }
        let complete = bytes.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        close(descriptor)
        if !complete { unlink(path) }
        return complete
    }

}

private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, bytes, count)
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
