import Foundation

/// The pieces every HTML report is made of: one self-contained page with its style inline,
/// no script and no external resource, so it opens under
/// `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; img-src data:`
/// (Jenkins' default policy is stricter than most: it blocks every script).
///
/// Everything a response or a collection brings is text here: `escape` turns markup
/// characters into entities and control characters into visible `\u{…}`, so a body holding
/// `</pre><script>` stays text.
package enum HTMLReport {
    /// The page: the document type, the inline style, the title and the body's markup.
    ///
    /// - Parameters:
    ///   - title: the title (escaped here).
    ///   - body: the markup inside `<body>`, already escaped.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="explorer">
        <title>\(escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// Text made safe for HTML text and attribute values: `& < > " '` as entities; control
    /// characters (but tab and line feed), C1 controls and noncharacters as `\u{…}`, which an
    /// HTML parser would otherwise report as errors.
    package static func escape(_ text: String) -> String {
        // Most text has nothing to escape: copied as it is.
        let plain = !text.utf8.contains { byte in
            byte < 0x20 || byte >= 0x7F || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
        }
        if plain { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where isDisallowed(scalar.value): out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isDisallowed(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// Milliseconds as a report shows them: `0.42 ms`, `12.3 ms`, `1,204 ms`.
    static func milliseconds(_ value: Double) -> String {
        if value < 10 { return String(format: "%.2f ms", value) }
        if value < 100 { return String(format: "%.1f ms", value) }
        return Int(value.rounded()).formatted(.number.grouping(.automatic)) + " ms"
    }

    /// Bytes as a report shows them: `512 B`, `12.5 KiB`, `3.1 MiB`.
    static func bytes(_ value: Int) -> String {
        if value < 1024 { return "\(value) B" }
        if value < 1024 * 1024 { return String(format: "%.1f KiB", Double(value) / 1024) }
        return String(format: "%.1f MiB", Double(value) / 1024 / 1024)
    }

    /// The summary's figures, each a labelled number with an id a test (or a person's
    /// stylesheet) can find.
    static func summary(_ figures: [(id: String, label: String, value: String, role: String?)]) -> String {
        var html = "<section class=\"summary\" id=\"summary\" aria-label=\"Summary\">\n"
        for figure in figures {
            let role = figure.role.map { " \($0)" } ?? ""
            html +=
                "<div class=\"figure\(role)\"><span class=\"label\">\(escape(figure.label))</span>"
                + "<span class=\"value\" id=\"\(figure.id)\">\(escape(figure.value))</span></div>\n"
        }
        return html + "</section>\n"
    }

    /// One endpoint's latency: its figures (count, min, max, mean, stddev, p50/p90/p95/p99),
    /// its histogram and its percentile curve.
    static func latencySection(_ latency: LatencyDistribution, index: Int) -> String {
        var html = "<article class=\"latency\" id=\"latency-\(index)\">\n<h3>\(escape(latency.name))</h3>\n"
        html += "<table class=\"figures\"><thead><tr><th>count</th><th>min</th><th>max</th><th>mean</th>"
        html += "<th>stddev</th>"
        for point in latency.named { html += "<th>p\(Int(point.percentile))</th>" }
        html += "</tr></thead><tbody><tr><td>\(latency.count)</td>"
        for value in [latency.minimum, latency.maximum, latency.mean, latency.standardDeviation] {
            html += "<td>\(milliseconds(value))</td>"
        }
        for point in latency.named { html += "<td>\(milliseconds(point.milliseconds))</td>" }
        html += "</tr></tbody></table>\n<div class=\"charts\">\n"
        html += "<figure><figcaption>Histogram</figcaption>\n\(SVGChart.histogram(latency))</figure>\n"
        html += "<figure><figcaption>Percentiles</figcaption>\n\(SVGChart.percentileCurve(latency))</figure>\n"
        return html + "</div>\n</article>\n"
    }

    /// The report's style: light and dark, readable when printed.
    static let style = """

        :root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa;
          --line: #d1d9e0; --pass: #1a7f37; --fail: #cf222e; --error: #9a6700; --bar: #0969da; }
        @media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117;
          --panel: #151b23; --line: #3d444d; --pass: #3fb950; --fail: #f85149; --error: #d29922; --bar: #4493f8; } }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 1200px; padding: 24px; font: 14px/1.45 system-ui, sans-serif;
          color: var(--fg); background: var(--bg); }
        h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; }
        h3 { font-size: 15px; margin: 16px 0 6px; } h4 { font-size: 13px; margin: 12px 0 4px; color: var(--muted); }
        .meta { color: var(--muted); margin: 0; }
        .note { padding: 8px 12px; border-left: 4px solid var(--error); background: var(--panel); }
        .summary { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
        .figure { min-width: 120px; padding: 10px 14px; border: 1px solid var(--line); border-radius: 6px;
          background: var(--panel); }
        .figure .label { display: block; color: var(--muted); font-size: 12px; text-transform: uppercase; }
        .figure .value { display: block; font-size: 24px; font-weight: 600; }
        .figure.pass .value { color: var(--pass); } .figure.fail .value { color: var(--fail); }
        .figure.error .value { color: var(--error); }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { color: var(--muted); font-weight: 600; font-size: 12px; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        tr.failed td.mark, .failed .mark { color: var(--fail); } tr.error td.mark { color: var(--error); }
        tr.passed td.mark { color: var(--pass); }
        .problems { margin: 2px 0 0; padding-left: 18px; color: var(--fail); }
        article.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px;
          padding: 4px 16px 12px; margin: 12px 0; }
        pre { margin: 0; padding: 8px; background: var(--panel); border: 1px solid var(--line); border-radius: 4px;
          overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
        code, .trace { font-family: ui-monospace, monospace; font-size: 12px; }
        .exchange { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 12px; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 12px; }
        figure { margin: 0; } figcaption { color: var(--muted); font-size: 12px; }
        svg { width: 100%; height: auto; display: block; }
        svg text { fill: var(--muted); font: 11px system-ui, sans-serif; }
        svg .axis { stroke: var(--line); stroke-width: 1; }
        svg .bar, svg .bucket { fill: var(--bar); } svg .bar.failed { fill: var(--fail); }
        svg .bar.error { fill: var(--error); }
        svg .curve { fill: none; stroke: var(--bar); stroke-width: 2; } svg .mark { fill: var(--fail); }
        @media print { pre { max-height: none; } }

        """
}
