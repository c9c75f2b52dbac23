import SCACore

extension RiskReport {
    /// The report as `sca-server risk report` prints it: per type the quarter's volume, fraud
    /// and rate, each band with its reference and whether it is exceeded or stopped; then each
    /// exemption, whether it is applied, and why.
    package var renderedText: String {
        var lines = ["fraud rates for \(quarter) (RTS art. 19; TRA stops after two quarters above a reference, art. 20)"]
        for rate in types {
            lines.append(
                "\(rate.type.rawValue): volume \(rate.volume) EUR, fraud \(rate.fraud) EUR, rate \(rate.ratePercent) %")
            for band in rate.bands {
                let state = band.suspended ? "TRA STOPPED" : band.exceeded ? "ABOVE REFERENCE" : "within reference"
                lines.append("  up to \(band.maxAmount) EUR: reference \(band.referencePercent) % - \(state)")
            }
        }
        lines.append("exemptions in force now:")
        for status in exemptions {
            lines.append("  \(status.exemption.rawValue): \(status.applied ? "applied" : "not applied") - \(status.reason)")
        }
        return lines.joined(separator: "\n")
    }
}
