import Foundation
import NetworkingCore

/// JSON appended straight to UTF-8 bytes, member by member: what the run's JSON report is
/// written with, so a report of 10,000 requests builds no dictionary, boxes no value and
/// sorts no keys (the report's members are written in sorted order by its code).
///
/// Strings are escaped by `JSONValue.quote` (`"`, `\`, control characters; `/` and non-ASCII
/// characters as they are); numbers as Swift writes them (`30.0`, `0.125`).
struct JSONReportWriter {
    /// The text so far.
    private(set) var bytes: [UInt8] = []

    /// Creates a writer with room for about `capacity` bytes.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends text as it is: punctuation, line breaks, indentation.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a member's key and its colon, after a comma unless it is the object's first,
    /// and after `indent` (a line break and spaces in the report's outer levels).
    mutating func key(_ name: StaticString, first: Bool = false, indent: StaticString = "") {
        if !first { bytes.append(UInt8(ascii: ",")) }
        raw(indent)
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// Appends a string literal, escaped by `JSONValue.quote`.
    mutating func string(_ text: String) {
        JSONValue.quote(text, to: &bytes)
    }

    /// Appends a string literal, or `null`.
    mutating func string(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    /// Appends an integer.
    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Appends an integer, or `null`.
    mutating func int(_ value: Int?) {
        if let value { int(value) } else { raw("null") }
    }

    /// Appends a number in Swift's shortest form (`30.0`, `0.125`, `1e-05`, all JSON); one
    /// that is not finite as `0`.
    mutating func number(_ value: Double) {
        if value.isFinite { bytes.append(contentsOf: value.description.utf8) } else { raw("0") }
    }

    /// Appends a number rounded to `places` decimals, or `null`.
    mutating func rounded(_ value: Double?, places: Int) {
        if let value { number(RunSummary.rounded(value, places: places)) } else { raw("null") }
    }

    /// Appends `true` or `false`.
    mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// Appends an array of strings, on one line.
    mutating func strings(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
