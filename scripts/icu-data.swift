// The ICU data explorer needs, out of the 34 MB the static Foundation links in.
//
//   swift scripts/icu-data.swift ARCHIVE OUTPUT_DIR     write OUTPUT_DIR/icudt<N>l.dat (the
//                                                       trimmed package) and icudata.S (it as
//                                                       explorer_icudt<N>_dat, for clang -c)
//   swift scripts/icu-data.swift --list ARCHIVE         list the items kept, with their sizes
//
// ARCHIVE is the toolchain's lib_FoundationICU.a (swift_static/linux). Its member
// icu_packaged_data.cpp.o defines one symbol, icudt<N>_dat: an ICU common-data package (a
// header, a table of contents of named items, the items) with every locale's data. When that
// symbol is defined before the linker searches the archive (scripts/install links icudata.o
// with `--defsym icudt<N>_dat=explorer_icudt<N>_dat`), the member is never pulled in; this
// tool makes the data with only what explorer can use:
//
// - locale data of root and English only (`root`, `en`, `en_*` in every tree): explorer formats
//   dates and numbers with en_US_POSIX or ISO 8601; other locales fall back to root;
// - no transliterators (translit/), no dictionaries for Thai, Lao, Khmer, Burmese or CJK word
//   breaks (brkitr/*.dict: breaks in those scripts fall back to one per character);
// - of the 197 character-set converters, those TextDecoding names (ISO-8859-2, windows-1250
//   to -1252, Shift_JIS, EUC-JP); UTF-8/16/32, ASCII and Latin-1 are built into ICU;
// - everything else as it is: time zones and metazones, calendars, plurals, likely subtags and
//   the other supplemental data, collation (root and the UCA table), normalization and UTS #46
//   (IDNA), string preparation, break rules, character names.
//
// Needs only Swift (this runs as a script) and, for the object, the toolchain's clang.
import Foundation

/// Why the tool stopped, said to the person running it.
struct ToolError: Error, CustomStringConvertible {
    let description: String
}

/// A byte buffer read as little-endian fields.
struct Bytes {
    let data: [UInt8]

    func uint16(_ offset: Int) -> Int { Int(data[offset]) | Int(data[offset + 1]) << 8 }
    func uint32(_ offset: Int) -> Int { uint16(offset) | uint16(offset + 2) << 16 }
    func uint64(_ offset: Int) -> Int { uint32(offset) | uint32(offset + 4) << 32 }

    /// The NUL-terminated string at `offset`.
    func string(_ offset: Int) -> String {
        var end = offset
        while end < data.count, data[end] != 0 { end += 1 }
        return String(decoding: data[offset..<end], as: UTF8.self)
    }
}

/// The member named `member` of a Unix `ar` archive (GNU long names).
func archiveMember(_ member: String, in archive: Bytes, path: String) throws -> Bytes {
    let data = archive.data
    guard data.starts(with: Array("!<arch>\n".utf8)) else { throw ToolError(description: "\(path): not an ar archive") }
    var offset = 8
    var longNames = Bytes(data: [])
    while offset + 60 <= data.count {
        let field = { (from: Int, length: Int) in
            String(decoding: data[(offset + from)..<(offset + from + length)], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        guard let size = Int(field(48, 10)) else { throw ToolError(description: "\(path): bad member header at byte \(offset)") }
        let start = offset + 60
        guard start + size <= data.count else { throw ToolError(description: "\(path): member at byte \(offset) runs past the end") }
        var name = field(0, 16)
        if name == "//" {
            longNames = Bytes(data: Array(data[start..<(start + size)]))
        } else if name.hasPrefix("/"), let index = Int(name.dropFirst()) {
            name = String(longNames.string(index).split(separator: "\n").first ?? "")
        }
        if name.hasSuffix("/") { name.removeLast() }
        if name == member { return Bytes(data: Array(data[start..<(start + size)])) }
        offset = start + size + size % 2
    }
    throw ToolError(description: "\(path) has no member \(member): is it the toolchain's lib_FoundationICU.a?")
}

/// The contents of the section named `name` of a 64-bit little-endian ELF object.
func elfSection(_ name: String, in object: Bytes, path: String) throws -> Bytes {
    guard object.data.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]) else {
        throw ToolError(description: "\(path): the ICU data member is not a 64-bit little-endian ELF object")
    }
    let table = object.uint64(0x28), entrySize = object.uint16(0x3A), count = object.uint16(0x3C)
    let names = object.uint64(table + object.uint16(0x3E) * entrySize + 24)
    for index in 0..<count {
        let header = table + index * entrySize
        if object.string(names + object.uint32(header)) == name {
            let start = object.uint64(header + 24), size = object.uint64(header + 32)
            return Bytes(data: Array(object.data[start..<(start + size)]))
        }
    }
    throw ToolError(description: "\(path): the ICU data member has no \(name) section")
}

/// An ICU common-data package: its header and its items, in table-of-contents order (by name,
/// which ICU's lookup relies on).
struct DataPackage {
    let header: [UInt8]
    var items: [(name: String, bytes: ArraySlice<UInt8>)]

