import SCACore
import SCAStorage

/// A proof once judged, on its way to the challenge (``ChallengeService``'s `record`).
struct JudgedProof: Sendable {
    /// How the proof holds the challenge while it is recorded.
    enum Claim: Sendable, Equatable {
        /// Claimed before it was checked, with its attempt reserved when it began one.
        case claimed(startsAttempt: Bool)
        /// A device signature, judged by pure code: the recording write claims the challenge
        /// and reserves the attempt itself.
        case unclaimed
    }

    let method: AuthenticationMethod
    let passed: Bool
    /// A category the proof proved (or, wrong, claimed) besides its method's.
    let extra: Category?
    /// Facts for the proof's audit entry.
    let details: [String: String]
    let user: UserRecord?
    let subject: LockoutSubject
    /// The device that signed (device signatures only): its outcome is recorded with the proof.
    let device: DeviceRecord?
    /// A right signature's burn hash: added to the challenge's used signatures by the commit, or
    /// already there and the proof is a replay.
    let burn: [UInt8]?
    /// A right one-time code's or TOTP step's use: committed with the proof, or it was used
    /// meanwhile and the proof is judged again.
    let factor: FactorUse?
    let claim: Claim
    /// The consent a completing proof decides in its write (``ConsentDecision``).
    var deciding: ConsentDecision.Deciding? = nil
}
