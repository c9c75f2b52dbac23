import Foundation
import SCAClient
import SCACore

/// What the app remembers about who signed in last: the e-mail to offer at the next manual
/// login, and the user id it belongs to, so a cold start can greet the user by e-mail.
struct Profile: Codable, Equatable {
    var email: String?
    var userId: String?

    /// An unreadable profile is only a lost convenience, so it reads as empty.
    static func load(from file: URL) -> Profile {
        guard let data = try? Data(contentsOf: file), let profile = try? JSONDecoder().decode(Profile.self, from: data) else {
            return Profile()
        }
        return profile
    }

    func save(to file: URL) throws {
        try ProtectedFile.write(try WireJSON.encoder().encode(self), to: file)
    }

    /// How to name the signed-in user: the remembered e-mail when it is this user's, else the id.
    func name(forUserID userID: String?) -> String? {
        if let userID, userID == self.userId, let email { return email }
        return userID
    }
}
