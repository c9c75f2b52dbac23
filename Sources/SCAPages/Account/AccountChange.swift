/// What a confirmation on the account page is for. Each change that adds a way in or moves
/// where codes and alerts go needs a `settings_change` challenge of its own, never the
/// sign-in's; its token serves that one change.
enum AccountChange: String, Codable, Sendable, CaseIterable {
    case passkey
    case email
    case phone
    case password
    case pin
    case totp
    case recoverySheet

    /// Where the browser goes once the confirmation is done.
    var formPath: String {
        self == .passkey ? AccountPages.newPasskey : "/account/settings/\(rawValue)"
    }
}
