import Foundation
import SCACore

/// A one-time factor a right proof uses up, applied by ``SCAStore/commitProof(_:)`` as a
/// compare-and-set inside the proof's transaction: the proof commits only if the factor is
/// still unused then, so of two proofs judged right on the same code one commits.
public enum FactorUse: Sendable, Equatable {
    /// A delivered code: marked used only if it is still the challenge's code for `method`
    /// (`codeHash`), unused, and unexpired at `now`.
    case deliveredCode(challengeID: String, method: AuthenticationMethod, codeHash: [UInt8], now: Date)
    /// A TOTP time step: stored as the user's last accepted step only if it is newer than the
    /// one stored, which burns every older step with it.
    case totpStep(userID: String, step: Int64)
}
