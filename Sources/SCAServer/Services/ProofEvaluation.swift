import SCAStorage

/// What checking one proof found.
enum ProofEvaluation: Sendable, Equatable {
    case right
    /// A wrong proof; for a wrong signature, the device as the failure left it (blocked at
    /// its limit), so the caller need not read it again.
    case wrong(device: DeviceRecord?)
    /// A right one-time code, or signature, presented again: its TOTP step is burnt, its
    /// delivered code used, its signature seen. Refused (once is once), but not a guess.
    case replayed
}
