import SCAStorage

/// Whose failures an attempt counts against: a user, or an address that matches no user, so
/// that a decoy locks, blocks and grows exactly like a real user.
enum LockoutSubject: Sendable {
    case user(UserRecord)
    /// A keyed hash of what was typed (`ChallengeRecord.subjectKey`), never the address.
    case unknownAddress(key: String)
}
