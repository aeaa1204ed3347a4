import Foundation
import NetworkingCore
import Query
import Workspace

/// One row of a data file: the variables of one iteration of `explorer run --data`.
package struct DataRow: Sendable, Hashable {
    /// Its number among the rows, from 1 (the header is not a row).
    package var number: Int
    /// The line of the file it starts on (a CSV record; the header is line 1), or `nil` for a
    /// JSON element.
    package var line: Int?
    /// Its values by column. A JSON object without a column leaves it out: the environment's
    /// value is used.
    package var values: [String: String]

    /// Creates a row.
    package init(number: Int, line: Int?, values: [String: String]) {
        self.number = number
        self.line = line
        self.values = values
    }

    /// `row 2 (line 3)`, or `row 2` for a JSON element.
    package var place: String { "row \(number)" + (line.map { " (line \($0))" } ?? "") }
}

/// A data file read whole: its columns and rows (`explorer run --data FILE`), CSV (RFC 4180,
/// a header row) or JSON (an array of objects).
package struct DataFile: Sendable, Hashable {
    /// The file as named.
    package var path: String
    /// The column names, in the order they first appear.
    package var columns: [String]
    /// The rows, in file order; at least one.
    package var rows: [DataRow]

    /// The environment variable that raises the size limit.
    package static let sizeVariable = "EXPLORER_MAX_DATA_SIZE"
    /// The largest data file by default, in bytes (64 MiB).
    package static let defaultMaxBytes = 64 << 20

    /// The size limit of this process: `EXPLORER_MAX_DATA_SIZE` (`K`, `M`, `G` understood), or
    /// the default.
    package static func maxBytes(environment: [String: String]) -> Int {
        environment[sizeVariable].flatMap(LimitSetting.size) ?? defaultMaxBytes
    }

    /// The formats a data file may have.
    package enum Format: String, Sendable {
        case csv, json
    }

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: `DataFileError`, one sentence naming the file, the line and what to do.
    package static func read(
        at path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(DataFileError) -> DataFile {
        let url = URL(fileURLWithPath: path)
        let limit = maxBytes(environment: environment)
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue,
            size > limit
        {
            throw DataFileError(
                file: path, line: nil,
                problem: "the file is \(size) bytes, over the limit of \(limit) bytes",
                advice: "set \(sizeVariable)=\(size) to read it")
        }
        guard let data = try? Data(contentsOf: url) else {
            throw DataFileError(
                file: path, line: nil, problem: "the data file cannot be read",
                advice: "check that the path names a readable file")
        }
        guard data.count <= limit else {
            throw DataFileError(
                file: path, line: nil, problem: "the file is \(data.count) bytes, over the limit of \(limit) bytes",
                advice: "set \(sizeVariable)=\(data.count) to read it")
        }
        return try parse(data, path: path)
    }

    /// Parses a data file's bytes: CSV or JSON by the extension (`.csv`, `.json`), else by
    /// the content (`[` or `{` first: JSON; other UTF-8 text: CSV).
    ///
    /// - Throws: `DataFileError`.
    package static func parse(_ data: Data, path: String) throws(DataFileError) -> DataFile {
        let format = try format(of: data, path: path)
        guard var text = String(data: data, encoding: .utf8) else {
            throw DataFileError(
                file: path, line: nil, problem: "the file is not UTF-8 text",
                advice: "save it as UTF-8 \(format == .csv ? "CSV" : "JSON")")
        }
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        switch format {
        case .csv: return try csv(text, path: path)
        case .json: return try json(text, path: path)
        }
    }

    /// CSV or JSON, or why the file is neither.
    static func format(of data: Data, path: String) throws(DataFileError) -> Format {
        let fileExtension = URL(fileURLWithPath: path).pathExtension.lowercased()
        if let known = Format(rawValue: fileExtension) { return known }
        let advice = "name it .csv (a header row, then one row per iteration) or .json (an array of objects)"
        if ["yaml", "yml", "xml", "toml", "html", "har"].contains(fileExtension) {
            throw DataFileError(
                file: path, line: nil, problem: "a .\(fileExtension) file is neither CSV nor JSON", advice: advice)
        }
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard !bytes.contains(0), String(data: Data(bytes), encoding: .utf8) != nil else {
            throw DataFileError(
                file: path, line: nil, problem: "the file is neither CSV nor JSON (it is not UTF-8 text)",
                advice: advice)
        }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{") ? .json : .csv
    }

    // MARK: - CSV

    /// A CSV file: the header's names, then one row per record.
    static func csv(_ text: String, path: String) throws(DataFileError) -> DataFile {
        let records: [CSVRecord]
        do {
            records = try CSVRecord.records(in: text)
        } catch {
            throw DataFileError(
                file: path, line: error.line, column: error.column, problem: error.problem, advice: error.advice)
        }
        guard let header = records.first else {
            throw DataFileError(
                file: path, line: nil, problem: "the file is empty",
                advice: "write a header row of variable names, then one row per iteration")
        }
        var seen: [String: Int] = [:]
        var columns: [String] = []
        for (index, raw) in header.fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                throw DataFileError(
                    file: path, line: header.line, column: nil,
                    problem: "column \(index + 1) of the header has no name",
                    advice: "name every column after the variable it gives")
            }
            if let first = seen[name] {
                throw DataFileError(
                    file: path, line: header.line, column: nil,
                    problem: "the header names \"\(name)\" twice (columns \(first + 1) and \(index + 1))",
                    advice: "give each column its own name")
            }
            seen[name] = index
            columns.append(name)
        }
        var rows: [DataRow] = []
        for record in records.dropFirst() {
            guard record.fields.count == columns.count else {
                throw DataFileError(
                    file: path, line: record.line, column: nil,
                    problem: "this row has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s") "
                        + "where the header has \(columns.count)",
                    advice: "give every row one field per column; quote a field that holds a comma (\"a,b\")")
            }
            rows.append(
                DataRow(
                    number: rows.count + 1, line: record.line,
                    values: Dictionary(uniqueKeysWithValues: zip(columns, record.fields))))
        }
        guard !rows.isEmpty else {
            throw DataFileError(
                file: path, line: nil, problem: "the file has a header but no rows",
                advice: "add one row per iteration under the header")
        }
        return DataFile(path: path, columns: columns, rows: rows)
    }

    // MARK: - JSON

    /// A JSON file: an array of objects, each an iteration; a value that is not a string is
    /// its JSON text (`1.50` stays `1.50`, `true`, `null`, `[1,2]`).
    static func json(_ text: String, path: String) throws(DataFileError) -> DataFile {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw DataFileError(
                file: path, line: error.line, column: error.column,
                problem: "the JSON does not parse: \(error.message)",
                advice: "write an array of objects, one per iteration")
        }
        let advice = "write an array of objects, one per iteration: [{\"id\": 1}, {\"id\": 2}]"
        guard case .array(let elements) = value else {
            throw DataFileError(
                file: path, line: 1, problem: "the JSON is \(kind(of: value)), not an array of objects", advice: advice)
        }
        var columns: [String] = []
        var known: Set<String> = []
        var rows: [DataRow] = []
        for (index, element) in elements.enumerated() {
            guard case .object(let members) = element else {
                throw DataFileError(
                    file: path, line: nil,
                    problem: "element \(index + 1) of the array is \(kind(of: element)), not an object", advice: advice)
            }
            var values: [String: String] = [:]
            for member in members {
                if known.insert(member.key).inserted { columns.append(member.key) }
                if case .string(let string) = member.value {
                    values[member.key] = string
                } else {
                    values[member.key] = member.value.serialized()
                }
            }
            rows.append(DataRow(number: index + 1, line: nil, values: values))
        }
        guard !rows.isEmpty else {
            throw DataFileError(file: path, line: 1, problem: "the array is empty", advice: advice)
        }
        return DataFile(path: path, columns: columns, rows: rows)
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    // MARK: - Columns the collection uses

    /// The columns no `{{…}}` of `collectionText` names: a variable, or a word of a function's
    /// arguments (`{{base64 credentials}}`, a `{{prompt "Label"}}`'s label).
    ///
    /// - Parameter collectionText: the collection file as written.
    /// - Returns: the columns, in column order.
    package func unusedColumns(in collectionText: String) -> [String] {
        var used: Set<String> = []
        for written in Template(collectionText).variableNames {
            used.insert(written)
            // The file's text as written: a quote inside a double-quoted YAML string is `\"`.
            let name = written.replacingOccurrences(of: "\\", with: "")
            for word in name.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                used.insert(word.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")))
            }
            // A prompt's label may hold spaces: `{{prompt "Your name"}}`.
            if let quote = name.firstIndex(of: "\""), let last = name.lastIndex(of: "\""), quote < last {
                used.insert(String(name[name.index(after: quote)..<last]))
            }
        }
        return columns.filter { !used.contains($0) }
    }
}

