import Foundation

/// `explorer run --report github`: GitHub Actions workflow commands, one `::error` per request
/// that did not pass, pointing at the endpoint's line in the collection, so the job's summary
/// and the pull request's diff show it where it is written.
extension RunSummary {
    /// The annotation lines (each ends with a line feed): `::error file=…,line=…,title=…::…`,
    /// and a `::notice` with the totals.
    ///
    /// - Parameter file: the collection file as the repository names it (relative to its
    ///   root); the run's `collectionFile` when `nil`.
    package func githubAnnotations(file: String? = nil) -> String {
        let file = file ?? collectionFile
        var lines = ""
        for result in results where result.outcome != .passed {
            var properties: [String] = []
            if let file { properties.append("file=\(Self.githubProperty(file))") }
            if file != nil, let line = result.line { properties.append("line=\(line)") }
            let repeated = iterations.count > 1 || result.iteration > 1 ? " #\(result.iteration)" : ""
            properties.append("title=\(Self.githubProperty("\(result.endpoint)\(repeated): \(result.statusText)"))")
            var message = result.problems
            if let trace = result.exchange?.traceID { message.append("trace id \(trace)") }
            if message.isEmpty { message = ["did not pass"] }
            lines +=
                "::error \(properties.joined(separator: ","))::"
                + Self.githubData(message.joined(separator: "\n")) + "\n"
        }
        let notice = totalsLine + (interrupted ? " (interrupted)" : "") + (stoppedLine.map { ". \($0)" } ?? "")
        lines += "::notice title=\(Self.githubProperty("explorer run \(collection)"))::\(Self.githubData(notice))\n"
        return lines
    }

    /// A command's message, escaped as the runner reads it back: `%`, CR and LF.
    static func githubData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A command's property value, escaped: as a message, and `:` and `,` too.
    static func githubProperty(_ text: String) -> String {
        githubData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
