import Foundation

/// Where something is in a file: the file's path, a 1-based line and column.
///
/// Printed as `file:line:column`, the form editors and terminals turn into links.
package struct FileLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's path as it should be shown.
    var file: String
    /// The line, from 1.
    var line: Int
    /// The column, from 1.
    var column: Int

    /// Creates a location.
    init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    package var description: String { "\(file):\(line):\(column)" }
}
