import SCACore

/// How many payments one exemption let through without SCA on one UTC day.
public struct ExemptionTally: Sendable, Equatable {
    /// The day, numbered as ``RiskDay`` numbers them (days since 1970-01-01, UTC).
    public var day: Int64
    public var exemption: Exemption
    public var count: Int

    public init(day: Int64, exemption: Exemption, count: Int) {
        self.day = day
        self.exemption = exemption
        self.count = count
    }
}
