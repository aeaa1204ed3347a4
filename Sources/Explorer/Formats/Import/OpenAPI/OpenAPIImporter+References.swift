import Foundation
import NetworkingCore
import Workspace

/// `$ref`s to other files (`resources/droplets.yml#/droplets_list`), as specifications split
/// over many files use them (DigitalOcean's: each path item is a `$ref` to another file).
///
/// Each is read from the folder of the file that holds it, never from outside the document's
/// own folder, and put in place of the reference; a local `$ref` inside another file names a
/// part of that file and is put in place too. The responses of operations are emptied before
/// anything is read (no endpoint is built from them). A file is read once; a reference that
/// leads back to itself is cut, with a warning. Example values are data: a `$ref` in one is
/// never followed (`holdsData`).
extension OpenAPIImporter {
    struct ExternalReferences {
        /// The document's folder: no reference leads outside it.
        let folder: URL
        /// The document itself.
        let document: URL
        let limits: DocumentLimits
        /// The files read so far, by path.
        var files: [String: JSONValue] = [:]
        /// The values put in place so far, by `path#pointer`.
        var resolved: [String: (value: JSONValue, count: Int)] = [:]
        /// The nodes put in place so far, within `limits.maxAliasNodes` × 10.
        var placed = 0
        var warnings: [String] = []
        /// Cut references, by `path#pointer`.
        var cut: Set<String> = []
        /// Whether the operations' `responses` are read too (checking responses needs them;
        /// building endpoints does not).
        var keepsResponses = false

        init(document: URL, tree: JSONValue, limits: DocumentLimits) {
            self.document = document.standardizedFileURL
            // The real folder: a reference is kept in it by where its file really is.
            folder = self.document.deletingLastPathComponent().resolvingSymlinksInPath()
            self.limits = limits
            files[self.document.path] = tree
        }

        /// The tree with every reference to another file put in place.
        ///
        /// - Parameter keys: where `value` is in the document (for the warnings and errors, and
        ///   to know an operation's `responses`).
        /// - Throws: `ImportError.invalidOpenAPI` naming the file and pointer of a reference that
        ///   leads nowhere or outside the folder.
        mutating func resolving(_ value: JSONValue, in file: URL, keys: [String], stack: [String]) throws -> JSONValue {
            switch value {
            case .array(let elements):
                var out: [JSONValue] = []
                out.reserveCapacity(elements.count)
                for (index, element) in elements.enumerated() {
                    out.append(try resolving(element, in: file, keys: keys + [String(index)], stack: stack))
                }
                return .array(out)
            case .object(let members):
                if let reference = members.first(where: { $0.key == "$ref" })?.value.stringValue,
                    !(reference.hasPrefix("#") && file == document)
                {
                    return try target(of: reference, in: file, keys: keys, stack: stack)
                }
                var out: [(key: String, value: JSONValue)] = []
                out.reserveCapacity(members.count)
                for member in members {
                    if !keepsResponses, member.key == "responses",
                        keys.count == 2 || (keys.count == 3 && keys[0] == "paths")
                    {
                        out.append((member.key, .object([])))
                    } else if OpenAPIImporter.holdsData(member.key, member.value, at: keys) {
                        out.append(member)
                    } else {
                        out.append(
                            (member.key, try resolving(member.value, in: file, keys: keys + [member.key], stack: stack))
                        )
                    }
                }
                return .object(out)
            default:
                return value
            }
        }