/// A data file that cannot be used: where, what, and what to do, in one line.
package struct DataFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as named.
    package var file: String
    /// The line of the problem, when one is known.
    package var line: Int?
    /// The column of the problem, when one is known.
    package var column: Int?
    /// What is wrong.
    package var problem: String
    /// What to do.
    package var advice: String

    /// Creates an error.
    package init(file: String, line: Int?, column: Int? = nil, problem: String, advice: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
        self.advice = advice
    }

    /// `users.csv:4:7: the quoted field … never closes: …`.
    package var description: String {
        let place = line.map { ":\($0)" + (column.map { ":\($0)" } ?? "") } ?? ""
        return "\(file)\(place): \(problem): \(advice)."
    }
}

/// One record of a CSV text (RFC 4180) and the line it starts on.
package struct CSVRecord: Sendable, Hashable {
    /// The line it starts on, from 1.
    package var line: Int
    /// Its fields, unquoted (`""` read as `"`).
    package var fields: [String]

    /// Creates a record.
    package init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }

    /// Why a CSV text cannot be read.
    package struct Failure: Error, Sendable, Hashable {
        /// Where, from 1.
        package var line: Int
        package var column: Int
        /// What is wrong.
        package var problem: String
        /// What to do.
        package var advice: String
    }

    /// The records of a CSV text (RFC 4180): fields separated by commas, records by CRLF, LF or
    /// CR; a field in double quotes may hold commas, line breaks and doubled quotes (`""`). A
    /// blank line is skipped; a line break at the end makes no empty record. A quote inside an
    /// unquoted field is kept as it is, as most readers do.
    ///
    /// - Throws: `Failure` for a quoted field that never closes (at the line and column its
    ///   quote opens) or a closing quote followed by more text.
    package static func records(in text: String) throws(Failure) -> [CSVRecord] {
        var records: [CSVRecord] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var column = 0
        var recordLine = 1
        // Whether anything (a character, a comma, a quote) was read in this record.
        var recordStarted = false
        var fieldQuoted = false
        var inQuotes = false
        var quoteLine = 0
        var quoteColumn = 0
        var afterClosingQuote = false
        let scalars = Array(text.unicodeScalars)
        var index = 0

        func endRecord() {
            if recordStarted {
                fields.append(String(field))
                records.append(CSVRecord(line: recordLine, fields: fields))
            }
            fields = []
            field = String.UnicodeScalarView()
            recordStarted = false
            fieldQuoted = false
            afterClosingQuote = false
        }

        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            column += 1
            if inQuotes {
                if scalar == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        field.append("\"")
                        index += 1
                        column += 1
                    } else {
                        inQuotes = false
                        afterClosingQuote = true
                    }
                } else {
                    field.append(scalar)
                    if scalar == "\n" || (scalar == "\r" && (index >= scalars.count || scalars[index] != "\n")) {
                        line += 1
                        column = 0
                    }
                }
                continue
            }
            switch scalar {
            case ",":
                if !recordStarted { recordLine = line }
                recordStarted = true
                fields.append(String(field))
                field = String.UnicodeScalarView()
                fieldQuoted = false
                afterClosingQuote = false
            case "\r", "\n":
                if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
                endRecord()
                line += 1
                column = 0
            case "\"" where field.isEmpty && !fieldQuoted:
                if !recordStarted { recordLine = line }
                recordStarted = true
                fieldQuoted = true
                inQuotes = true
                quoteLine = line
                quoteColumn = column
            default:
                if afterClosingQuote {
                    throw Failure(
                        line: line, column: column,
                        problem: "text follows the closing quote of a quoted field",
                        advice: "double a quote inside a quoted field (\"say \"\"hi\"\"\"), or quote the whole field")
                }
                if !recordStarted { recordLine = line }
                recordStarted = true
                field.append(scalar)
            }
        }
        if inQuotes {
            throw Failure(
                line: quoteLine, column: quoteColumn,
                problem: "the quoted field that starts here never closes",
                advice: "close it with a \" (and double each quote inside it: \"\")")
        }
        endRecord()
        return records
    }
}
