import Foundation
import SCAEngine

/// The live overview's sparklines: an hour of per-minute counts as a line over a filled area,
/// drawn as inline SVG by the template. The drawing carries its figures (`data-counts`,
/// `data-total`) and a title, and the table under the sparklines holds the same numbers.
enum ConsoleSparkline {
    static let width = 240.0
    static let height = 48.0
    /// Room above the highest minute, so the line never touches the frame.
    static let top = 4.0

    /// The values a sparkline of `counts` (oldest minute first) shows.
    static func values(
        _ series: ActivityHistory.Series, counts: [Int], words: PageWords
    ) -> [String: Any] {
        let peak = counts.max() ?? 0
        let total = counts.reduce(0, +)
        let scale = Double(max(peak, 1))
        let step = width / Double(max(counts.count - 1, 1))
        let points = counts.enumerated().map { index, count in
            "\(ConsoleCharts.number(Double(index) * step)),\(ConsoleCharts.number(height - Double(count) / scale * (height - top)))"
        }
        let line = points.joined(separator: " ")
        let name = words.text("console.overview.series.\(series.rawValue)")
        return [
            "id": "spark-\(series.rawValue)", "series": series.rawValue, "name": name,
            "line": line,
            // The same line closed along the bottom edge, for the area under it.
            "area": "0.0,\(ConsoleCharts.number(height)) \(line) \(ConsoleCharts.number(width)),\(ConsoleCharts.number(height))",
            "counts": counts.map(String.init).joined(separator: ","),
            "total": String(total), "peak": String(peak), "current": String(counts.last ?? 0),
            "detail": words.text("console.overview.detail", ["current": String(counts.last ?? 0), "peak": String(peak)]),
            "summary": words.text("console.overview.summary", ["name": name, "total": String(total), "peak": String(peak)]),
        ]
    }
}
