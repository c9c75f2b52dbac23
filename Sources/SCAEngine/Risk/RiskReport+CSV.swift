import SCACore

extension RiskReport {
    /// The header of ``csv``.
    package static let csvHeader = [
        "quarter", "payment_type", "volume_eur", "fraud_eur", "rate_percent", "band_up_to_eur", "reference_percent",
        "state", "exemption", "reason",
    ]

    /// The report as CSV (RFC 4180, CRLF line ends): the header, a row per TRA band of each
    /// payment type (the type's volume, fraud and rate on each; the state `within_reference`,
    /// `above_reference` or `tra_stopped`), then a row per exemption (the state `applied` or
    /// `not_applied`, and why). The same figures as ``renderedText``, for a spreadsheet.
    package var csv: String {
        var rows = [Self.csvHeader]
        for rate in types {
            for band in rate.bands {
                let state = band.suspended ? "tra_stopped" : band.exceeded ? "above_reference" : "within_reference"
                rows.append([
                    quarter, rate.type.rawValue, rate.volume, rate.fraud, rate.ratePercent, band.maxAmount,
                    band.referencePercent, state, "", "",
                ])
            }
        }
        for status in exemptions {
            rows.append([
                quarter, "", "", "", "", "", "", status.applied ? "applied" : "not_applied", status.exemption.rawValue,
                status.reason,
            ])
        }
        return rows.map { $0.map(Self.csvField).joined(separator: ",") + "\r\n" }.joined()
    }

    /// A field as RFC 4180 writes it: in quotes, its quotes doubled, when it holds a comma, a
    /// quote or a line break; as it is otherwise.
    static func csvField(_ text: String) -> String {
        // By scalar: "\r\n" is one Character, equal to neither "\r" nor "\n".
        guard text.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
