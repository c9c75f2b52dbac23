import Foundation
import SCACore
import SCAEngine

/// The geometry of the risk page's charts, drawn as inline SVG by the templates: no script and
/// nothing loaded from elsewhere. Every mark carries its figure in a `data-` attribute and a
/// `<title>`, and each chart has a table beside it with the same figures, for a screen reader
/// and for anyone who wants the numbers rather than the shape.
enum ConsoleCharts {
    /// The drawing's size in its own units; the page scales it to the width there is.
    static let width = 480.0
    static let height = 240.0
    /// Room for the axis labels on the left and the quarters or weeks below.
    static let left = 64.0
    static let right = 8.0
    static let top = 12.0
    static let bottom = 28.0

    static var plotWidth: Double { width - left - right }
    static var plotHeight: Double { height - top - bottom }

    /// One of the three TRA bands' reference lines, told apart by colour and dash.
    static let referenceStyles = ["ref-1", "ref-2", "ref-3"]

    /// The fraud rate of one payment type per quarter (bars) against the reference rate of
    /// each TRA band (lines).
    static func fraudRates(_ type: PaymentType, reports: [RiskReport], words: PageWords) -> [String: Any] {
        let rates = reports.map { report in report.types.first { $0.type == type } }
        let values = rates.map { $0.flatMap { Double($0.ratePercent) } ?? 0 }
        let bands = rates.last??.bands ?? []
        let references = bands.map { Double($0.referencePercent) ?? 0 }
        let scale = niceMaximum((values + references).max() ?? 0)
        let slot = plotWidth / Double(max(reports.count, 1))
        // A bar's figure sits above the bar and above every reference line, which would
        // otherwise cross it where the rate is low.
        let highestLine = top + plotHeight - (references.max() ?? 0) / scale * plotHeight
        var bars: [[String: Any]] = []
        for (index, report) in reports.enumerated() {
            let rate = rates[index]?.ratePercent ?? "0.000000"
            let barHeight = values[index] / scale * plotHeight
            let x = left + Double(index) * slot + slot * 0.25
            let y = top + plotHeight - barHeight
            var bar: [String: Any] = [
                "x": number(x), "y": number(y), "width": number(slot * 0.5), "height": number(barHeight),
                "labelX": number(x + slot * 0.25), "labelY": number(max(min(y, highestLine) - 5, top + 10)), "axisY": number(top + plotHeight + 16),
                "quarter": report.quarter, "rate": rate, "label": words.text("console.risk.rate", ["rate": rate]),
            ]
            if index == reports.count - 1 { bar["current"] = true }
            bars.append(bar)
        }
        let lines = bands.enumerated().map { index, band -> [String: Any] in
            let y = top + plotHeight - (references[index] / scale * plotHeight)
            return [
                "y": number(y), "x1": number(left), "x2": number(width - right), "reference": band.referencePercent,
                "style": referenceStyles[index % referenceStyles.count],
                "label": words.text("console.risk.band", ["amount": band.maxAmount, "rate": band.referencePercent]),
            ]
        }
        return [
            "id": "rates-\(type.rawValue)", "type": type.rawValue, "bars": bars, "references": lines,
            "ticks": ticks(scale) { words.text("console.risk.rate", ["rate": percentText($0)]) },
            "frame": frame,
        ]
    }

    /// The payments each exemption let through per week, stacked.
    static func exemptions(_ activity: RiskActivity, words: PageWords) -> [String: Any] {
        let totals = activity.weeks.map { $0.granted.values.reduce(0, +) }
        let scale = niceMaximum(Double(totals.max() ?? 0), whole: true)
        let slot = plotWidth / Double(max(activity.weeks.count, 1))
        // Every week's date fits below its bar up to eight weeks; a quarter's thirteen or
        // fourteen get every other one.
        let labelEvery = activity.weeks.count > 8 ? 2 : 1
        var weeks: [[String: Any]] = []
        for (index, week) in activity.weeks.enumerated() {
            let x = left + Double(index) * slot + slot * 0.2
            var base = top + plotHeight
            var segments: [[String: Any]] = []
            for exemption in RiskService.paymentExemptions {
                let count = week.granted[exemption.rawValue] ?? 0
                guard count > 0 else { continue }
                let segment = Double(count) / scale * plotHeight
                base -= segment
                segments.append([
                    "x": number(x), "y": number(base), "width": number(slot * 0.6), "height": number(segment),
                    "exemption": exemption.rawValue, "count": String(count),
                    "label": words.text(
                        "console.risk.exemptions.segment",
                        ["week": week.start, "exemption": words.text("console.risk.exemption.\(exemption.rawValue)"),
                         "count": String(count)]),
                ])
            }
            var row: [String: Any] = ["start": week.start, "segments": segments, "total": String(totals[index])]
            if index % labelEvery == 0 {
                row["labelled"] = true
                row["axisLabel"] = String(week.start.dropFirst(5))
                row["labelX"] = number(x + slot * 0.3)
                row["axisY"] = number(top + plotHeight + 16)
            }
            weeks.append(row)
        }
        return [
            "weeks": weeks, "ticks": ticks(scale) { String(Int($0)) }, "frame": frame,
            "empty": totals.allSatisfy { $0 == 0 },
        ]
    }

    /// The axes' lines.
    static var frame: [String: Any] {
        ["left": number(left), "right": number(width - right), "top": number(top), "bottom": number(top + plotHeight)]
    }

    /// Five ticks from 0 to `scale`, each labelled.
    static func ticks(_ scale: Double, label: (Double) -> String) -> [[String: Any]] {
        (0...4).map { step in
            let value = scale * Double(step) / 4
            let y = top + plotHeight - plotHeight * Double(step) / 4
            return ["y": number(y), "textY": number(y + 4), "x": number(left - 6), "left": number(left), "right": number(width - right), "label": label(value)]
        }
    }

    /// The smallest of 1, 2, 2.5, 4 or 5 times a power of ten at or above `value` (whole numbers
    /// from 4 up for counts), so the ticks at its quarters are round numbers.
    static func niceMaximum(_ value: Double, whole: Bool = false) -> Double {
        guard value > 0 else { return whole ? 4 : 0.01 }
        let power = pow(10, (log10(value)).rounded(.down))
        for step in [1.0, 2, 2.5, 4, 5, 10] where step * power >= value {
            let candidate = step * power
            if whole { return max(4, (candidate / 4).rounded(.up) * 4) }
            return candidate
        }
        return 10 * power
    }

    /// A percentage for an axis: as many decimals as it needs, at most six.
    static func percentText(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A coordinate with one decimal.
    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
