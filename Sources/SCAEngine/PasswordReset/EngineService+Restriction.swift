import SCACore

extension EngineService {
    /// Refuses a change to how a restricted account is reached. Removing a device or passkey
    /// takes power away, but from a restricted account it would take the real owner's way back
    /// (a full reset with that device or passkey) away too.
    /// - Throws: `Problem.userRestricted`.
    func refuseIfRestricted(_ userID: String) async throws {
        if try await store.user(id: userID)?.isRestricted == true { throw Problem.userRestricted }
    }
}
