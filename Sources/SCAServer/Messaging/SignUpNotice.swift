/// The message a known user gets when someone asks `POST /v1/signup-or-in` for a code to their
/// address and the code could not sign them in: their codes of that kind are off, or
/// the login policy does not take them. Instead of a code (which the answer pretends to have
/// sent, as for any address) they learn that they have an account and should sign in. It
/// carries no code and no link: nothing in it can be used by whoever typed the address.
enum SignUpNotice {
    /// The text for `channel` (an SMS is kept short), naming the service as `issuer`.
    static func text(for channel: OutboundMessage.Channel, issuer: String) -> String {
        switch channel {
        case .sms, .push:
            return "Someone tried to create a \(issuer) account with this number. You already have one: please sign in. "
                + "If it was not you, ignore this message."
        case .email:
            return "Someone tried to create a \(issuer) account with this e-mail address. You already have an account "
                + "with it, so none was created: please sign in instead. If it was not you, you can ignore this message; "
                + "nobody can use it to sign in as you."
        }
    }
}
