import SCACore

// Sign-up or in.
extension UserService {
    /// The scrypt PHC string of a password or PIN, hashed on the bounded pool; nil for nil.
    func hashSecret(_ secret: String?) async throws -> String? {
        guard let secret else { return nil }
        let hasher = self.hasher
        return try await hashing.run(.hash) { try hasher.hash(secret) }
    }
}