    init(_ package: Bytes) throws {
        let headerSize = package.uint16(0)
        guard package.data.count > headerSize + 4, package.data[2] == 0xDA, package.data[3] == 0x27,
              Array(package.data[12..<16]) == Array("CmnD".utf8)
        else { throw ToolError(description: "the ICU data is not a common-data package (CmnD)") }
        header = Array(package.data[0..<headerSize])
        let toc = headerSize, count = package.uint32(toc)
        items = (0..<count).map { index in
            let name = package.string(toc + package.uint32(toc + 4 + 8 * index))
            let start = toc + package.uint32(toc + 8 + 8 * index)
            let end = index + 1 < count ? toc + package.uint32(toc + 8 + 8 * (index + 1)) : package.data.count
            return (name, package.data[start..<end])
        }
    }

    /// The package as ICU reads it: header, count, (name offset, data offset) pairs relative to
    /// the count, the names, then the items, each on a 16-byte boundary.
    var bytes: [UInt8] {
        var out = header
        func append32(_ value: Int) { out += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        var names: [UInt8] = []
        var nameOffsets: [Int] = []
        let namesStart = 4 + 8 * items.count
        for item in items {
            nameOffsets.append(namesStart + names.count)
            names += Array(item.name.utf8) + [0]
        }
        var dataOffset = namesStart + names.count
        dataOffset += (16 - (header.count + dataOffset) % 16) % 16
        var dataOffsets: [Int] = []
        for item in items {
            dataOffsets.append(dataOffset)
            dataOffset += item.bytes.count
            dataOffset += (16 - dataOffset % 16) % 16
        }
        append32(items.count)
        for (name, data) in zip(nameOffsets, dataOffsets) { append32(name); append32(data) }
        out += names
        for (item, offset) in zip(items, dataOffsets) {
            out += [UInt8](repeating: 0, count: header.count + offset - out.count)
            out += item.bytes
        }
        return out
    }
}

/// The converters TextDecoding's charsets open, under ICU's names (`uconv -l`).
let converters: Set<String> = [
    "ibm-912_P100-1995",  // ISO-8859-2
    "ibm-5346_P100-1998", "ibm-5347_P100-1998", "ibm-5348_P100-1997",  // windows-1250 ... 1252
    "ibm-1250_P100-1995", "ibm-1251_P100-1995", "ibm-1252_P100-2000",
    "ibm-943_P15A-2003", "ibm-943_P130-1999",  // Shift_JIS
    "euc-jp-2007", "ibm-33722_P12A_P12A-2009_U2",  // EUC-JP
]

/// Whether explorer keeps the item `name` (`icudt76l/zone/en_GB.res`).
func keeps(_ name: String) -> Bool {
    let path = name.split(separator: "/").dropFirst()
    let tree = path.count > 1 ? String(path.first!) : ""
    let file = String(path.last ?? "")
    let base = String(file.split(separator: ".").first ?? ""), type = String(file.split(separator: ".").last ?? "")
    if tree == "translit" || type == "dict" { return false }
    if type == "cnv" { return converters.contains(base) }
    // Locale data: a language code (2-3 letters), then subtags (`en`, `en_GB`, `zh_Hant_HK`).
    let parts = base.split(separator: "_")
    let isLocale = type == "res" && base != "res_index" && (2...3).contains(parts[0].count)
        && parts[0].allSatisfy { $0.isASCII && $0.isLowercase }
    return !isLocale || parts[0] == "en" || base == "root"
}

func run(_ arguments: [String]) throws {
    let list = arguments.first == "--list"
    let operands = Array(arguments.dropFirst(list ? 1 : 0))
    guard operands.count == (list ? 1 : 2) else {
        throw ToolError(description: "usage: swift scripts/icu-data.swift ARCHIVE OUTPUT_DIR | --list ARCHIVE")
    }
    let path = operands[0]
    guard let archive = FileManager.default.contents(atPath: path) else { throw ToolError(description: "cannot read \(path)") }
    let object = try archiveMember("icu_packaged_data.cpp.o", in: Bytes(data: Array(archive)), path: path)
    var package = try DataPackage(elfSection(".rodata", in: object, path: path))
    let all = package.items.count
    package.items = package.items.filter { keeps($0.name) }
    // icudt76l/... is the package icudt76, little-endian; its symbol is icudt76_dat.
    guard let prefix = package.items.first?.name.split(separator: "/").first, prefix.hasSuffix("l") else {
        throw ToolError(description: "\(path): the ICU data items have no icudt<N>l/ prefix")
    }
    let bytes = package.bytes
    if list {
        for item in package.items { print(item.name, item.bytes.count) }
        print("\(package.items.count) of \(all) items, \(bytes.count) bytes")
        return
    }
    let folder = URL(fileURLWithPath: operands[1], isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let dat = folder.appendingPathComponent("\(prefix).dat")
    try Data(bytes).write(to: dat)
    let symbol = "explorer_\(prefix.dropLast())_dat"
    let assembly = """
        .section .rodata.\(symbol),"a",@progbits
        .globl \(symbol)
        .type \(symbol),@object
        .balign 16
        \(symbol):
        .incbin "\(dat.path)"
        .size \(symbol), . - \(symbol)
        .section .note.GNU-stack,"",@progbits

        """
    try assembly.write(to: folder.appendingPathComponent("icudata.S"), atomically: true, encoding: .utf8)
    print("ICU data: \(package.items.count) of \(all) items, \(bytes.count / 1_000_000) MB of \(object.data.count / 1_000_000) (\(symbol))")
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("icu-data: \(error)\n".utf8))
    exit(1)
}