        /// What `reference`, written in `file` at `keys`, names, with its own references put in place.
        private mutating func target(of reference: String, in file: URL, keys: [String], stack: [String]) throws
            -> JSONValue
        {
            let here = "\(file.path)#\(OpenAPIImporter.pointer(keys))"
            let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let filePart = (String(parts[0]).removingPercentEncoding ?? String(parts[0]))
            let fragment = parts.count > 1 ? String(parts[1]) : ""
            let written: URL =
                filePart.isEmpty
                ? file
                : URL(fileURLWithPath: filePart, relativeTo: file.deletingLastPathComponent()).standardizedFileURL
            // Where the file really is: a symbolic link in the folder that points out of it
            // leads out of it (the check on the path as written alone let it through).
            let target = filePart.isEmpty ? file : written.resolvingSymlinksInPath()
            guard target.path.hasPrefix(folder.path.hasSuffix("/") ? folder.path : folder.path + "/") else {
                if filePart.contains("://") {
                    throw ImportError.invalidOpenAPI(
                        path: here,
                        reason: "the $ref \"\(reference)\" names a document on the network, which is not fetched.")
                }
                throw ImportError.invalidOpenAPI(
                    path: here, reason: "the $ref \"\(reference)\" leads outside the document's folder \(folder.path).")
            }
            let key = "\(target.path)#\(fragment)"
            if stack.contains(key) {
                if cut.insert(key).inserted {
                    warnings.append(
                        "\(here): the $ref \"\(reference)\" leads back to itself; "
                            + "it is read as any value where it recurs."
                    )
                }
                return .object([("description", .string("\(reference) (recursive, not expanded)"))])
            }
            if let known = resolved[key] {
                placed += known.count
                try checkPlaced(at: here)
                return known.value
            }
            let tree = try read(target, from: here, reference: reference)
            guard let value = Self.value(at: fragment, in: tree) else {
                throw ImportError.invalidOpenAPI(
                    path: here,
                    reason:
                        "the $ref \"\(reference)\" names \(fragment.isEmpty ? "/" : fragment), "
                        + "which \(target.lastPathComponent) does not have."
                )
            }
            let expanded = try resolving(value, in: target, keys: keys, stack: stack + [key])
            let count = expanded.nodeCount
            resolved[key] = (expanded, count)
            placed += count
            try checkPlaced(at: here)
            return expanded
        }

        private func checkPlaced(at here: String) throws {
            let most = limits.maxAliasNodes * 10
            guard placed > most else { return }
            throw ImportError.invalidOpenAPI(
                path: here,
                reason: "the $refs to other files put more than \(most) values in place. "
                    + "If the files are trusted, "
                    + "set \(DocumentLimits.aliasVariable) to more than \(limits.maxAliasNodes) to read them."
            )
        }

        /// The tree of another file, read once.
        private mutating func read(_ url: URL, from here: String, reference: String) throws -> JSONValue {
            if let tree = files[url.path] { return tree }
            let read: String?
            do {
                read = try limits.readText(at: url)
            } catch {
                throw ImportError.invalidOpenAPI(path: url.path, reason: "\(error.problem). \(error.advice)")
            }
            guard let text = read else {
                throw ImportError.invalidOpenAPI(
                    path: here, reason: "the $ref \"\(reference)\" names \(url.path), which cannot be read.")
            }
            let tree = try OpenAPIImporter.documentTree(text, path: url.path, limits: limits, warnings: &warnings)
            files[url.path] = tree
            return tree
        }

        /// The value a JSON pointer (RFC 6901, as a URI fragment) names.
        static func value(at fragment: String, in tree: JSONValue) -> JSONValue? {
            let pointer = fragment.removingPercentEncoding ?? fragment
            guard !pointer.isEmpty, pointer != "/" else { return tree }
            var node = tree
            for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
                let key = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                switch node {
                case .object(let members):
                    guard let next = members.first(where: { $0.key == key })?.value else { return nil }
                    node = next
                case .array(let elements):
                    guard let index = Int(key), elements.indices.contains(index) else { return nil }
                    node = elements[index]
                default:
                    return nil
                }
            }
            return node
        }
    }
}

extension JSONValue {
    /// How many values this is, counting itself and everything in it.
    var nodeCount: Int {
        switch self {
        case .array(let elements): return elements.reduce(1) { $0 + $1.nodeCount }
        case .object(let members): return members.reduce(1) { $0 + $1.value.nodeCount }
        default: return 1
        }
    }
}
