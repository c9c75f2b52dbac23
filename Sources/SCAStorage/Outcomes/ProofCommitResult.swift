import SCACore

/// The answer to ``SCAStore/commitProof(_:)``. Only `.committed` changed anything.
public enum ProofCommitResult: Sendable, Equatable {
    /// Everything was applied. `lockout`: what the plan did (nil without one); `device`: the
    /// device after the change (nil without one, or when there is no such device); `audit`:
    /// the entries as stored (the consent's last, when it was stored); `consentStored`: the
    /// commit's ``ProofCommit/consent`` won its compare-and-set (false without one).
    case committed(lockout: LockoutStep?, device: DeviceRecord?, audit: [AuditEntry], consentStored: Bool)
    /// The lockout plan refused the attempt (blocked, or the allowance is taken).
    case refused(AttemptReservation)
    /// Another update of the challenge came first.
    case versionConflict
    /// The one-time factor (``FactorUse``) was used, or replaced, after it was read: the proof
    /// is judged again on the factor as it now is.
    case factorUsed
}

/// Thrown inside a backend's proof transaction to roll it back with the answer it carries.
package struct ProofCommitRefusal: Error, Sendable {
    package let result: ProofCommitResult

    package init(_ result: ProofCommitResult) {
        self.result = result
    }
}
